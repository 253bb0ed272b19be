// STUDIO (issue 34, first part): an analyst edits a resource's fields on the application's own form renderer, sees the
// plan of the change (what it does to the stored data, refusals naming the rows) and applies it live; the versions with
// their differences, and going back to one. What it writes is what the Analyst guide would write by hand.
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { callRoute } from '../../api/dataProvider.ts';
import { useRoute } from '../../api/hooks.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { useDefinitions } from '../../lib/definitions.ts';
import { formatDateTime } from '../../lib/format.ts';
import { usePageMeta } from '../../lib/pageMeta.tsx';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import { SchemaForm } from '../../renderer/SchemaForm.tsx';
import type { RecordData } from '../../types.ts';
import type { DeskPageProps } from '../registry.ts';
import { CAMPO_SCHEMA, NOME_VALIDO, TIPI, campiOf, fileDelCampo, paths, type Campo } from './campi.ts';
import { STUDIO_ROUTES } from './routes.ts';

type Files = Record<string, Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files

interface Piano {
  versione: number;
  differenze: Array<{ file: string; tipo: string; modifiche: Array<{ percorso: string }> }>;
  lint: { ok: boolean; errori: Array<{ file: string; pointer: string; messaggio: string }> };
  istruzioni: Array<{ sql: string; righe: number }>;
  rifiuti: Array<{ file: string; pointer: string; messaggio: string; righe: unknown[] }>;
  applicabile: boolean;
}

interface Versione {
  n: number;
  origine: string;
  at: string;
  utente: { name: string } | null;
  differenze: Array<{ file: string; tipo: string }>;
}

const ORIGINI: Record<string, string> = { deploy: 'Rilascio', modifica: 'Modifica', ripristino: 'Ripristino' };
const FORM_UI = { 'ui:layout': [{ title: 'Campo', fields: Object.keys(CAMPO_SCHEMA.properties) }] };
const tipoTitolo = (tipo: string) => TIPI.find((t) => t.tipo === tipo)?.titolo ?? tipo;

export default function Studio({ card }: DeskPageProps) {
  usePageMeta({ title: card.title, icon: card.icon });
  const notify = useNotify();
  const { definitions, reload: reloadDefinitions } = useDefinitions();
  const set = useRoute<{ versione: number; files: Files }>(STUDIO_ROUTES.definizioni, {});
  const versioni = useRoute<{ data: Versione[] }>(STUDIO_ROUTES.versioni, {}, {}, { query: { per_page: 20 } });
  const [resource, setResource] = useState('cliente');
  const [editing, setEditing] = useState<{ campo: Campo; originale?: string; key: number }>();
  const [draft, setDraft] = useState<RecordData>({});
  const [plan, setPlan] = useState<{ piano: Piano; files: Files }>();
  const [busy, setBusy] = useState(false);
  const [restore, setRestore] = useState<Versione>();

  const files = set.data?.files;
  const resources = useMemo(() => Object.keys(files ?? {}).filter((f) => /^schemas\/[a-z][a-z0-9_]*\/resource\.json$/.test(f)).map((f) => f.split('/')[1]!).sort(), [files]);
  const campi = useMemo(() => (files?.[paths(resource).entity] ? campiOf(files[paths(resource).entity]!, files[paths(resource).list]) : []), [files, resource]);

  const refresh = async () => {
    await Promise.all([set.mutate(), versioni.mutate(), reloadDefinitions()]);
  };
  const edit = (campo: Campo, originale?: string) => {
    setPlan(undefined);
    setDraft(campo as unknown as RecordData);
    setEditing({ campo, originale, key: Date.now() });
  };
  const pianifica = async () => {
    if (!files || !editing) return;
    const campo = { ...editing.campo, ...draft } as Campo;
    if (!NOME_VALIDO.test(campo.nome ?? '')) {
      notify('danger', 'Nome tecnico non valido: minuscole, cifre e _, iniziando con una lettera.');
      return;
    }
    const changed = fileDelCampo(files, resource, campo, editing.originale);
    setBusy(true);
    try {
      const piano = await callRoute<Piano>('POST', STUDIO_ROUTES.piano, {}, { body: { files: changed } });
      setPlan({ piano, files: changed });
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(false);
    }
  };
  const applica = async () => {
    if (!plan) return;
    setBusy(true);
    try {
      const done = await callRoute<{ message: string }>('POST', STUDIO_ROUTES.applica, {}, { body: { files: plan.files, versione: plan.piano.versione } });
      notify('success', done.message);
      setPlan(undefined);
      setEditing(undefined);
      await refresh();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(false);
    }
  };
  const ripristina = async (v: Versione) => {
    setBusy(true);
    try {
      const done = await callRoute<{ message: string }>('POST', STUDIO_ROUTES.ripristina, { n: v.n }, { body: { versione: set.data!.versione } });
      notify('success', done.message);
      await refresh();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(false);
      setRestore(undefined);
    }
  };

  if (set.error) return <Notice variant="danger" role="alert">{set.error instanceof Error ? set.error.message : msg.genericError}</Notice>;
  if (!files) return <Spinner label={msg.loading} />;
  return (
    <div className="studio">
      <p className="text-body-secondary">Definizioni in uso: versione {set.data!.versione}. Ogni modifica si pianifica, si verifica sui dati salvati e si applica senza riavvio.</p>
      <Form.Group className="mb-3" controlId="studio-risorsa" style={{ maxWidth: 360 }}>
        <Form.Label>Risorsa</Form.Label>
        <Form.Select value={resource} onChange={(e) => { setResource(e.target.value); setEditing(undefined); setPlan(undefined); }}>
          {resources.map((r) => <option key={r} value={r}>{files[`schemas/${r}/resource.json`]?.title ?? r}</option>)}
        </Form.Select>
      </Form.Group>

      <section aria-labelledby="studio-campi" className="mb-4">
        <div className="d-flex align-items-center gap-3 mb-2">
          <h2 id="studio-campi" className="h5 mb-0">Campi</h2>
          <Button size="sm" variant="primary" onClick={() => edit({ nome: '', titolo: '', tipo: 'testo', obbligatorio: false, in_lista: false })}>Nuovo campo</Button>
        </div>
        <Table responsive hover size="sm" className="align-middle" data-testid="studio-campi">
          <thead>
            <tr><th scope="col">Etichetta</th><th scope="col">Nome tecnico</th><th scope="col">Tipo</th><th scope="col">Obbligatorio</th><th scope="col"><span className="visually-hidden">Azioni</span></th></tr>
          </thead>
          <tbody>
            {campi.map((c) => (
              <tr key={c.nome}>
                <td>{c.titolo}</td><td><code>{c.nome}</code></td><td>{tipoTitolo(c.tipo)}</td><td>{c.obbligatorio ? 'Sì' : 'No'}</td>
                <td><Button size="sm" variant="outline-primary" aria-label={`Modifica il campo ${c.titolo}`} onClick={() => edit(c, c.nome)}>Modifica</Button></td>
              </tr>
            ))}
          </tbody>
        </Table>
      </section>

      {editing && (
        <section aria-labelledby="studio-campo" className="mb-4 border rounded p-3">
          <h2 id="studio-campo" className="h5">{editing.originale ? `Modifica del campo ${editing.campo.titolo}` : 'Nuovo campo'}</h2>
          <SchemaForm key={editing.key} id="studio-campo-form" schema={CAMPO_SCHEMA as never} formUi={FORM_UI as never} initialData={editing.campo as unknown as RecordData}
            resources={definitions?.resources} onChange={(data) => { setDraft(data); setPlan(undefined); }} />
          <div className="d-flex gap-2 mt-3">
            <Button variant="primary" disabled={busy} onClick={() => void pianifica()}>Verifica il piano</Button>
            <Button variant="outline-secondary" disabled={busy} onClick={() => { setEditing(undefined); setPlan(undefined); }}>Annulla</Button>
          </div>
        </section>
      )}

      {plan && <PianoView piano={plan.piano} busy={busy} onApply={() => void applica()} />}

      <section aria-labelledby="studio-versioni" className="mb-4">
        <h2 id="studio-versioni" className="h5">Versioni</h2>
        {!versioni.data ? <Spinner label={msg.loading} /> : (
          <Table responsive size="sm" className="align-middle" data-testid="studio-versioni">
            <thead><tr><th scope="col">Versione</th><th scope="col">Origine</th><th scope="col">Quando</th><th scope="col">Chi</th><th scope="col">File cambiati</th><th scope="col"><span className="visually-hidden">Azioni</span></th></tr></thead>
            <tbody>
              {versioni.data.data.map((v) => (
                <tr key={v.n}>
                  <td>{v.n}</td><td>{ORIGINI[v.origine] ?? v.origine}</td><td>{formatDateTime(v.at)}</td><td>{v.utente?.name ?? 'sistema'}</td>
                  <td className="small">{v.differenze.length > 6 ? `${v.differenze.length} file` : v.differenze.map((d) => `${d.file.replace(/^schemas\//, '')} (${d.tipo})`).join(', ')}</td>
                  <td>{v.n !== set.data!.versione && <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => setRestore(v)}>Ripristina questa versione</Button>}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
      <ConfirmDialog show={restore !== undefined} title="Ripristina versione" text={`Tornare alla versione ${restore?.n}? La modifica si applica come ogni altra: è rifiutata se perderebbe dati.`}
        confirmLabel="Ripristina" busy={busy} onConfirm={() => void ripristina(restore!)} onCancel={() => setRestore(undefined)} />
    </div>
  );
}

function PianoView({ piano, busy, onApply }: { piano: Piano; busy: boolean; onApply: () => void }) {
  return (
    <section aria-labelledby="studio-piano" className="mb-4 border rounded p-3" data-testid="studio-piano">
      <h2 id="studio-piano" className="h5">Piano della modifica</h2>
      {!piano.lint.ok && piano.lint.errori.map((e) => <Notice key={`${e.file}${e.pointer}`} variant="danger" role="alert">{`Errore nella definizione (${e.file}${e.pointer ? ` ${e.pointer}` : ''}): ${e.messaggio}`}</Notice>)}
      {piano.rifiuti.map((r) => (
        <Notice key={`${r.file}${r.pointer}`} variant="danger" role="alert">
          {`Modifica rifiutata: ${r.messaggio}`}{r.righe.length ? ` Primi record interessati: ${r.righe.map((x) => JSON.stringify(x)).join(', ')}.` : ''}
        </Notice>
      ))}
      {piano.lint.ok && (
        <>
          <p className="mb-1">Istruzioni sul database ({piano.istruzioni.length}):</p>
          <ul className="small">
            {piano.istruzioni.length === 0 && <li>Nessuna: i dati salvati restano come sono.</li>}
            {piano.istruzioni.map((s, i) => <li key={i}><code>{s.sql.replace(/\s+/g, ' ').slice(0, 200)}</code> — {s.righe === 1 ? '1 record' : `${s.righe} record`}</li>)}
          </ul>
        </>
      )}
      <Button variant="success" disabled={busy || !piano.applicabile} onClick={onApply}>Applica</Button>
    </section>
  );
}

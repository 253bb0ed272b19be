// STUDIO DELLE DEFINIZIONI (issue 34, first part): an analyst changes a resource's fields (rename and type change keep
// the data; required with a default; values; shown-when; computed), its list, form and settings, creates a resource with
// its menu entry and adds a guarded workflow transition, each on the application's own form renderer; sees the plan of
// the change (what it does to the stored data, refusals naming the rows) and applies it live; the versions with their
// differences, and going back to one. What it writes is what the Analyst guide would write by hand.
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
import { NOME_VALIDO, campoSchema, TIPI, campiOf, fileDelCampo, paths, problemaDelCampo, type Campo } from '../../../shared/definitions/studio/campi.ts';
import { filtriDellaLista, listaDati, listaFile, listaSchema, moduloDati, moduloFile, moduloSchema, risorsaDati, risorsaFile, risorsaSchema, type Scelta } from '../../../shared/definitions/studio/editori.ts';
import { EVENTO_VALIDO, RISORSA_VALIDA, fileCopiaRisorsa, fileNuovaRisorsa, fileTransizione, statiOf, type NuovaRisorsa, type Transizione } from '../../../shared/definitions/studio/struttura.ts';
import { registry } from '../../widgets/registry.ts';
import { GUARDIE, fileGuardia, fileStato, guardieScelte, prossimoId, transizioniScelte, type NuovaGuardia, type NuovoStato } from '../../../shared/definitions/studio/flussi.ts';
import { AnteprimaRisorse, ControlloFlusso, StudioSetContext, useBozza, type StudioSet } from './Anteprima.tsx';
import { Diagramma } from './Diagramma.tsx';
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

/** The form widgets of the client's one registry (feature modules register theirs at start, before the studio opens). */
const WIDGETS = () => Object.entries(registry).filter(([, e]) => e.widget).map(([name]) => name).sort();
const ORIGINI: Record<string, string> = { deploy: 'Rilascio', modifica: 'Modifica', ripristino: 'Ripristino' };
const tipoTitolo = (tipo: string) => TIPI.find((t) => t.tipo === tipo)?.titolo ?? tipo;
/** The choices plus the values already written that are not among them (a|b permissions, nested search entries). */
const withCurrent = (choices: Scelta[], current: unknown[]): Scelta[] => [
  ...choices, ...[...new Set(current.map(String))].filter((v) => !choices.some((c) => c.const === v)).map((v) => ({ const: v, title: v })),
];

/** One change being prepared: its form (the application's renderer), its plan, then 'Applica' with the planned version. */
interface ModificaProps {
  id: string;
  titolo: string;
  schema: Record<string, unknown>;
  iniziale: RecordData;
  /** The files the form's values change, or an Italian message saying what is wrong with them. */
  files: (data: RecordData) => Record<string, unknown> | string;
  onApplied: () => Promise<unknown>;
  onCancel: () => void;
}

function Modifica({ id, titolo, schema, iniziale, files, onApplied, onCancel }: ModificaProps) {
  const notify = useNotify();
  const { definitions } = useDefinitions();
  const [draft, setDraft] = useState<RecordData>(iniziale);
  const [plan, setPlan] = useState<{ piano: Piano; files: Record<string, unknown> }>();
  const [busy, setBusy] = useState(false);
  const formUi = useMemo(() => ({ 'ui:layout': [{ title: titolo, fields: Object.keys((schema.properties ?? {}) as object) }] }), [schema, titolo]);
  // The draft's files, once typing pauses: the workflow lint and the live preview read them.
  const pronta = useBozza(draft, files);
  // An untouched form's message (a name not typed yet) is no news.
  const bozza = draft === iniziale && typeof pronta === 'string' ? {} : pronta;
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(false);
    }
  };
  const pianifica = () => run(async () => {
    const changed = files(draft);
    if (typeof changed === 'string') {
      notify('danger', changed);
      return;
    }
    setPlan({ piano: await callRoute<Piano>('POST', STUDIO_ROUTES.piano, {}, { body: { files: changed } }), files: changed });
  });
  const applica = () => run(async () => {
    const done = await callRoute<{ message: string }>('POST', STUDIO_ROUTES.applica, {}, { body: { files: plan!.files, versione: plan!.piano.versione } });
    notify('success', done.message);
    await onApplied();
  });
  return (
    <>
    <section aria-labelledby={`${id}-titolo`} className="mb-4 border rounded p-3">
      <h2 id={`${id}-titolo`} className="h5">{titolo}</h2>
      <SchemaForm id={id} schema={schema as never} formUi={formUi as never} initialData={iniziale} resources={definitions?.resources}
        onChange={(data) => { setDraft(data); setPlan(undefined); }} />
      <ControlloFlusso changed={bozza} />
      <div className="d-flex gap-2 mt-3 mb-3">
        <Button variant="primary" disabled={busy} onClick={() => void pianifica()}>Verifica il piano</Button>
        <Button variant="outline-secondary" disabled={busy} onClick={onCancel}>Annulla</Button>
      </div>
      {plan && <PianoView piano={plan.piano} busy={busy} onApply={() => void applica()} />}
    </section>
    <AnteprimaRisorse changed={bozza} />
    </>
  );
}

type Aperta = { tipo: 'campo'; campo: Campo; originale?: string } | { tipo: 'risorsa' } | { tipo: 'transizione' } | { tipo: 'stato' } | { tipo: 'guardia' } | { tipo: 'lista' } | { tipo: 'modulo' } | { tipo: 'impostazioni' };

export default function Studio({ card }: DeskPageProps) {
  usePageMeta({ title: card.title, icon: card.icon });
  const notify = useNotify();
  const { reload: reloadDefinitions } = useDefinitions();
  const set = useRoute<{ versione: number; files: Files; implementati?: StudioSet['implementati'] }>(STUDIO_ROUTES.definizioni, {});
  const versioni = useRoute<{ data: Versione[] }>(STUDIO_ROUTES.versioni, {}, {}, { query: { per_page: 20 } });
  const [resource, setResource] = useState('cliente');
  const [machine, setMachine] = useState('quotazione_auto_storica');
  const [aperta, setAperta] = useState<Aperta & { key: number }>();
  const [busy, setBusy] = useState(false);
  const [restore, setRestore] = useState<Versione>();

  const files = set.data?.files;
  const resources = useMemo(() => Object.keys(files ?? {}).filter((f) => /^schemas\/[a-z][a-z0-9_]*\/resource\.json$/.test(f)).map((f) => f.split('/')[1]!).sort(), [files]);
  const machines = useMemo(() => Object.keys(files ?? {}).filter((f) => f.startsWith('workflows/')).map((f) => f.slice('workflows/'.length, -'.json'.length)).sort(), [files]);
  // A workflow named by the resources that follow it (their titles), as analysts know it; its file name otherwise.
  const titoloFlusso = (m: string) => resources.filter((r) => files?.[`schemas/${r}/resource.json`]?.workflow?.machine === m)
    .map((r) => String(files?.[`schemas/${r}/resource.json`]?.title ?? r)).join(', ') || m;
  const campi = useMemo(() => (files?.[paths(resource).entity] ? campiOf(files[paths(resource).entity]!, files[paths(resource).list]) : []), [files, resource]);
  const permessi = useMemo(() => ((files?.['schemas/_reference/ruoli.json']?.permissions ?? []) as Array<{ name: string; description?: string }>), [files]);
  // One schema object while the set is the same: a new one each render would rebuild the open field form.
  const schemaCampo = useMemo(() => campoSchema(
    resources.map((r) => ({ const: r, title: String(files?.[`schemas/${r}/resource.json`]?.title ?? r) })),
    permessi.map((p) => ({ const: p.name, title: p.description ? `${p.name} — ${p.description}` : p.name })),
  ), [resources, files, permessi]);
  const stati = useMemo(() => statiOf(files?.[`workflows/${machine}.json`] ?? {}), [files, machine]);
  const studioSet = useMemo(() => (files ? { files, implementati: set.data?.implementati } : undefined), [files, set.data?.implementati]);

  const open = (what: Aperta) => setAperta({ ...what, key: Date.now() });
  const applied = async () => {
    setAperta(undefined);
    await Promise.all([set.mutate(), versioni.mutate(), reloadDefinitions()]);
  };
  const ripristina = async (v: Versione) => {
    setBusy(true);
    try {
      const done = await callRoute<{ message: string }>('POST', STUDIO_ROUTES.ripristina, { n: v.n }, { body: { versione: set.data!.versione } });
      notify('success', done.message);
      await applied();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(false);
      setRestore(undefined);
    }
  };

  if (set.error) return <Notice variant="danger" role="alert">{set.error instanceof Error ? set.error.message : msg.genericError}</Notice>;
  if (!files) return <Spinner label={msg.loading} />;
  const titoloRisorsa = files[`schemas/${resource}/resource.json`]?.title ?? resource;
  const scelteCampi: Scelta[] = Object.entries<{ title?: string }>(files[paths(resource).entity]?.properties ?? {}).map(([name, p]) => ({ const: name, title: p.title ?? name }));
  // A row scope tests an integer field (the collaborator's id).
  const scelteInteri: Scelta[] = Object.entries<{ title?: string; type?: string }>(files[paths(resource).entity]?.properties ?? {}).filter(([, p]) => p.type === 'integer').map(([name, p]) => ({ const: name, title: p.title ?? name }));
  const sceltePermessi: Scelta[] = permessi.map((p) => ({ const: p.name, title: p.description ? `${p.name} — ${p.description}` : p.name }));
  const permessoSchema = { type: 'string', oneOf: permessi.map((p) => ({ const: p.name, title: p.description ? `${p.name} — ${p.description}` : p.name })) };
  const statoSchema = { type: 'string', oneOf: stati.map((st) => ({ const: st.stato, title: st.nome })) };
  // A set without this machine (none yet) draws an empty one.
  const flusso = files[`workflows/${machine}.json`] ?? { states: {}, meta: { events: {} } };
  const guardieFlusso = guardieScelte(set.data!.implementati?.guardie[machine] ?? Object.keys(GUARDIE));
  return (
    <StudioSetContext.Provider value={studioSet}>
    <div className="studio">
      <p className="text-body-secondary">Definizioni in uso: versione {set.data!.versione}. Ogni modifica si pianifica, si verifica sui dati salvati e si applica senza riavvio.</p>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <Form.Group controlId="studio-risorsa" style={{ minWidth: 280 }}>
          <Form.Label>Risorsa</Form.Label>
          <Form.Select value={resource} onChange={(e) => { setResource(e.target.value); setAperta(undefined); }}>
            {resources.map((r) => <option key={r} value={r}>{files[`schemas/${r}/resource.json`]?.title ?? r}</option>)}
          </Form.Select>
        </Form.Group>
        <Button variant="outline-primary" onClick={() => open({ tipo: 'lista' })}>Lista</Button>
        <Button variant="outline-primary" onClick={() => open({ tipo: 'modulo' })}>Modulo</Button>
        <Button variant="outline-primary" onClick={() => open({ tipo: 'impostazioni' })}>Impostazioni della risorsa</Button>
        <Button variant="outline-primary" onClick={() => open({ tipo: 'risorsa' })}>Nuova risorsa</Button>
      </div>

      <section aria-labelledby="studio-campi" className="mb-4">
        <div className="d-flex align-items-center gap-3 mb-2">
          <h2 id="studio-campi" className="h5 mb-0">Campi</h2>
          <Button size="sm" variant="primary" onClick={() => open({ tipo: 'campo', campo: { nome: '', titolo: '', tipo: 'testo', obbligatorio: false, in_lista: false } })}>Nuovo campo</Button>
        </div>
        <Table responsive hover size="sm" className="align-middle" data-testid="studio-campi">
          <thead>
            <tr><th scope="col">Etichetta</th><th scope="col">Nome tecnico</th><th scope="col">Tipo</th><th scope="col">Obbligatorio</th><th scope="col"><span className="visually-hidden">Azioni</span></th></tr>
          </thead>
          <tbody>
            {campi.map((c) => (
              <tr key={c.nome}>
                <td>{c.titolo}</td><td><code>{c.nome}</code></td><td>{tipoTitolo(c.tipo)}</td><td>{c.obbligatorio ? 'Sì' : 'No'}</td>
                <td><Button size="sm" variant="outline-primary" aria-label={`Modifica il campo ${c.titolo}`} onClick={() => open({ tipo: 'campo', campo: c, originale: c.nome })}>Modifica</Button></td>
              </tr>
            ))}
          </tbody>
        </Table>
      </section>

      {aperta?.tipo === 'campo' && (
        <Modifica key={aperta.key} id="studio-campo-form" titolo={aperta.originale ? `Modifica del campo ${aperta.campo.titolo}` : 'Nuovo campo'}
          schema={schemaCampo} iniziale={aperta.campo as unknown as RecordData} onApplied={applied} onCancel={() => setAperta(undefined)}
          files={(data) => {
            const campo = { ...aperta.campo, ...data } as Campo;
            if (!NOME_VALIDO.test(campo.nome ?? '')) return 'Nome tecnico non valido: minuscole, cifre e _, iniziando con una lettera.';
            return problemaDelCampo(campo) ?? fileDelCampo(files, resource, campo, aperta.originale);
          }} />
      )}
      {aperta?.tipo === 'lista' && (
        <Modifica key={aperta.key} id="studio-lista-form" titolo={`Lista di ${titoloRisorsa}`} schema={listaSchema(scelteCampi, filtriDellaLista(files[paths(resource).list]!))} iniziale={listaDati(files[paths(resource).list]!)}
          onApplied={applied} onCancel={() => setAperta(undefined)} files={(data) => ({ [paths(resource).list]: listaFile(files[paths(resource).list]!, data) })} />
      )}
      {aperta?.tipo === 'modulo' && (
        <Modifica key={aperta.key} id="studio-modulo-form" titolo={`Modulo di ${titoloRisorsa}`} schema={moduloSchema(scelteCampi, WIDGETS())} iniziale={moduloDati(files[paths(resource).form]!)}
          onApplied={applied} onCancel={() => setAperta(undefined)} files={(data) => ({ [paths(resource).form]: moduloFile(files[paths(resource).form]!, data) })} />
      )}
      {aperta?.tipo === 'impostazioni' && (
        <Modifica key={aperta.key} id="studio-impostazioni-form" titolo={`Impostazioni di ${titoloRisorsa}`} iniziale={risorsaDati(files[`schemas/${resource}/resource.json`]!)}
          schema={risorsaSchema(withCurrent(scelteCampi, files[`schemas/${resource}/resource.json`]?.search ?? []),
            withCurrent(sceltePermessi, [...Object.values(files[`schemas/${resource}/resource.json`]?.permissions ?? {}), ...[files[`schemas/${resource}/resource.json`]?.rowScope?.unless ?? []].flat()]), scelteInteri)}
          onApplied={applied} onCancel={() => setAperta(undefined)} files={(data) => ({ [`schemas/${resource}/resource.json`]: risorsaFile(files[`schemas/${resource}/resource.json`]!, data) })} />
      )}
      {aperta?.tipo === 'risorsa' && (
        <Modifica key={aperta.key} id="studio-risorsa-form" titolo="Nuova risorsa" onApplied={applied} onCancel={() => setAperta(undefined)}
          iniziale={{ menu_ordine: 90, campo_nome: 'nome', campo_titolo: 'Nome' }}
          schema={{
            type: 'object', required: ['nome', 'titolo', 'singolare'],
            properties: {
              copia_di: { type: 'string', title: 'Come partenza', oneOf: [{ const: '', title: 'Pagina vuota' }, ...resources.map((r) => ({ const: r, title: `copia di ${files[`schemas/${r}/resource.json`]?.title ?? r}` }))] },
              nome: { type: 'string', title: 'Nome tecnico della risorsa', maxLength: 41 }, titolo: { type: 'string', title: 'Titolo (plurale, anche nel menu)', maxLength: 100 },
              singolare: { type: 'string', title: 'Singolare', maxLength: 100 }, femminile: { type: 'boolean', title: 'Nome femminile (Nuova …)' }, menu_ordine: { type: 'integer', title: 'Posizione nel menu', minimum: 0, maximum: 1000 },
              permesso_lettura: { ...permessoSchema, title: 'Chi la vede (permesso)' }, permesso_scrittura: { ...permessoSchema, title: 'Chi la modifica (permesso)' },
              campo_nome: { type: 'string', title: 'Nome tecnico del primo campo', maxLength: 60 }, campo_titolo: { type: 'string', title: 'Etichetta del primo campo', maxLength: 100 },
            },
          }}
          files={(data) => {
            const r = data as unknown as NuovaRisorsa & { copia_di?: string };
            if (!RISORSA_VALIDA.test(r.nome ?? '')) return 'Nome tecnico non valido: minuscole, cifre e _, iniziando con una lettera.';
            if (files[`schemas/${r.nome}/resource.json`]) return `Esiste già una risorsa ${r.nome}.`;
            if (!r.titolo || !r.singolare) return 'Scrivi il titolo e il singolare.';
            // A copy keeps the permissions and fields of the resource copied; the first field and permissions are for a blank one.
            if (r.copia_di) return fileCopiaRisorsa(files, r.copia_di, r);
            if (!NOME_VALIDO.test(r.campo_nome ?? '')) return 'Nome tecnico del primo campo non valido: minuscole, cifre e _, iniziando con una lettera.';
            if (!r.permesso_lettura || !r.permesso_scrittura) return 'Scegli chi vede e chi modifica la risorsa.';
            return fileNuovaRisorsa(r);
          }} />
      )}

      <section aria-labelledby="studio-flussi" className="mb-4">
        <div className="d-flex flex-wrap align-items-end gap-3 mb-2">
          <h2 id="studio-flussi" className="h5 mb-0">Flussi di lavoro</h2>
          <Form.Group controlId="studio-flusso">
            <Form.Label className="visually-hidden">Flusso</Form.Label>
            <Form.Select size="sm" value={machine} onChange={(e) => { setMachine(e.target.value); setAperta(undefined); }}>
              {machines.map((m) => <option key={m} value={m}>{titoloFlusso(m)}</option>)}
            </Form.Select>
          </Form.Group>
          <Button size="sm" variant="primary" onClick={() => open({ tipo: 'stato' })}>Nuovo stato</Button>
          <Button size="sm" variant="primary" onClick={() => open({ tipo: 'transizione' })}>Nuova transizione</Button>
          <Button size="sm" variant="primary" onClick={() => open({ tipo: 'guardia' })}>Nuova condizione</Button>
        </div>
        <Diagramma machine={flusso} titolo={titoloFlusso(machine)} />
        <Table responsive size="sm" className="align-middle" data-testid="studio-stati">
          <thead><tr><th scope="col">Stato</th><th scope="col">Eventi</th></tr></thead>
          <tbody>{stati.map((st) => <tr key={st.stato}><td>{st.nome}</td><td className="small">{st.eventi.map((e) => files[`workflows/${machine}.json`]?.meta?.events?.[e]?.label ?? e).join(', ')}</td></tr>)}</tbody>
        </Table>
      </section>
      {aperta?.tipo === 'transizione' && (
        <Modifica key={aperta.key} id="studio-transizione-form" titolo="Nuova transizione" onApplied={applied} onCancel={() => setAperta(undefined)} iniziale={{}}
          schema={{
            type: 'object', required: ['da', 'evento', 'etichetta', 'a', 'permesso'],
            properties: {
              da: { ...statoSchema, title: 'Stato di partenza' }, evento: { type: 'string', title: 'Evento (MAIUSCOLE_CON_TRATTINI_BASSI)', maxLength: 41 },
              etichetta: { type: 'string', title: 'Etichetta del pulsante', maxLength: 100 }, a: { ...statoSchema, title: 'Stato di arrivo' },
              permesso: { ...permessoSchema, title: 'Permesso richiesto' }, conferma: { type: 'string', title: 'Domanda di conferma', maxLength: 200 },
              ...guardiaProps(guardieFlusso, permessoSchema, statoIdSchema(flusso), 'Condizione in più (facoltativa)'),
            },
          }}
          files={(data) => {
            const t = data as unknown as Transizione & Partial<NuovaGuardia> & { permesso_condizione?: string };
            if (!EVENTO_VALIDO.test(t.evento ?? '')) return 'Evento non valido: maiuscole, cifre e _, iniziando con una lettera.';
            if (!t.da || !t.a || !t.permesso) return 'Scegli lo stato di partenza, quello di arrivo e il permesso.';
            const next = fileTransizione(flusso, t);
            const guarded = t.guardia ? fileGuardia(next, { transizione: `${t.da}|${t.evento}|0`, guardia: t.guardia, permesso: t.permesso_condizione, stato: t.stato, codice: t.codice }) : next;
            return typeof guarded === 'string' ? guarded : { [`workflows/${machine}.json`]: guarded };
          }} />
      )}
      {aperta?.tipo === 'stato' && (
        <Modifica key={aperta.key} id="studio-stato-form" titolo="Nuovo stato" onApplied={applied} onCancel={() => setAperta(undefined)} iniziale={{}}
          schema={{
            type: 'object', required: ['stato', 'nome'],
            properties: {
              stato: { type: 'string', title: 'Nome tecnico dello stato', maxLength: 41, description: 'Minuscole, cifre e _.' },
              nome: { type: 'string', title: 'Nome dello stato', maxLength: 100 },
              codice: { type: 'string', title: 'Codice', maxLength: 10, description: `Se vuoto, l'id: ${prossimoId(flusso)}.` },
              da: { ...statoSchema, title: 'Raggiunto dallo stato' }, evento: { type: 'string', title: 'Con l\'evento (MAIUSCOLE_CON_TRATTINI_BASSI)', maxLength: 41 },
              etichetta: { type: 'string', title: 'Etichetta del pulsante dell\'evento', maxLength: 100 }, permesso: { ...permessoSchema, title: 'Permesso richiesto dall\'evento' },
            },
          }}
          files={(data) => {
            const s = data as unknown as NuovoStato;
            if (!RISORSA_VALIDA.test(s.stato ?? '')) return 'Nome tecnico dello stato non valido: minuscole, cifre e _, iniziando con una lettera.';
            if (flusso.states[s.stato]) return `Esiste già uno stato ${s.stato}.`;
            if (s.evento && !EVENTO_VALIDO.test(s.evento)) return 'Evento non valido: maiuscole, cifre e _, iniziando con una lettera.';
            return { [`workflows/${machine}.json`]: fileStato(flusso, s) };
          }} />
      )}
      {aperta?.tipo === 'guardia' && (
        <Modifica key={aperta.key} id="studio-guardia-form" titolo="Nuova condizione di una transizione" onApplied={applied} onCancel={() => setAperta(undefined)} iniziale={{}}
          schema={{
            type: 'object', required: ['transizione', 'guardia'],
            properties: {
              transizione: { type: 'string', title: 'Transizione', oneOf: transizioniScelte(flusso) },
              ...guardiaProps(guardieFlusso, permessoSchema, statoIdSchema(flusso), 'Condizione'),
            },
          }}
          files={(data) => {
            const g = data as unknown as NuovaGuardia & { permesso_condizione?: string };
            if (!g.transizione || !g.guardia) return 'Scegli la transizione e la condizione.';
            const next = fileGuardia(flusso, { ...g, permesso: g.permesso_condizione });
            return typeof next === 'string' ? next : { [`workflows/${machine}.json`]: next };
          }} />
      )}

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
    </StudioSetContext.Provider>
  );
}

/** A machine's states as the integer choices of a guard's parameter (statoRichiesto, statoSotto). */
function statoIdSchema(machine: Files[string]) {
  return { type: 'integer', oneOf: Object.values<{ meta: { id: number; nome: string } }>(machine.states ?? {}).map((s) => ({ const: s.meta.id, title: s.meta.nome })) };
}

/** A guard from the implemented list and its parameter, as form properties (the parameter the chosen guard needs). */
function guardiaProps(scelte: Scelta[], permesso: object, stato: object, titolo: string) {
  return {
    guardia: { type: 'string', title: titolo, oneOf: scelte },
    permesso_condizione: { ...permesso, title: 'Permesso della condizione (ha / non ha il permesso)' },
    stato: { ...stato, title: 'Stato della condizione (stato richiesto, stato minore di)' },
    codice: { type: 'string', title: 'Codice di stato della condizione', maxLength: 10 },
  };
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

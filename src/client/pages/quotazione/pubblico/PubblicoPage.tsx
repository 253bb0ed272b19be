// The customer's public form (/quotazione/cliente/{uuid}, spec 001 §2): steps 0-4 drawn by the generic form renderer from
// the public view and schemas/quotazione/public.ui.json, then the documents stage and 'Termina Caricamento'. No login.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useRoute } from '../../../api/hooks.ts';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import type Form from '@rjsf/core';
import type { ErrorSchema } from '@rjsf/utils';
import { ApiError, callRoute, isApiError } from '../../../api/dataProvider.ts';
import { QUOTAZIONE_ROUTES } from '../routes.ts';
import { SchemaForm } from '../../../renderer/SchemaForm.tsx';
import { toErrorSchema } from '../../../renderer/formBody.ts';
import { Logo } from '../../../shell/PlainLayout.tsx';
import { ConfirmDialog } from '../../../lib/ConfirmDialog.tsx';
import { formatDate } from '../../../lib/format.ts';
import type { FormUi, JsonSchema, RecordData } from '../../../types.ts';
import { fieldsUpTo, publicRules, resizeModerni, type PublicStep, type ShownNotice } from '../../../../shared/domains/quotazione/pubblico.ts';
import { controllingFields, pick, stepSchema, stepUi } from './steps.ts';
import { registerFeatures } from '../../../features.ts';

// Its form reads the widget registry, which the entry no longer fills.
registerFeatures();

interface Categoria {
  name: string;
  title: string;
  max: number;
  model: string;
  field?: string;
}

interface Documento {
  id: number;
  name: string;
  collection_name: string;
  item_id: string | null;
  /** Uploaded by the customer through this link: theirs to remove. */
  rimovibile?: boolean;
}

interface Loaded {
  data: RecordData & { fase: 'form' | 'documenti'; passo?: number; uuid: string; documenti: Documento[]; informative: ShownNotice[]; veicoli_storici?: Array<Record<string, unknown>> };
  definizione: { schema: JsonSchema; ui: FormUi & { 'ui:passi': PublicStep[] }; categorie: Categoria[] };
}

const FORM_ID = 'quotazione-cliente';
const LOOKUPS = { lookupBase: '/api/pubblico/autocomplete' };

/** The link's parameter1 (the message that carried it): passed on with every call, stored with the consents. */
type Origin = { parameter1?: string };

function serverMessage(err: unknown): string {
  if (err instanceof ApiError) return String((err.body as { message?: unknown }).message ?? err.message);
  return err instanceof Error ? err.message : String(err);
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <main className="container py-3 px-2" style={{ maxWidth: 760 }}>
      <header className="d-flex align-items-center gap-2 mb-3">
        <Logo size={28} />
        <span className="fw-semibold">Polizza auto storiche</span>
      </header>
      {children}
    </main>
  );
}

/**
 * A message the customer must not miss (saved, sent, refused): when it appears or changes it is scrolled into view and
 * focused, so it is seen on a phone wherever the button was, and read out (role status or alert).
 */
function useShown<T extends HTMLElement>(message: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!message || !ref.current) return;
    ref.current.scrollIntoView({ block: 'center' });
    ref.current.focus({ preventScroll: true });
  }, [message]);
  return ref;
}

function Message({ title, variant, children }: { title: string; variant: 'danger' | 'success' | 'secondary'; children: ReactNode }) {
  const ref = useShown<HTMLDivElement>(title);
  return (
    <Card ref={ref} tabIndex={-1} border={variant} className="mb-3" role={variant === 'danger' ? 'alert' : 'status'}>
      <Card.Body>
        <h1 className={`h4 card-title ${variant === 'danger' ? 'text-danger' : variant === 'success' ? 'text-success' : ''}`}>{title}</h1>
        <div className="card-text">{children}</div>
      </Card.Body>
    </Card>
  );
}

export default function PubblicoPage() {
  const { uuid = '' } = useParams();
  // parameter1 names the message that carried the link (schemas/quotazione/public.view.json): every call passes it on.
  const [params] = useSearchParams();
  const parameter1 = params.get('parameter1') ?? undefined;
  const origin: Origin = useMemo(() => (parameter1 ? { parameter1 } : {}), [parameter1]);
  const { data: loaded, error, mutate, isLoading } = useRoute<Loaded>(QUOTAZIONE_ROUTES.link, { uuid }, {}, { noRedirect: true, query: origin });
  const [finished, setFinished] = useState<'dati' | 'documenti' | undefined>();

  if (isLoading) {
    return (
      <Shell>
        <div className="text-center py-5"><Spinner animation="border" role="status"><span className="visually-hidden">Caricamento…</span></Spinner></div>
      </Shell>
    );
  }
  if (error) {
    const invalidLink = isApiError(error, 'NOT_FOUND');
    return (
      <Shell>
        <Message title={invalidLink ? 'Link non più valido' : 'Errore'} variant="danger">
          <p className="mb-1">{serverMessage(error)}</p>
          {invalidLink && <p className="mb-0">Il link che hai usato non apre più la quotazione. Contatta il tuo intermediario per ricevere un nuovo link.</p>}
        </Message>
      </Shell>
    );
  }
  if (finished === 'documenti') {
    return (
      <Shell>
        <Message title="Caricamento completato" variant="success">
          <p className="mb-0">Grazie! Abbiamo ricevuto i tuoi documenti: il tuo intermediario verificherà la documentazione e ti contatterà.</p>
        </Message>
      </Shell>
    );
  }
  if (!loaded) return null;
  return (
    <Shell>
      {finished === 'dati' && (
        <Message title="Grazie!" variant="success">
          <p className="mb-0">I tuoi dati sono stati inviati correttamente. Ora carica i documenti richiesti.</p>
        </Message>
      )}
      {loaded.data.fase === 'form' ? (
        <Steps loaded={loaded} origin={origin} onReload={async () => { await mutate(); }} onDone={async () => { setFinished('dati'); await mutate(); }} />
      ) : (
        <Documenti loaded={loaded} origin={origin} onUploaded={() => void mutate()} onDone={() => setFinished('documenti')} />
      )}
    </Shell>
  );
}

/** The product's pre-contract notices in force, to read before consenting (their ids go back with the consents). */
function Informative({ notices }: { notices: ShownNotice[] }) {
  if (notices.length === 0) return null;
  return (
    <section className="card mb-3" aria-labelledby="informative-titolo" data-testid="informative">
      <div className="card-body">
        <h2 id="informative-titolo" className="h6 card-title">Documenti precontrattuali</h2>
        <p className="small mb-2">Prima di prestare i consensi leggi i documenti del prodotto (si aprono in una nuova scheda):</p>
        <ul className="mb-0">
          {notices.map((n) => (
            <li key={n.id}>
              <a href={n.url} target="_blank" rel="noopener noreferrer">{n.titolo}</a>{' '}
              <span className="small text-body-secondary">
                (versione {n.versione ?? '—'}{n.valido_dal ? `, in vigore dal ${formatDate(n.valido_dal)}` : ''})
              </span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Steps({ loaded, origin, onReload, onDone }: { loaded: Loaded; origin: Origin; onReload: () => Promise<void>; onDone: () => Promise<void> }) {
  const { schema: full, ui } = loaded.definizione;
  const steps = ui['ui:passi'];
  const last = steps.length - 1;
  // The server says where the customer left off: a reopened link goes on from there.
  const [step, setStep] = useState(() => (Number.isInteger(loaded.data.passo) ? Math.min(Math.max(loaded.data.passo!, 0), last) : 0));
  // null means 'no answer yet': left out, so the schema speaks of a missing value, not of a wrong type.
  const [values, setValues] = useState<RecordData>(() => Object.fromEntries(Object.entries(loaded.data).filter(([, v]) => v !== null)) as RecordData);
  const [live, setLive] = useState<RecordData>(values);
  const [errors, setErrors] = useState<ErrorSchema>();
  const [failure, setFailure] = useState<{ title: string; message: string; list?: string[] }>();
  const [busy, setBusy] = useState(false);
  const form = useRef<Form | null>(null);
  const failureRef = useShown<HTMLDivElement>(failure);
  const current = steps[step]!;
  const controls = useMemo(() => controllingFields(ui), [ui]);
  const controlKey = JSON.stringify(controls.map((f) => live[f] ?? null));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const schema = useMemo(() => stepSchema(full, ui, current, live), [full, ui, current, controlKey]);
  const formUi = useMemo(() => stepUi(ui, current), [ui, current]);
  // Modern-vehicle rows follow the declared daily use from the moment the step opens.
  const initial = useMemo(() => (current.fields.includes('veicoli_moderni') && typeof values.quotidiano === 'number'
    ? { ...values, veicoli_moderni: resizeModerni(values.veicoli_moderni, values.quotidiano) } : values), [current, values]);

  const go = (next: number) => {
    setErrors(undefined);
    setFailure(undefined);
    setStep(next);
    window.scrollTo({ top: 0 });
  };

  const onChange = useCallback((data: RecordData, fieldId?: string) => {
    // The page re-renders only when a value that narrows choices changes: a re-render in the middle of rjsf's own
    // batched changes (the blur of one field, the click on the next) would lose the click.
    setLive((before) => (controls.some((f) => before[f] !== data[f]) ? data : before));
    if (fieldId?.startsWith('root_quotidiano') && typeof data.quotidiano === 'number') {
      const rows = resizeModerni(data.veicoli_moderni, data.quotidiano);
      if (rows.length !== (Array.isArray(data.veicoli_moderni) ? data.veicoli_moderni.length : 0)) form.current?.setFieldValue('veicoli_moderni', rows as never);
    }
  }, [controls]);

  const submit = async (submitted: RecordData) => {
    const merged = { ...values, ...submitted };
    setValues(merged);
    setFailure(undefined);
    // The rules the schema cannot say, with the server's messages (the vehicle-type alert names the plate).
    const rules = publicRules(merged, new Set(current.fields));
    if (Object.keys(rules).length) {
      setErrors(toErrorSchema(rules));
      setFailure({ title: 'Controlla i dati inseriti', message: 'Alcuni dati non sono completi.', list: [...new Set(Object.values(rules).flat())] });
      return;
    }
    if (step === 0) return go(1);
    setBusy(true);
    try {
      if (step === 1) {
        await callRoute('POST', QUOTAZIONE_ROUTES.linkPrimoPasso, {}, { noRedirect: true, query: origin, body: { uuid: loaded.data.uuid, ...pick(merged, current.fields) } });
      } else {
        // The last step sends the whole form (spec 001 §7); the server moves the quotation on to the documents.
        const fields = step === last ? fieldsUpTo(steps, last) : current.fields;
        // The notices this page showed go with the answers: the consent records name them.
        const informative = loaded.data.informative.map((n) => n.id);
        await callRoute('PUT', QUOTAZIONE_ROUTES.linkPasso, { id: loaded.data.id }, {
          noRedirect: true, query: origin, body: { uuid: loaded.data.uuid, passo: step, informative, ...pick(merged, fields) },
        });
      }
      if (step === last) await onDone();
      else go(step + 1);
    } catch (err) {
      if (isApiError(err, 'VALIDATION')) {
        setErrors(toErrorSchema(err.errors));
        // An answer of an earlier step refused by the server: back to that step.
        const earlier = steps.findIndex((s) => Object.keys(err.errors).some((k) => s.fields.includes(k.split('.')[0]!)));
        if (earlier >= 0 && earlier < step) setStep(earlier);
        setFailure({ title: 'Errore', message: serverMessage(err), list: [...new Set(Object.values(err.errors).flat())] });
      } else if (isApiError(err, 'NOTICES_CHANGED') && Array.isArray((err.body as { informative?: unknown }).informative)) {
        // New notices came into force meanwhile: the page shows them, and the customer confirms again having read them.
        setFailure({ title: 'Informative aggiornate', message: serverMessage(err) });
        await onReload();
      } else {
        setFailure({ title: 'Errore', message: serverMessage(err) });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <nav aria-label="Avanzamento" className="mb-3">
        <p className="mb-1 small text-body-secondary">Passo {step + 1} di {steps.length}</p>
        <div className="progress" role="progressbar" aria-label={`Passo ${step + 1} di ${steps.length}: ${current.titolo}`} aria-valuemin={1} aria-valuemax={steps.length} aria-valuenow={step + 1}>
          <div className="progress-bar" style={{ width: `${((step + 1) / steps.length) * 100}%` }} />
        </div>
      </nav>
      <h1 className="h4 mb-3">{current.titolo}</h1>
      {current.descrizione && <p>{current.descrizione}</p>}
      {current.informative && <Informative notices={loaded.data.informative} />}
      {failure && (
        <Alert ref={failureRef} tabIndex={-1} variant="danger" role="alert">
          <Alert.Heading as="h2" className="h6">{failure.title}</Alert.Heading>
          <p className="mb-1">{failure.message}</p>
          {failure.list && failure.list.length > 0 && <ul className="mb-0">{failure.list.map((m) => <li key={m}>{m}</li>)}</ul>}
        </Alert>
      )}
      {current.fields.length > 0 ? (
        <SchemaForm
          key={step}
          id={FORM_ID}
          schema={schema}
          formUi={formUi}
          initialData={initial}
          extraErrors={errors}
          disabled={busy}
          formRef={form}
          context={LOOKUPS}
          onChange={onChange}
          onSubmit={(data) => void submit(data)}
        />
      ) : (
        <form id={FORM_ID} onSubmit={(e) => { e.preventDefault(); void submit({}); }} />
      )}
      <div className="d-grid gap-2 d-sm-flex justify-content-sm-between mt-3 mb-5">
        <Button variant="outline-secondary" size="lg" disabled={step === 0 || busy} onClick={() => go(step - 1)}>Indietro</Button>
        <Button type="submit" form={FORM_ID} size="lg" disabled={busy}>
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          {step === last ? 'Invia' : 'Avanti'}
        </Button>
      </div>
    </>
  );
}

/** One upload slot: a category of the quotation, or the registration document of one vehicle. */
interface Slot {
  key: string;
  title: string;
  category: Categoria;
  itemId?: string;
}

function Documenti({ loaded, origin, onUploaded, onDone }: { loaded: Loaded; origin: Origin; onUploaded: () => void; onDone: () => void }) {
  const uuid = loaded.data.uuid;
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [removing, setRemoving] = useState<Documento>();
  // After a confirmed removal the outcome's message takes the focus; a cancel gives it back to the button.
  const [confirmed, setConfirmed] = useState(false);
  const failureRef = useShown<HTMLDivElement>(failure);
  const noticeRef = useShown<HTMLDivElement>(notice);
  const slots: Slot[] = loaded.definizione.categorie.flatMap((c) => {
    if (!c.field) return [{ key: c.name, title: c.title, category: c }];
    const rows = (loaded.data[c.field] ?? []) as Array<Record<string, unknown>>;
    return rows.filter((v) => typeof v.id === 'string').map((v) => ({
      key: `${c.name}-${String(v.id)}`, title: `${c.title} ${[v.marca, v.modello, v.targa].filter(Boolean).join(' ')}`, category: c, itemId: String(v.id),
    }));
  });
  const filesOf = (slot: Slot) => loaded.data.documenti.filter((d) => d.collection_name === slot.category.name && (slot.itemId ? d.item_id === slot.itemId : !d.item_id));

  const send = async (slot: Slot, file: File | undefined) => {
    setFailure(undefined);
    setNotice(undefined);
    if (!file) return setFailure('Non hai specificato un file da caricare');
    const body = new FormData();
    body.append('collection', slot.category.name);
    body.append('model', slot.category.model);
    // The owner first, so the server checks the category before the file streams in (the link names the quotation).
    body.append('id', slot.itemId ?? uuid);
    body.append('nome_file', file.name);
    body.append('file', file);
    setBusy(slot.key);
    try {
      const answer = await callRoute<{ message: string }>('POST', QUOTAZIONE_ROUTES.linkDocumento, { uuid }, { noRedirect: true, query: origin, body });
      setNotice(answer.message);
      onUploaded();
    } catch (err) {
      setFailure(err instanceof ApiError && Object.keys(err.errors).length ? Object.values(err.errors).flat().join(' ') : serverMessage(err));
    } finally {
      setBusy(undefined);
    }
  };

  // One file at a time, after the customer confirms; the server checks it is theirs and the link still open.
  const remove = async (doc: Documento) => {
    setConfirmed(true);
    setBusy(`rimuovi-${doc.id}`);
    setFailure(undefined);
    setNotice(undefined);
    try {
      const answer = await callRoute<{ message: string }>('DELETE', QUOTAZIONE_ROUTES.linkDocumentoRimuovi, { uuid, id: doc.id }, { noRedirect: true, query: origin });
      setNotice(answer.message);
      onUploaded();
    } catch (err) {
      setFailure(serverMessage(err));
    } finally {
      setRemoving(undefined);
      setBusy(undefined);
    }
  };

  const termina = async () => {
    setBusy('termina');
    setFailure(undefined);
    try {
      await callRoute('POST', QUOTAZIONE_ROUTES.linkTermina, { uuid }, { noRedirect: true, query: origin });
      onDone();
    } catch (err) {
      setFailure(serverMessage(err));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section aria-labelledby="documenti-titolo">
      <h1 id="documenti-titolo" className="h4 mb-3">Caricamento documenti</h1>
      <p>Carica una foto o un PDF per ogni documento (al massimo 3 per categoria). Quando hai finito premi 'Termina Caricamento'.</p>
      {failure && <Alert ref={failureRef} tabIndex={-1} variant="danger" role="alert"><Alert.Heading as="h2" className="h6">Errore</Alert.Heading>{failure}</Alert>}
      {notice && <Alert ref={noticeRef} tabIndex={-1} variant="success" role="status">{notice}</Alert>}
      {slots.map((slot) => {
        const files = filesOf(slot);
        const inputId = `documento-${slot.key}`;
        return (
          <Card key={slot.key} className="mb-2">
            <Card.Body className="py-2">
              <h2 className="h6 mb-1">{slot.title}</h2>
              {files.length > 0 && (
                <ul className="list-unstyled small mb-2" aria-label={`Documenti caricati: ${slot.title}`}>
                  {files.map((f) => (
                    <li key={f.id} className="d-flex align-items-center justify-content-between gap-2">
                      <span className="text-break">{f.name}</span>
                      {f.rimovibile && (
                        <Button variant="outline-danger" size="sm" disabled={busy !== undefined} aria-label={`Rimuovi ${f.name}`} onClick={() => { setConfirmed(false); setRemoving(f); }}>
                          Rimuovi
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {/* The add button disappears at the maximum (spec 001 §5); the server refuses a further file anyway. */}
              {files.length < slot.category.max ? (
                <div>
                  <label htmlFor={inputId} className="form-label small mb-1">Aggiungi documento ({files.length}/{slot.category.max})</label>
                  <input
                    id={inputId}
                    type="file"
                    className="form-control"
                    accept="image/jpeg,image/png,application/pdf"
                    disabled={busy !== undefined}
                    onChange={(event) => {
                      const file = event.target.files?.[0];
                      event.target.value = '';
                      void send(slot, file);
                    }}
                  />
                </div>
              ) : (
                <p className="small text-body-secondary mb-0">Hai caricato il numero massimo di documenti per questa categoria.</p>
              )}
            </Card.Body>
          </Card>
        );
      })}
      <ConfirmDialog
        show={removing !== undefined}
        title="Rimuovi documento"
        text={removing ? `Vuoi rimuovere il documento '${removing.name}'? Potrai caricarne un altro al suo posto.` : ''}
        confirmLabel="Rimuovi"
        busy={busy !== undefined && busy.startsWith('rimuovi-')}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => { if (removing) void remove(removing); }}
        restoreFocus={!confirmed}
      />
      <div className="d-grid d-sm-flex mt-3 mb-5">
        <Button size="lg" variant="success" disabled={busy !== undefined} onClick={() => void termina()}>
          {busy === 'termina' && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Termina Caricamento
        </Button>
      </div>
    </section>
  );
}

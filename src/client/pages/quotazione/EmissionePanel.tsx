// Issue, renewal, reversal and Koala resend of a historic-car quotation (spec 001 §2, §4): the machine's dialog events as buttons and dialogs.
import { useEffect, useId, useRef, useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ApiError, callRoute, isApiError } from '../../api/dataProvider.ts';
import { useRoute } from '../../api/hooks.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { can } from '../../api/session.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { DateInput } from '../../widgets/inputs.tsx';
import type { JsonSchema, RecordData, ResourceDef } from '../../types.ts';
import { optionTitles } from '../../../shared/enumTitle.ts';
import type { AvailableEvent, RecordWorkflow } from './useRecordWorkflow.ts';
import type { useQuotazione } from './useQuotazione.ts';

type Ctl = ReturnType<typeof useQuotazione>;

interface Esito {
  result?: 0 | 1 | 2 | null;
  message?: string;
  Error?: Array<{ descError: string }>;
  verti_policy_number?: string;
  data?: { model?: RecordData; decorrenza?: string; decorrenza_testo?: string; premio?: number; [key: string]: unknown };
}

/** Dialog events of the machine the user may send now: the buttons of this panel. */
export function dialogEvents(events: AvailableEvent[]): AvailableEvent[] {
  return events.filter((e) => e.meta.dialog && e.meta.path && !e.meta.system);
}

/** The date proposed to staff: the later of the customer's decorrenza and the payment receipt day (spec 001 §9). */
export function decorrenzaProposta(record: RecordData): string {
  const incasso = typeof record.data_incasso === 'string' ? record.data_incasso : '';
  const desiderata = typeof record.decorrenza === 'string' ? record.decorrenza : '';
  return desiderata > incasso ? desiderata : incasso;
}

function errorList(err: unknown): string[] {
  if (err instanceof ApiError) {
    const list = Object.values(err.errors).flat();
    return list.length ? list : [err.message];
  }
  return [err instanceof Error ? err.message : String(err)];
}

/** Header items of the issued policy and the renewal links (spec 001 §2 header). */
export function usePolizzaHeader(record: RecordData): Array<[string, string]> {
  const polizzaId = typeof record.polizza_id === 'number' ? record.polizza_id : undefined;
  // The record's version in the key: after a reversal the policy is read again.
  const { data: answer } = useRoute<{ data: RecordData }>(QUOTAZIONE_ROUTES.polizza, polizzaId ? { id: polizzaId, version: record.version } : null);
  const data = answer?.data;
  const items: Array<[string, string]> = [];
  if (record.verti_policy_number) {
    const stornata = data?.stornata ? ` (stornata da ${String(data.stornata_da ?? '')} il ${formatDateTime(data.stornata_il)})` : '';
    items.push(['Numero polizza', `${String(record.verti_policy_number)}${stornata}`]);
  }
  if (record.infodrive_id) items.push(['Infodrive id', String(record.infodrive_id)]);
  if (data?.decorrenza) items.push(['Decorrenza', `dalle ore 24:00 del ${formatDate(data.decorrenza)} al ${formatDate(data.scadenza)}`]);
  const rinnovoDella = record.rinnovo_della_polizza as { numero_polizza?: string; quotazione_id?: number } | null | undefined;
  if (rinnovoDella?.numero_polizza) items.push(['Rinnovo della polizza', `${rinnovoDella.numero_polizza} (quotazione n. ${String(rinnovoDella.quotazione_id ?? '')})`]);
  if (record.rinnovo_id) items.push(['Rinnovo', `quotazione n. ${String(record.rinnovo_id)}`]);
  return items;
}

/** The vehicle types of the quotation's definition, each by its title. */
function tipiAnia(def: ResourceDef): Array<[unknown, string]> {
  const veicolo = def.schema.properties?.veicoli_storici?.items as JsonSchema | undefined;
  return [...(optionTitles(veicolo?.properties?.tipologia_ania as Parameters<typeof optionTitles>[0]) ?? new Map<unknown, string>())];
}

function SalvaEmissioneDialog({ event, record, def, onClose, onSaved }: { event: AvailableEvent; record: RecordData; def: ResourceDef; onClose: () => void; onSaved: (model: RecordData) => void }) {
  const uid = useId();
  const notify = useNotify();
  const [dataIncasso, setDataIncasso] = useState(String(record.data_incasso ?? ''));
  const [decorrenza, setDecorrenza] = useState(String(record.decorrenza ?? ''));
  const [veicoli, setVeicoli] = useState<RecordData[]>(() => ((record.veicoli_storici ?? []) as RecordData[]).map((v) => ({ ...v })));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const set = (i: number, field: string, value: string) => setVeicoli((list) => list.map((v, j) => (j === i ? { ...v, [field]: value || undefined } : v)));
  const save = async () => {
    setBusy(true);
    try {
      const answer = await callRoute<{ message: string; data: { model: RecordData } }>(event.meta.method ?? 'PUT', event.meta.path!, record, {
        body: { data_incasso: dataIncasso || null, decorrenza: decorrenza || null, veicoli_storici: veicoli, version: record.version },
      });
      notify('success', answer.message);
      onSaved(answer.data.model);
    } catch (err) {
      if (isApiError(err, 'VALIDATION')) setErrors(err.errors);
      else setErrors({ _: errorList(err) });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (key: string) => errors[key]?.[0];
  const others = Object.entries(errors).filter(([k]) => !['data_incasso', 'decorrenza'].includes(k) && !k.startsWith('veicoli_storici.')).flatMap(([, v]) => v);
  return (
    <Modal show onHide={busy ? () => undefined : onClose} centered size="lg" aria-labelledby={`${uid}-t`}>
      <Modal.Header closeButton={!busy} closeLabel="Chiudi">
        <Modal.Title id={`${uid}-t`} as="h2" className="h5">{event.meta.label}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="row g-3 mb-3">
          <Form.Group className="col-sm-6" controlId={`${uid}-incasso`}>
            <Form.Label>Data incasso premio</Form.Label>
            <DateInput value={dataIncasso} required error={fieldError('data_incasso')} onChange={(v) => setDataIncasso(v ?? '')} />
            <Form.Text>La polizza decorre dalle ore 24:00 del giorno di incasso del premio.</Form.Text>
          </Form.Group>
          <Form.Group className="col-sm-6" controlId={`${uid}-decorrenza`}>
            <Form.Label>Decorrenza richiesta</Form.Label>
            <DateInput value={decorrenza} error={fieldError('decorrenza')} onChange={(v) => setDecorrenza(v ?? '')} />
          </Form.Group>
        </div>
        <table className="table table-sm align-middle">
          <caption className="caption-top">Veicoli storici</caption>
          <thead>
            <tr><th scope="col">Veicolo</th><th scope="col">Targa</th><th scope="col">Tipologia Veicolo</th><th scope="col">Scadenza polizza precedente</th></tr>
          </thead>
          <tbody>
            {veicoli.map((v, i) => (
              <tr key={String(v.id ?? i)}>
                <td>{`${String(v.marca ?? '')} ${String(v.modello ?? '')} ${String(v.anno ?? '')}`}</td>
                <td>
                  <Form.Control size="sm" aria-label={`Targa veicolo ${i + 1}`} value={String(v.targa ?? '')} isInvalid={Boolean(fieldError(`veicoli_storici.${i}.targa`))} onChange={(e) => set(i, 'targa', e.target.value)} />
                  <Form.Control.Feedback type="invalid">{fieldError(`veicoli_storici.${i}.targa`)}</Form.Control.Feedback>
                </td>
                <td>
                  <Form.Select size="sm" aria-label={`Tipologia veicolo ${i + 1}`} value={String(v.tipologia_ania ?? '')} isInvalid={Boolean(fieldError(`veicoli_storici.${i}.tipologia_ania`))} onChange={(e) => set(i, 'tipologia_ania', e.target.value)}>
                    <option value="">—</option>
                    {tipiAnia(def).map(([code, title]) => <option key={String(code)} value={String(code)}>{title}</option>)}
                  </Form.Select>
                  <Form.Control.Feedback type="invalid">{fieldError(`veicoli_storici.${i}.tipologia_ania`)}</Form.Control.Feedback>
                </td>
                <td>
                  <DateInput size="sm" aria-label={`Scadenza polizza precedente veicolo ${i + 1}`} value={v.atrc_contract_expiration_date} error={fieldError(`veicoli_storici.${i}.atrc_contract_expiration_date`)} onChange={(value) => set(i, 'atrc_contract_expiration_date', value ?? '')} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {others.length > 0 && (
          <Notice variant="danger" role="alert"><ul className="mb-0 ps-3">{others.map((m) => <li key={m}>{m}</li>)}</ul></Notice>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose} disabled={busy}>Annulla</Button>
        <Button variant="primary" onClick={() => void save()} disabled={busy}>{busy ? <Spinner label="Salvataggio…" /> : event.meta.label}</Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Preview and issue share the effective date and the previous-policy check; issuing is guarded against a second click. */
function EmissioneDialog({ event, record, onClose, onDone }: { event: AvailableEvent; record: RecordData; onClose: () => void; onDone: (esito: Esito) => void }) {
  const uid = useId();
  const texts = event.meta.texts ?? {};
  const anteprima = event.meta.dialog === 'anteprima';
  const superAdmin = can('super_admin');
  const proposta = decorrenzaProposta(record);
  const [decorrenza, setDecorrenza] = useState(proposta);
  const touched = useRef(false);
  // The record may still be reloading after 'Salva Emissione': follow it until the user picks a date.
  useEffect(() => {
    if (!touched.current) setDecorrenza(proposta);
  }, [proposta]);
  const [controllo, setControllo] = useState(true);
  const [esito, setEsito] = useState<Esito>();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [attendere, setAttendere] = useState(false);
  const inFlight = useRef(false);
  const run = async () => {
    // A second click while the insurer is answering sends nothing (spec 001 §5).
    if (inFlight.current) {
      setAttendere(true);
      return;
    }
    inFlight.current = true;
    setBusy(true);
    setErrors({});
    try {
      const answer = await callRoute<Esito>('POST', event.meta.path!, record, {
        query: { decorrenza: decorrenza || undefined },
        body: { options: { check_atrc_contract_expiration_date: controllo } },
      });
      if (anteprima) setEsito(answer);
      else onDone(answer);
    } catch (err) {
      setErrors(err instanceof ApiError && Object.keys(err.errors).length ? err.errors : { _: errorList(err) });
    } finally {
      inFlight.current = false;
      setBusy(false);
      setAttendere(false);
    }
  };
  // The effective date's error shows under its input.
  const fieldErrors = Object.entries(errors).filter(([k]) => k !== 'decorrenza').flatMap(([, v]) => v);
  return (
    <Modal show onHide={busy ? () => undefined : onClose} centered aria-labelledby={`${uid}-t`} data-testid={`dialog-${event.meta.dialog}`}>
      <Modal.Header closeButton={!busy} closeLabel="Chiudi">
        <Modal.Title id={`${uid}-t`} as="h2" className="h5">{event.meta.label}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {!anteprima && event.meta.confirm && <p>{event.meta.confirm}</p>}
        <Form.Group controlId={`${uid}-decorrenza`} className="mb-3">
          <Form.Label>Decorrenza</Form.Label>
          <DateInput value={decorrenza} min={typeof record.data_incasso === 'string' ? record.data_incasso : undefined} error={errors.decorrenza?.[0]} onChange={(v) => { touched.current = true; setDecorrenza(v ?? ''); }} />
          <Form.Text>{texts.decorrenza ?? 'La polizza decorre dalle ore 24:00 del giorno di incasso del premio'}
            {record.data_incasso ? ` (${formatDate(record.data_incasso)}).` : '.'}</Form.Text>
        </Form.Group>
        {superAdmin && (
          <Form.Check
            type="switch"
            id={`${uid}-atrc`}
            className="mb-2"
            label={texts.controlloAtrc ?? 'Controlla se la polizza precedente è scaduta'}
            checked={controllo}
            onChange={(e) => setControllo(e.target.checked)}
          />
        )}
        {!controllo && <Notice variant="warning" role="status">{texts.senzaControlloAtrc ?? 'NON controlla se la polizza precedente è scaduta'}</Notice>}
        {attendere && <Notice variant="warning" role="status" testId="attendere">{texts.inCorso ?? "Attendere la fine dell'operaione in corso"}</Notice>}
        {fieldErrors.length > 0 && (
          <Notice variant="danger" role="alert"><ul className="mb-0 ps-3">{fieldErrors.map((m) => <li key={m}>{m}</li>)}</ul></Notice>
        )}
        {esito && (
          <Notice variant={esito.result === 0 ? 'success' : esito.result === 1 ? 'warning' : 'danger'} role="status" testId="esito-anteprima">
            <div>{esito.message}</div>
            {esito.data?.decorrenza_testo && <div>{esito.data.decorrenza_testo}</div>}
            {esito.data?.premio !== undefined && <div>Premio: {formatMoney(esito.data.premio)}</div>}
          </Notice>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose} disabled={busy}>Annulla</Button>
        <Button variant="primary" onClick={() => void run()} aria-busy={busy}>
          {busy ? <Spinner label="Operazione in corso…" /> : event.meta.label}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

export function EmissionePanel({ ctl, wf, def }: { ctl: Ctl; wf: RecordWorkflow; def: ResourceDef }) {
  const uid = useId();
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState<AvailableEvent | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const record = ctl.record;
  if (ctl.mode !== 'edit' || !record) return null;
  const events = dialogEvents(wf.events);
  if (!events.length) return null;
  const listPath = def.resource.routes?.list?.path;
  const editPath = def.resource.routes?.edit?.path;

  const refresh = async () => {
    await ctl.reload();
    ctl.reloadHistory();
  };

  const issued = (esito: Esito) => {
    const variant = esito.result === 0 ? 'success' : esito.result === 1 ? 'warning' : 'danger';
    notify(variant, esito.message || esito.Error?.map((e) => e.descError).join(' ') || (open?.meta.label ?? 'Emissione'));
    setOpen(null);
    // Spec 001 §4: every answer returns to the list with its message.
    if (listPath) navigate(listPath);
    else void refresh();
  };

  const confirmed = async (event: AvailableEvent) => {
    setBusy(true);
    setErrors([]);
    try {
      const answer = await callRoute<{ message?: string; data?: { model?: RecordData } }>(event.meta.method ?? 'POST', event.meta.path!, record, { body: {} });
      notify('success', answer.message ?? event.meta.texts?.successo ?? event.meta.label);
      setOpen(null);
      if (event.meta.dialog === 'rinnova' && answer.data?.model?.id && editPath) navigate(generatePath(editPath, { id: String(answer.data.model.id) }));
      else await refresh();
    } catch (err) {
      // A refused reversal closes the dialog and shows the errors (spec 001 §8).
      setOpen(null);
      setErrors(errorList(err));
      await refresh();
    } finally {
      setBusy(false);
    }
  };

  const kind = open?.meta.dialog;
  return (
    <section aria-labelledby={`${uid}-titolo`} className="card" data-testid="emissione">
      <div className="card-body">
        <h3 id={`${uid}-titolo`} className="h6 text-uppercase text-body-secondary">Emissione polizza</h3>
        {errors.length > 0 && (
          <Notice variant="danger" role="alert" testId="errori-emissione"><ul className="mb-0 ps-3">{errors.map((m) => <li key={m}>{m}</li>)}</ul></Notice>
        )}
        <div role="toolbar" aria-label="Azioni di emissione" className="d-flex flex-wrap gap-2">
          {events.map((event) => (
            <Button key={event.type} size="sm" variant={event.type === 'STORNA' ? 'outline-danger' : event.type === 'EMETTI' ? 'success' : 'outline-primary'}
              disabled={busy} onClick={() => { setErrors([]); setOpen(event); }}>
              {event.meta.label}
            </Button>
          ))}
        </div>
      </div>
      {open && kind === 'salvaEmissione' && (
        <SalvaEmissioneDialog event={open} record={record} def={def} onClose={() => setOpen(null)} onSaved={() => { setOpen(null); void refresh(); }} />
      )}
      {open && (kind === 'anteprima' || kind === 'emetti') && <EmissioneDialog event={open} record={record} onClose={() => setOpen(null)} onDone={issued} />}
      <ConfirmDialog
        show={Boolean(open && !['salvaEmissione', 'anteprima', 'emetti'].includes(kind ?? ''))}
        title={open?.meta.label ?? ''}
        text={open?.meta.confirm ?? `${open?.meta.label ?? ''}?`}
        confirmLabel={open?.meta.label ?? 'Conferma'}
        variant={open?.type === 'STORNA' ? 'danger' : open?.type === 'REINVIA_KOALA' ? 'warning' : 'primary'}
        busy={busy}
        onCancel={() => setOpen(null)}
        onConfirm={() => void confirmed(open!)}
      />
    </section>
  );
}

// Signature box of the management screen (spec 001 §4 'Signature box'): the latest signature request decides
// what shows; at status 9 the mode choice and, for otp, 'Invia richiesta di firma'; for manual the contract to print and
// the upload of that contract signed, which completes the request.
import { useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ApiError, callRoute, routePath, upload } from '../../api/dataProvider.ts';
import { useRoute } from '../../api/hooks.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { scaricaDocumento } from '../../widgets/documenti/DocumentiPanel.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import type { RecordData } from '../../types.ts';

interface SignatureRequest {
  id: number;
  status: 'sending' | 'draft' | 'ongoing' | 'done' | 'refused' | 'expired' | 'error';
  modalita: 'otp' | 'manual';
  email: string | null;
  telefono: string | null;
  errors: string[];
  message: string | null;
  storico: Array<{ stato: string; at: string }>;
  created_at: string;
}

/** The contract to sign (latest version), with the code the signed copy must carry. */
interface ContrattoDaFirmare {
  id: number;
  name: string;
  url: string;
  versione: number;
  codice: string | null;
}

interface Answer {
  data: { last_signature_request: SignatureRequest | null; history: SignatureRequest[]; model: RecordData; contratto?: ContrattoDaFirmare | null };
}

export const testiFirma = {
  titolo: 'Firma',
  firmati: 'Documenti Firmati',
  bozza: 'Firma in Bozza',
  inviati: 'Documenti inviati per la firma',
  pronti: 'Documenti pronti per essere firmati',
  modalita: 'Modalità di firma',
  otp: 'Firma Digitale OTP',
  manuale: 'Firma Manuale',
  invia: 'Invia richiesta di firma',
  reinvia: 'Reinvia richiesta di firma',
  salva: 'Salva modifiche',
  manualeNota: 'Scarica il contratto, fallo firmare al cliente e carica qui la copia firmata (PDF): deve essere questo contratto, con il suo codice.',
  scarica: 'Scarica',
  codice: 'Codice contratto',
  nessunContratto: 'Nessun contratto da firmare: rigenera i documenti di emissione.',
  caricaFirmato: 'Carica contratto firmato',
  polizza: 'Numero polizza',
  storico: 'Richieste precedenti',
} as const;

const IN_ATTESA_DI_FIRMA = 9;

export function FirmaBox({ record, onDone }: { record: RecordData; onDone: () => void }) {
  const uid = useId();
  const id = Number(record.id);
  const statusId = Number(record.stato_quotazione_id);
  // Requests exist only from the issue on (status 7 and later, or a quotation moved back there).
  const asks = statusId >= 7 && statusId !== 12 && statusId !== 13;
  const { data, mutate } = useRoute<Answer>(QUOTAZIONE_ROUTES.richiestaFirma, asks ? { id } : null, {
    shouldRetryOnError: true,
    // While the signer has the documents, ask again: the provider's answer shows without reloading the page.
    refreshInterval: (latest) => (['ongoing', 'sending'].includes(latest?.data.last_signature_request?.status ?? '') ? 3000 : 0),
  });
  const latest = data?.data.last_signature_request ?? null;
  const [modalita, setModalita] = useState<'' | 'otp' | 'manual'>('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; errors: string[] } | null>(null);
  const [email, setEmail] = useState('');
  const [telefono, setTelefono] = useState('');

  useEffect(() => {
    if (latest?.status === 'draft') {
      setEmail(latest.email ?? '');
      setTelefono(latest.telefono ?? '');
    }
  }, [latest?.id, latest?.status, latest?.email, latest?.telefono]);

  // The signature concluded the quotation on the server: reload it.
  const serverStatus = Number(data?.data.model.stato_quotazione_id ?? statusId);
  useEffect(() => {
    if (data && serverStatus !== statusId) onDone();
  }, [serverStatus, statusId, data, onDone]);

  // 'Firma Manuale': the contract to sign, to download and print, and the upload of that contract signed, which
  // completes the request (the server checks the copy carries the contract's code).
  const manualeVisibile = statusId === IN_ATTESA_DI_FIRMA && (modalita === 'manual' || (latest?.status === 'draft' && latest.modalita === 'manual'));
  const contratto = data?.data.contratto ?? null;
  // Every call of the box: busy while it runs, its refusal shown with the fields' messages, onDone once it succeeded.
  const attempt = async (run: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(null);
    try {
      await run();
      onDone();
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError(0, String(e));
      setFailure({ message: error.message, errors: Object.values(error.errors).flat() });
    } finally {
      setBusy(false);
    }
  };
  const caricaFirmato = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    await attempt(async () => {
      await upload(routePath(QUOTAZIONE_ROUTES.firmatoAMano, { id }), file);
      await mutate();
    });
    // A refused copy can be chosen again once corrected.
    input.value = '';
  };
  const manuale = manualeVisibile && (
    <div className="mt-2" data-testid="firma-manuale">
      <p className="small mb-1">{testiFirma.manualeNota}</p>
      {contratto ? (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <Button size="sm" variant="outline-secondary" onClick={() => void scaricaDocumento(contratto)}>
            {testiFirma.scarica}: {contratto.name}
          </Button>
          {contratto.codice && <span className="small text-body-secondary" data-testid="codice-contratto">{testiFirma.codice}: {contratto.codice}</span>}
        </div>
      ) : (
        <p className="small text-danger mb-2">{testiFirma.nessunContratto}</p>
      )}
      <Form.Group controlId={`${uid}-firmato`}>
        <Form.Label className="small mb-0">{testiFirma.caricaFirmato}</Form.Label>
        <Form.Control size="sm" type="file" accept="application/pdf" disabled={busy || !contratto} onChange={(e) => void caricaFirmato(e.target as HTMLInputElement)} />
      </Form.Group>
      {busy && <Spinner label="Caricamento…" />}
    </div>
  );

  const send = (body: Record<string, unknown>, method: 'POST' | 'PUT' = 'POST') =>
    attempt(async () => {
      await callRoute(method, method === 'POST' ? QUOTAZIONE_ROUTES.inviaFirma : QUOTAZIONE_ROUTES.richiestaFirma, { id }, { body });
      await mutate();
    });

  // The direct statuses (12, 13) ask nothing: no endless spinner there.
  if (!data) return asks && statusId > 8 ? <Spinner label="Caricamento firma…" /> : null;
  // No request and status 1 to 7 (or 8): hidden (spec 001 §4).
  if (!latest && statusId <= 8) return null;

  const header = (
    <div className="small text-body-secondary mb-2">
      {record.verti_policy_number ? `${testiFirma.polizza}: ${String(record.verti_policy_number)}` : null}
    </div>
  );
  const failureBox = failure && (
    <Notice variant="danger" role="alert" testId="errore-firma">
      {failure.message}
      {failure.errors.length > 0 && (
        <ul className="mb-0 ps-3">
          {failure.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </Notice>
  );

  let body;
  if (latest?.status === 'done') {
    body = <Notice variant="success" role="status" testId="stato-firma">{testiFirma.firmati}</Notice>;
  } else if (latest?.status === 'draft') {
    body = (
      <>
        <Notice variant="warning" role="status" testId="stato-firma">{testiFirma.bozza}</Notice>
        <Form.Group controlId={`${uid}-email`} className="mb-2">
          <Form.Label className="small mb-0">Email</Form.Label>
          <Form.Control size="sm" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Form.Group>
        <Form.Group controlId={`${uid}-tel`} className="mb-2">
          <Form.Label className="small mb-0">Telefono</Form.Label>
          <Form.Control size="sm" value={telefono} onChange={(e) => setTelefono(e.target.value)} />
        </Form.Group>
        <div className="d-flex flex-wrap gap-2">
          <Button size="sm" variant="primary" disabled={busy} onClick={() => void send({ modalita: latest.modalita, email, telefono, resend: true })}>
            {testiFirma.reinvia}
          </Button>
          <Button size="sm" variant="outline-primary" disabled={busy} onClick={() => void send({ email, telefono }, 'PUT')}>
            {testiFirma.salva}
          </Button>
        </div>
        {manuale}
      </>
    );
  } else if (latest?.status === 'ongoing' || latest?.status === 'sending') {
    body = <Notice variant="warning" role="status" testId="stato-firma">{testiFirma.inviati}</Notice>;
  } else if (statusId === IN_ATTESA_DI_FIRMA) {
    const email = typeof record.email === 'string' ? record.email : '';
    const telefono = typeof record.telefono === 'string' ? record.telefono : '';
    body = (
      <>
        <Notice variant="warning" role="status" testId="stato-firma">{testiFirma.pronti}</Notice>
        {latest && (latest.status === 'error' || latest.status === 'refused' || latest.status === 'expired') && latest.message && (
          <p className="small text-danger mb-2">{latest.message}</p>
        )}
        <fieldset className="mb-2">
          <legend className={`small mb-1 ${modalita ? '' : 'text-danger'}`} data-testid="etichetta-modalita">
            {testiFirma.modalita}
          </legend>
          <Form.Check type="radio" id={`${uid}-otp`} name={`${uid}-modalita`} label={testiFirma.otp} checked={modalita === 'otp'} onChange={() => setModalita('otp')} />
          <Form.Check type="radio" id={`${uid}-manual`} name={`${uid}-modalita`} label={testiFirma.manuale} checked={modalita === 'manual'} onChange={() => setModalita('manual')} />
        </fieldset>
        {email && telefono && (
          <dl className="small mb-2" data-testid="contatti-firma">
            <dt className="fw-normal text-body-secondary">Email</dt>
            <dd className="mb-1">{email}</dd>
            <dt className="fw-normal text-body-secondary">Telefono</dt>
            <dd className="mb-0">{telefono}</dd>
          </dl>
        )}
        {modalita === 'otp' && (
          <Button size="sm" variant="primary" disabled={busy} onClick={() => void send({ modalita: 'otp' })}>
            {busy ? <Spinner label="Invio…" /> : testiFirma.invia}
          </Button>
        )}
        {manuale}
      </>
    );
  } else {
    return null;
  }

  const history = (data.data.history ?? []).slice(1);
  return (
    <section aria-labelledby={`${uid}-titolo`} className="card" data-testid="box-firma">
      <div className="card-body">
        <h3 id={`${uid}-titolo`} className="h6 text-uppercase text-body-secondary">
          {testiFirma.titolo}
        </h3>
        {header}
        {failureBox}
        {body}
        {history.length > 0 && (
          <details className="mt-2 small">
            <summary>{testiFirma.storico}</summary>
            <ul className="ps-3 mb-0">
              {history.map((h) => (
                <li key={h.id}>
                  {formatDateTime(h.created_at)}: {h.modalita === 'otp' ? testiFirma.otp : testiFirma.manuale} – {h.status}
                  {h.message ? ` (${h.message})` : ''}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </section>
  );
}

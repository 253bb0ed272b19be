// Tabs 'Inclusione' and 'Esclusione' of an issued policy (spec 001 §2 appendix screens): calculation into the server's draft,
// preview and issue; the draft comes back from the server after a reload, the issued appendices are listed with their totals.
import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Col from 'react-bootstrap/Col';
import Table from 'react-bootstrap/Table';
import { ApiError, callRoute } from '../../api/dataProvider.ts';
import { useRoute } from '../../api/hooks.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { can } from '../../api/session.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { formatDate, formatMoney, parseDecimal } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import { Notice } from '../../lib/ui.tsx';
import { DateInput } from '../../widgets/inputs.tsx';
import { toCents, fromCents } from '../../../shared/money.ts';
import { SPESE_EMISSIONE_PREDEFINITE_CENTESIMI, totaleInclusione } from '../../../shared/appendici.ts';
import type { JsonSchema, RecordData } from '../../types.ts';
import { AddVehicleDialog, type Vehicle } from './AddVehicleDialog.tsx';

export const ta = {
  inclusione: 'Inclusione',
  esclusione: 'Esclusione',
  dataInclusione: 'Data di decorrenza inclusione',
  dataEsclusione: 'Data di decorrenza esclusione',
  dataObbligatoria: 'data di decorrenza obbligatoria',
  scegliVeicolo: 'Scegli il veicolo da includere',
  cambiaVeicolo: 'Cambia veicolo',
  calcola: 'Calcola',
  calcolaEsclusione: 'Calcola Esclusione',
  giaEscluso: 'Veicolo già escluso',
  premioCompagnia: 'Premio compagnia',
  nuovoPremioAnnuale: 'Nuovo premio annuale',
  competenze: 'Competenze',
  speseEmissione: 'Spese di emissione',
  totale: 'Totale appendice',
  importo: 'Importo',
  previewInclusione: 'Preview Appendice di Inclusione',
  emettiInclusione: 'Emetti Inclusione',
  previewEsclusione: 'Preview Appendice di Esclusione',
  emettiEsclusione: 'Emetti Esclusione',
  confermaEsclusione: "Sicuro di voler emettere l'esclusione",
  confermaInclusione: "Sicuro di voler emettere l'inclusione",
  inCorso: "Attendere la fine dell'operaione in corso",
  emesse: 'Appendici emesse',
  nessuna: 'Nessuna appendice emessa.',
  soloSuperAdmin: 'Modificabile solo da super_admin',
  riepilogo: 'Riepilogo esclusione',
  azione: 'Action',
};

interface Appendice extends RecordData {
  operazione: 'inclusione' | 'esclusione';
  stato: 'bozza' | 'emessa';
  targa: string;
  marca?: string;
  modello?: string;
  anno?: number;
  data_effetto?: string;
  /** The insurer's amount: null for whoever may not read it (only a super_admin, spec 001 §6). */
  premio_verti: number | null;
  spese_emissione: number;
  competenze: number;
  premio_annuale: number;
  appendice_totale: number;
  importo: number;
  numero_appendice?: string | null;
  auto_storica_id?: number;
  veicolo?: Record<string, unknown>;
}

interface Elenco {
  data: Appendice[];
  bozze: { inclusione: Appendice | null; esclusione: Appendice | null };
}

interface Props {
  quotazione: RecordData;
  /** The historic vehicle's item schema (for the vehicle dialog). */
  item: JsonSchema;
  /** Called after an issue: the quotation changed (vehicles, history). */
  onIssued: () => void;
}

function useAppendici(id: unknown) {
  return useRoute<Elenco>(QUOTAZIONE_ROUTES.appendici, { id }, { shouldRetryOnError: true });
}

function errori(err: unknown): string[] {
  if (err instanceof ApiError) {
    const list = Object.values(err.errors).flat();
    return list.length ? list : [err.message];
  }
  return [err instanceof Error ? err.message : String(err)];
}

/**
 * The tab's calls to the server, one at a time: a second click while one runs gets the spec's message, not a second
 * call; each call starts with no messages and shows the server's refusal as the message list.
 */
function useAppendiceCalls() {
  const notify = useNotify();
  const running = useRef(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [messaggi, setMessaggi] = useState<string[]>([]);
  const call = async (name: string, action: () => Promise<void>) => {
    if (running.current) {
      notify('warning', ta.inCorso);
      return;
    }
    running.current = true;
    setBusy(name);
    setMessaggi([]);
    try {
      await action();
    } catch (err) {
      setMessaggi(errori(err));
    } finally {
      running.current = false;
      setBusy(null);
    }
  };
  /** The insurer's preview: its remarks, or that it has none. */
  const anteprima = (route: string, params: Record<string, unknown>, body: unknown) => call('preview', async () => {
    const answer = await callRoute<{ result: number; verti_response: string }>('POST', route, params, { body });
    notify(answer.result === 0 ? 'info' : 'warning', answer.verti_response);
  });
  return { busy, messaggi, call, anteprima };
}

function AmountField({ id, label, value, onChange, disabled, hint }: { id: string; label: string; value: string; onChange: (v: string) => void; disabled?: boolean; hint?: string }) {
  return (
    <Form.Group controlId={id} className="mb-2">
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Control size="sm" inputMode="decimal" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint && <Form.Text id={`${id}-hint`}>{hint}</Form.Text>}
    </Form.Group>
  );
}

const euro = (n: number | undefined | null) => (n === undefined || n === null ? '' : String(n).replace('.', ','));
const cents = (text: string) => toCents(parseDecimal(text) ?? 0);

export function AppendiciEmesse({ elenco }: { elenco: Elenco | undefined }) {
  const emesse = (elenco?.data ?? []).filter((a) => a.stato === 'emessa');
  // The server answers the insurer's amount only to who may read it: no column of blanks for the others.
  const premioVisibile = emesse.some((a) => a.premio_verti !== null && a.premio_verti !== undefined);
  return (
    <section className="mt-4" aria-label={ta.emesse}>
      <h3 className="h6">{ta.emesse}</h3>
      {emesse.length === 0 ? (
        <p className="text-body-secondary small">{ta.nessuna}</p>
      ) : (
        <Table size="sm" className="small" data-testid="appendici-emesse">
          <thead>
            <tr>
              <th scope="col">Numero</th>
              <th scope="col">Operazione</th>
              <th scope="col">Targa</th>
              <th scope="col">Data effetto</th>
              {premioVisibile && <th scope="col" className="text-end">{ta.premioCompagnia}</th>}
              <th scope="col" className="text-end">{ta.totale}</th>
            </tr>
          </thead>
          <tbody>
            {emesse.map((a) => (
              <tr key={String(a.id)}>
                <td>{a.numero_appendice}</td>
                <td>{a.operazione === 'inclusione' ? ta.inclusione : ta.esclusione}</td>
                <td className="font-monospace">{a.targa}</td>
                <td>{formatDate(a.data_effetto)}</td>
                {premioVisibile && <td className="text-end">{formatMoney(a.premio_verti)}</td>}
                <td className="text-end">{formatMoney(a.appendice_totale)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

export function InclusioneTab({ quotazione, item, onIssued }: Props) {
  const uid = useId();
  const notify = useNotify();
  const superAdmin = can('super_admin');
  const { data: elenco, mutate } = useAppendici(quotazione.id);
  const bozza = elenco?.bozze.inclusione ?? null;
  const [data, setData] = useState<string>();
  const [veicolo, setVeicolo] = useState<Vehicle>();
  const [scelta, setScelta] = useState(false);
  const [competenze, setCompetenze] = useState<string>();
  const [premio, setPremio] = useState<string>();
  const [spese, setSpese] = useState<string>();
  const [conferma, setConferma] = useState(false);
  const { busy, messaggi, call, anteprima } = useAppendiceCalls();

  // What the user typed wins; otherwise the server's draft (a reload shows the request being prepared).
  const dataEffetto = data ?? bozza?.data_effetto ?? '';
  const veicoloScelto: Vehicle | undefined = veicolo ?? (bozza ? { auto_storica_id: bozza.auto_storica_id, marca: bozza.marca, modello: bozza.modello, anno: bozza.anno, targa: bozza.targa, tipologia_ania: String(bozza.veicolo?.tipologia_ania ?? 'A'), furto: bozza.veicolo?.furto === true } : undefined);
  const competenzeTesto = competenze ?? euro(bozza?.competenze ?? 0);
  const premioTesto = premio ?? euro(bozza?.premio_verti);
  const speseTesto = spese ?? euro(bozza?.spese_emissione ?? fromCents(SPESE_EMISSIONE_PREDEFINITE_CENTESIMI));
  const calcolata = Boolean(bozza && veicolo === undefined && data === undefined);
  // Without the insurer's amount (not readable) the total is the draft's, with the competenze the user typed instead.
  const premioNascosto = Boolean(bozza) && (bozza?.premio_verti === null || bozza?.premio_verti === undefined);
  const totale = !bozza ? undefined : premioNascosto
    ? toCents(bozza.appendice_totale) - toCents(bozza.competenze ?? 0) + cents(competenzeTesto)
    : totaleInclusione({ competenze_centesimi: cents(competenzeTesto), spese_emissione_centesimi: cents(speseTesto), premio_verti_centesimi: cents(premioTesto) });

  const body = () => ({
    auto_storica: { id: veicoloScelto?.auto_storica_id },
    veicolo: { quotazione_id: quotazione.id, auto_storica_id: veicoloScelto?.auto_storica_id, tipologia: 'S' },
    appendice: {
      quotazione_id: quotazione.id, operazione: 'inclusione', data_effetto: dataEffetto, competenze: fromCents(cents(competenzeTesto)),
      ...(superAdmin ? { premio_verti: fromCents(cents(premioTesto)), spese_emissione: fromCents(cents(speseTesto)) } : {}),
      appendice_totale: totale === undefined ? undefined : fromCents(totale), importo: totale === undefined ? undefined : fromCents(totale),
    },
  });

  const calcola = () => call('calcola', async () => {
    await callRoute('POST', QUOTAZIONE_ROUTES.calcolaInclusione, { id: quotazione.id }, {
      body: { date: dataEffetto, historic: { ...veicoloScelto }, competenze: fromCents(cents(competenzeTesto)) },
    });
    setData(undefined);
    setVeicolo(undefined);
    setPremio(undefined);
    setSpese(undefined);
    await mutate();
  });

  const preview = () => anteprima(QUOTAZIONE_ROUTES.anteprimaInclusione, {}, body());

  const emetti = () => call('emetti', async () => {
    setConferma(false);
    const answer = await callRoute<{ message: string }>('POST', QUOTAZIONE_ROUTES.emettiInclusione, {}, { body: body() });
    notify('success', answer.message);
    setCompetenze(undefined);
    await mutate();
    onIssued();
  });

  const dataMancante = !dataEffetto;
  return (
    <div data-testid="tab-inclusione">
      <Row className="g-3">
        <Col md={6}>
          <Form.Group controlId={`${uid}-data`} className="mb-3">
            <Form.Label>{ta.dataInclusione}</Form.Label>
            <DateInput value={dataEffetto} required error={dataMancante && messaggi.length > 0 ? ta.dataObbligatoria : undefined} onChange={(v) => setData(v ?? '')} />
          </Form.Group>
          <div className="mb-3">
            {veicoloScelto && (
              <p className="mb-1" data-testid="veicolo-inclusione">
                <strong>{veicoloScelto.marca} {veicoloScelto.modello}</strong> {veicoloScelto.anno} <span className="font-monospace">{veicoloScelto.targa}</span>
              </p>
            )}
            <Button size="sm" variant="outline-primary" onClick={() => setScelta(true)}>{veicoloScelto ? ta.cambiaVeicolo : ta.scegliVeicolo}</Button>
          </div>
          <Button variant="primary" disabled={!dataEffetto || !veicoloScelto || busy !== null} onClick={() => void calcola()}>{ta.calcola}</Button>
        </Col>
        <Col md={6}>
          {bozza && (
            <div aria-live="polite">
              <dl className="row small mb-2">
                <dt className="col-7">{ta.nuovoPremioAnnuale}</dt>
                <dd className="col-5 text-end" data-testid="nuovo-premio-annuale">{formatMoney(bozza.premio_annuale)}</dd>
              </dl>
              {!premioNascosto && <AmountField id={`${uid}-premio`} label={ta.premioCompagnia} value={premioTesto} onChange={setPremio} disabled={!superAdmin} hint={superAdmin ? undefined : ta.soloSuperAdmin} />}
              <AmountField id={`${uid}-competenze`} label={ta.competenze} value={competenzeTesto} onChange={setCompetenze} />
              <AmountField id={`${uid}-spese`} label={ta.speseEmissione} value={speseTesto} onChange={setSpese} disabled={!superAdmin} hint={superAdmin ? undefined : ta.soloSuperAdmin} />
              <p className="fw-semibold">{ta.totale}: <span data-testid="totale-inclusione">{totale === undefined ? '' : formatMoney(fromCents(totale))}</span></p>
              <div className="d-flex gap-2 flex-wrap">
                <Button variant="outline-secondary" disabled={!calcolata || busy !== null} onClick={() => void preview()}>{ta.previewInclusione}</Button>
                <Button variant="success" disabled={!calcolata || !dataEffetto || !totale || busy !== null} onClick={() => setConferma(true)}>{ta.emettiInclusione}</Button>
              </div>
            </div>
          )}
        </Col>
      </Row>
      {messaggi.length > 0 && <Notice variant="danger" role="alert" className="mt-3"><ul className="mb-0">{messaggi.map((m) => <li key={m}>{m}</li>)}</ul></Notice>}
      <AppendiciEmesse elenco={elenco} />
      <AddVehicleDialog show={scelta} item={item} onCancel={() => setScelta(false)} onAdd={(v) => { setScelta(false); setVeicolo(v); }} />
      <ConfirmDialog show={conferma} title={ta.emettiInclusione} text={ta.confermaInclusione} confirmLabel={ta.emettiInclusione} variant="primary" busy={busy === 'emetti'}
        onCancel={() => setConferma(false)} onConfirm={() => void emetti()} />
    </div>
  );
}

export function EsclusioneTab({ quotazione, onIssued }: Props) {
  const uid = useId();
  const notify = useNotify();
  const superAdmin = can('super_admin');
  const { data: elenco, mutate } = useAppendici(quotazione.id);
  const bozza = elenco?.bozze.esclusione ?? null;
  const [data, setData] = useState<string>();
  const [importo, setImporto] = useState<string>();
  const [dataRichiesta, setDataRichiesta] = useState(false);
  const [conferma, setConferma] = useState(false);
  const { busy, messaggi, call, anteprima } = useAppendiceCalls();
  const dataEffetto = data ?? bozza?.data_effetto ?? '';
  const importoTesto = importo ?? euro(bozza?.importo);
  const veicoli = ((quotazione.veicoli_storici ?? []) as Array<Record<string, unknown>>).filter((v) => v.targa);
  const calcolata = Boolean(bozza && data === undefined);

  const calcola = (v: Record<string, unknown>) => call(`calcola-${String(v.targa)}`, async () => {
    if (!dataEffetto) {
      setDataRichiesta(true);
      return;
    }
    // The spec's body (001 §7): the vehicle named by its row id, its plate beside it.
    const vehicle = { ...(v.id ? { id: v.id } : {}), targa: v.targa };
    await callRoute('POST', QUOTAZIONE_ROUTES.calcolaEsclusione, { id: quotazione.id }, { body: { date: dataEffetto, vehicle } });
    setData(undefined);
    setImporto(undefined);
    await mutate();
  });
  const corpo = () => ({ data_effetto: dataEffetto, importo: fromCents(cents(importoTesto)) });
  const targa = bozza?.targa ?? '';
  const preview = () => anteprima(QUOTAZIONE_ROUTES.anteprimaEsclusione, { id: quotazione.id, targa }, corpo());
  const emetti = () => call('emetti', async () => {
    setConferma(false);
    const answer = await callRoute<{ message: string }>('POST', QUOTAZIONE_ROUTES.emettiEsclusione, { id: quotazione.id, targa }, { body: corpo() });
    notify('success', answer.message);
    await mutate();
    onIssued();
  });

  return (
    <div data-testid="tab-esclusione">
      <Form.Group controlId={`${uid}-data`} className="mb-3" style={{ maxWidth: 320 }}>
        <Form.Label>{ta.dataEsclusione}</Form.Label>
        <DateInput value={dataEffetto} required error={dataRichiesta && !dataEffetto ? ta.dataObbligatoria : undefined} onChange={(v) => { setData(v ?? ''); setDataRichiesta(false); }} />
      </Form.Group>
      <Table size="sm" className="small align-middle">
        <thead>
          <tr>
            <th scope="col">Marca</th>
            <th scope="col">Modello</th>
            <th scope="col">Anno</th>
            <th scope="col">Targa</th>
            <th scope="col">{ta.azione}</th>
          </tr>
        </thead>
        <tbody>
          {veicoli.map((v) => (
            <tr key={String(v.id ?? v.targa)}>
              <td>{String(v.marca ?? '')}</td>
              <td>{String(v.modello ?? '')}</td>
              <td>{String(v.anno ?? '')}</td>
              <td className="font-monospace">{String(v.targa)}</td>
              <td>
                {v.operazione === 'esclusione' ? (
                  <span className="text-body-secondary">{ta.giaEscluso}</span>
                ) : (
                  <Button size="sm" variant="outline-primary" disabled={busy !== null} onClick={() => void calcola(v)} aria-label={`${ta.calcolaEsclusione} ${String(v.targa)}`}>
                    {ta.calcolaEsclusione}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {bozza && (
        <section aria-label={ta.riepilogo} className="card card-body" aria-live="polite">
          <h3 className="h6">{ta.riepilogo}</h3>
          <p className="mb-2 small">{bozza.marca} {bozza.modello} <span className="font-monospace">{bozza.targa}</span> — {formatDate(bozza.data_effetto)}</p>
          <div style={{ maxWidth: 320 }}>
            <AmountField id={`${uid}-importo`} label={ta.importo} value={importoTesto} onChange={setImporto} disabled={!superAdmin} hint={superAdmin ? undefined : ta.soloSuperAdmin} />
          </div>
          <div className="d-flex gap-2 flex-wrap">
            <Button variant="outline-secondary" disabled={!calcolata || !dataEffetto || !importoTesto || busy !== null} onClick={() => void preview()}>{ta.previewEsclusione}</Button>
            <Button variant="danger" disabled={!calcolata || !dataEffetto || !importoTesto || busy !== null} onClick={() => setConferma(true)}>{ta.emettiEsclusione}</Button>
          </div>
        </section>
      )}
      {messaggi.length > 0 && <Notice variant="danger" role="alert" className="mt-3"><ul className="mb-0">{messaggi.map((m) => <li key={m}>{m}</li>)}</ul></Notice>}
      <AppendiciEmesse elenco={elenco} />
      <ConfirmDialog show={conferma} title={ta.emettiEsclusione} text={ta.confermaEsclusione} confirmLabel={ta.emettiEsclusione} busy={busy === 'emetti'}
        onCancel={() => setConferma(false)} onConfirm={() => void emetti()} />
    </div>
  );
}

// Inclusion and exclusion appendices of an issued historic-car policy (spec 001 §2, §4, §7): calculation into a server-side
// draft, preview, and an issue made exactly once through the insurer (chiamate.ts), recorded with the quotation's history.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import { dataNelPeriodo, SPESE_EMISSIONE_PREDEFINITE_CENTESIMI, totaleInclusione } from '../../../shared/appendici.ts';
import { HttpError, invalid } from '../../errors.ts';
import { EsitoIncerto } from '../../adapters/auto-storiche/emissione-types.ts';
import type {
  AutoStoricheAppendici, EsitoAppendice, RichiestaAppendice, RichiestaCalcoloAppendice, VeicoloAppendice,
} from '../../adapters/auto-storiche/appendici-types.ts';
import { eseguiUnaVolta, utenteDa, type ChiamataEsterna, type Risposta, type Trx } from './chiamate.ts';
import { dataItaliana, isCalendarDate } from '../../../shared/dates.ts';
import { consenti, polizzaAttiva, QUOTAZIONE, riga, transizione, type Servizio } from './servizio.ts';
import { annoMessage, isAnnoValido } from '../../../shared/validators/anno.ts';

export const APPENDICE = 'appendice';
type Row = Record<string, unknown>;
type Operazione = 'inclusione' | 'esclusione';

export const MESSAGGI_APPENDICI = {
  dataObbligatoria: 'data di decorrenza obbligatoria',
  inclusioneEmessa: 'Inclusione Emessa Correttamente',
  esclusioneEmessa: 'Esclusione avvenuta con successo',
  giaEscluso: 'Veicolo già escluso',
  soloSuperAdmin: 'Solo un super_admin può modificare questo importo.',
};

export interface ServizioAppendici extends Servizio {
  appendici: AutoStoricheAppendici;
  /** The appendix resource: drafts and issued appendices are written through it, validated, never by hand. */
  appendiciRepo: ResourceRepository;
}

function dataEffetto(value: unknown, campo = 'data_effetto'): string {
  const iso = typeof value === 'string' ? value.trim().slice(0, 10) : '';
  if (!iso) throw invalid({ [campo]: [MESSAGGI_APPENDICI.dataObbligatoria] });
  if (!isCalendarDate(iso)) {
    throw invalid({ [campo]: ['Data non valida.'] });
  }
  return iso;
}

/** An amount in euro from the body, as cents; absent gives undefined, anything else not an amount is refused at its field. */
function centesimi(value: unknown, campo: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value.replace(',', '.')) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n >= 1e9) throw invalid({ [campo]: ['Importo non valido.'] });
  return toCents(n);
}

// The minimum of veicoli_storici.items.anno in schemas/quotazione/entity.schema.json (the maximum is this year).
const ANNO_MINIMO = 1900;

const isSuperAdmin = (user: AuthUser) => hasPermission('super_admin', user);

/** The quotation in the user's scope, the machine allowing appendices, and the policy in force. */
async function contesto(s: Servizio, trx: Trx | Database, user: AuthUser, quotazioneId: number): Promise<{ row: Row; polizza: Row }> {
  await s.repo.get(trx as Database, user, quotazioneId);
  const row = await riga(trx, quotazioneId);
  consenti(s, user, row, 'APPENDICE');
  const polizza = await polizzaAttiva(trx, quotazioneId);
  if (!polizza) throw new HttpError(409, 'La quotazione non ha una polizza in vigore: nessuna appendice è possibile.');
  return { row, polizza };
}

function periodo(row: Row, polizza: Row) {
  return {
    numero_polizza: String(polizza.numero_polizza),
    decorrenza: isoDi(polizza.decorrenza),
    scadenza: isoDi(polizza.scadenza),
    provincia: String(row.provincia_codice ?? ''),
    minoreAnni: row.minoreAnni === true,
  };
}

function isoDi(value: unknown): string {
  if (value instanceof Date) return new Date(value.getTime() - value.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  return String(value ?? '').slice(0, 10);
}

function nelPeriodo(data: string, p: { decorrenza: string; scadenza: string }): void {
  if (!dataNelPeriodo(data, p.decorrenza, p.scadenza)) {
    throw invalid({ data_effetto: [`La data deve cadere nel periodo della polizza, dal ${dataItaliana(p.decorrenza)} al ${dataItaliana(p.scadenza)} escluso.`] });
  }
}

const veicoliDi = (row: Row) => (row.veicoli_storici ?? []) as Row[];

async function bozza(trx: Trx | Database, quotazioneId: number, operazione: Operazione): Promise<Row | undefined> {
  return (await sql<Row>`SELECT * FROM appendice WHERE quotazione_id = ${quotazioneId} AND operazione = ${operazione} AND stato = 'bozza'`.execute(trx)).rows[0];
}

/** One draft per quotation and operation: a new calculation replaces the previous one. */
async function salvaBozza(s: ServizioAppendici, trx: Trx, user: AuthUser, values: Row): Promise<Row> {
  const existing = await bozza(trx, Number(values.quotazione_id), values.operazione as Operazione);
  if (existing) return s.appendiciRepo.writeOnBehalf(trx, user, await s.appendiciRepo.lockRow(trx, Number(existing.id)), values);
  // The appendix's hooks refuse hand-made records: this one is the calculation's.
  return s.appendiciRepo.createOwned(trx, user, { ...values, stato: 'bozza' }, { hooks: false });
}

const IMPORTI = ['premio_verti', 'spese_emissione', 'competenze', 'premio_annuale', 'appendice_totale', 'importo'];

/**
 * Public shape of an appendix: amounts as numbers in euro, as everywhere in the API (numeric columns come back as text),
 * and only the fields this user may read (the insurer's amount is the super_admin's, spec 001 §6).
 */
export function presenta(s: Pick<ServizioAppendici, 'appendiciRepo'>, a: Row, user: AuthUser): Row {
  return s.appendiciRepo.presentPart(Object.fromEntries(Object.entries(a).map(([k, v]) => [k, IMPORTI.includes(k) && v !== null && v !== undefined ? Number(v) : v])), user);
}

async function modello(trx: Trx | Database, id: unknown): Promise<Row> {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0 || n > 2147483647) throw invalid({ auto_storica_id: ['Campo Obbligatorio.'] });
  const found = (await sql<Row>`SELECT id, marca, modello, anno, anno_da, valore_b, nome_tipologia, tipologia FROM autostoriche WHERE id = ${n}`.execute(trx)).rows[0];
  if (!found) throw invalid({ auto_storica_id: ['Il record collegato non esiste.'] });
  return found;
}

/** The vehicle to include: the chosen model, with the plate, type and theft cover typed by the user. */
function veicoloInclusione(model: Row, historic: Row): VeicoloAppendice & { auto_storica_id: number; tipologia_targa?: string } {
  const targa = String(historic.targa ?? historic.plate_number ?? '').trim().toUpperCase();
  const errors: Record<string, string[]> = {};
  if (!targa) errors['historic.targa'] = ['Campo Obbligatorio.'];
  else if (targa.length > 12) errors['historic.targa'] = ['Targa non valida'];
  const anno = Number(historic.anno ?? historic.year ?? model.anno ?? model.anno_da);
  // The quotation's rule for a vehicle's year (spec 001 §5), with its message.
  if (!isAnnoValido(anno, ANNO_MINIMO)) errors['historic.anno'] = [annoMessage(ANNO_MINIMO)];
  if (Object.keys(errors).length) throw invalid(errors);
  return {
    auto_storica_id: Number(model.id), targa, marca: String(model.marca), modello: String(model.modello), anno,
    tipologia_ania: String(historic.tipologia_ania ?? historic.ania_type ?? 'A'),
    ...(historic.tipologia_targa ? { tipologia_targa: String(historic.tipologia_targa) } : {}),
    tipologia_modello: (model.nome_tipologia as string | null) ?? undefined,
    valore_centesimi: toCents(Number(model.valore_b ?? 0)), furto: historic.furto === true || historic.theft === true,
  };
}

async function calcolo(s: ServizioAppendici, operazione: Operazione, richiesta: RichiestaCalcoloAppendice) {
  let esito;
  try {
    esito = operazione === 'inclusione' ? await s.appendici.calcolaInclusione(richiesta) : await s.appendici.calcolaEsclusione(richiesta);
  } catch (error) {
    if (error instanceof EsitoIncerto) throw new HttpError(502, error.message);
    throw error;
  }
  if (!esito.ok) throw invalid({ veicolo: esito.Error.map((e) => e.descError) }, esito.Error[0]?.descError);
  return esito;
}

// ---- Inclusion ----

/** POST /api/v1/goold/quotations/inclusion/calculate/{id}: prices the vehicle for the rest of the policy year; the draft keeps it. */
export async function calcolaInclusione(s: ServizioAppendici, user: AuthUser, quotazioneId: number, body: Row) {
  const data = dataEffetto(body.date ?? body.data_effetto, body.date !== undefined ? 'date' : 'data_effetto');
  const historic = (body.historic ?? body.veicolo ?? {}) as Row;
  if (typeof historic !== 'object' || Array.isArray(historic)) throw invalid({ historic: ['Dati del veicolo non validi.'] });
  const { row, polizza } = await contesto(s, s.db, user, quotazioneId);
  const p = periodo(row, polizza);
  nelPeriodo(data, p);
  const veicolo = veicoloInclusione(await modello(s.db, historic.auto_storica_id ?? historic.model_id), historic);
  if (veicoliDi(row).some((v) => String(v.targa ?? '').toUpperCase() === veicolo.targa && v.operazione !== 'esclusione')) {
    throw invalid({ 'historic.targa': [`Il veicolo ${veicolo.targa} è già assicurato da questa polizza.`] });
  }
  const esito = await calcolo(s, 'inclusione', { ...p, data_effetto: data, veicolo });
  const competenze = centesimi(body.competenze, 'competenze') ?? 0;
  const spese = SPESE_EMISSIONE_PREDEFINITE_CENTESIMI;
  const premioAnnuo = toCents(Number(polizza.premio_verti ?? 0)) + esito.premio_annuo_veicolo_centesimi;
  const totale = totaleInclusione({ competenze_centesimi: competenze, spese_emissione_centesimi: spese, premio_verti_centesimi: esito.premio_centesimi });
  const draft = await s.db.transaction().execute((trx) => salvaBozza(s, trx, user, {
    quotazione_id: quotazioneId, polizza_id: polizza.id, numero_polizza: polizza.numero_polizza, collaboratore_id: row.collaboratore_id ?? null,
    operazione: 'inclusione', veicolo_id: null, auto_storica_id: veicolo.auto_storica_id, targa: veicolo.targa, marca: veicolo.marca,
    modello: veicolo.modello, anno: veicolo.anno, veicolo, data_effetto: data, premio_verti: fromCents(esito.premio_centesimi),
    spese_emissione: fromCents(spese), competenze: fromCents(competenze), premio_annuale: fromCents(premioAnnuo),
    appendice_totale: fromCents(totale), importo: fromCents(totale), importo_forzato: false,
  }));
  return {
    message: 'Calcolo eseguito.',
    data: { ...s.appendiciRepo.presentPart({ premio_verti: fromCents(esito.premio_centesimi) }, user), nuovo_premio_annuale: fromCents(premioAnnuo), appendice: presenta(s, draft, user) },
  };
}

/**
 * The inclusion request of spec 001 §3 (auto_storica, veicolo, appendice) checked against the draft: the insurer premium
 * and the issue fee change only by a super_admin; the total is always recomputed in cents and a different one refused.
 */
function importiInclusione(user: AuthUser, draft: Row, body: Row, perEmissione: boolean) {
  const appendice = (body.appendice ?? {}) as Row;
  const data = dataEffetto(appendice.data_effetto ?? body.data_effetto ?? draft.data_effetto);
  if (data !== isoDi(draft.data_effetto)) throw invalid({ data_effetto: ['La data è cambiata dopo il calcolo: ricalcola l\'inclusione.'] });
  const competenze = centesimi(appendice.competenze, 'appendice.competenze') ?? toCents(Number(draft.competenze ?? 0));
  const calcolato = { premio: toCents(Number(draft.premio_verti)), spese: toCents(Number(draft.spese_emissione)) };
  const premio = centesimi(appendice.premio_verti, 'appendice.premio_verti') ?? calcolato.premio;
  const spese = centesimi(appendice.spese_emissione, 'appendice.spese_emissione') ?? calcolato.spese;
  if (!isSuperAdmin(user)) {
    const errors: Record<string, string[]> = {};
    if (premio !== calcolato.premio) errors['appendice.premio_verti'] = [MESSAGGI_APPENDICI.soloSuperAdmin];
    if (spese !== calcolato.spese) errors['appendice.spese_emissione'] = [MESSAGGI_APPENDICI.soloSuperAdmin];
    if (Object.keys(errors).length) throw invalid(errors);
  }
  const totale = totaleInclusione({ competenze_centesimi: competenze, spese_emissione_centesimi: spese, premio_verti_centesimi: premio });
  const dichiarato = centesimi(appendice.appendice_totale, 'appendice.appendice_totale');
  if (dichiarato !== undefined && dichiarato !== totale) {
    throw invalid({ 'appendice.appendice_totale': [`Il totale è competenze + spese di emissione + premio compagnia: ${fromCents(totale).toFixed(2)}.`] });
  }
  const importo = centesimi(appendice.importo, 'appendice.importo');
  if (perEmissione && importo === undefined) throw invalid({ 'appendice.importo': ['Campo Obbligatorio.'] });
  if (importo !== undefined && importo !== totale) throw invalid({ 'appendice.importo': ['L\'importo deve essere uguale al totale dell\'appendice.'] });
  return { data, competenze, premio, spese, totale };
}

function richiesta(row: Row, polizza: Row, draft: Row, operazione: Operazione, data: string, importo: number): RichiestaAppendice {
  return {
    ...periodo(row, polizza), data_effetto: data, veicolo: draft.veicolo as VeicoloAppendice, operazione,
    importo_centesimi: importo, riferimento: `Q${String(row.id)}`,
  };
}

async function anteprimaCompagnia(s: ServizioAppendici, r: RichiestaAppendice) {
  let esito: EsitoAppendice;
  try {
    esito = await s.appendici.anteprima(r);
  } catch (error) {
    if (error instanceof EsitoIncerto) throw new HttpError(502, error.message);
    throw error;
  }
  const verti_response = esito.result === 0 ? 'Nessun rilievo della compagnia.' : esito.Error.map((e) => e.descError).join(' ');
  return { result: esito.result, Error: esito.Error, verti_response, message: esito.result === 0 ? 'Anteprima appendice: nessun rilievo della compagnia.' : `${esito.result === 1 ? 'WARNING ' : ''}${esito.Error[0]?.descError ?? ''}` };
}

function quotazioneDi(body: Row): number {
  const appendice = (body.appendice ?? {}) as Row;
  const veicolo = (body.veicolo ?? {}) as Row;
  const id = Number(appendice.quotazione_id ?? veicolo.quotazione_id ?? body.quotazione_id);
  if (!Number.isInteger(id) || id <= 0 || id > 2147483647) throw invalid({ 'appendice.quotazione_id': ['Campo Obbligatorio.'] });
  return id;
}

async function bozzaRichiesta(trx: Trx | Database, quotazioneId: number, operazione: Operazione, targa?: string): Promise<Row> {
  const draft = await bozza(trx, quotazioneId, operazione);
  if (!draft || (targa && String(draft.targa).toUpperCase() !== targa.toUpperCase())) {
    throw invalid({ [operazione === 'inclusione' ? 'auto_storica' : 'targa']: [operazione === 'inclusione' ? 'Scegli il modello e calcola l\'inclusione prima di procedere.' : 'Calcola l\'esclusione del veicolo prima di procedere.'] });
  }
  return draft;
}

/** POST /api/preview_appendice_inclusione_polizza_autostoriche_verti: needs a model and a date (spec 001 §5). */
export async function anteprimaInclusione(s: ServizioAppendici, user: AuthUser, body: Row) {
  const quotazioneId = quotazioneDi(body);
  const { row, polizza } = await contesto(s, s.db, user, quotazioneId);
  const draft = await bozzaRichiesta(s.db, quotazioneId, 'inclusione');
  const { data, totale } = importiInclusione(user, draft, body, false);
  return anteprimaCompagnia(s, richiesta(row, polizza, draft, 'inclusione', data, totale));
}

async function incerto<T>(call: Promise<T>): Promise<Risposta<T>> {
  try {
    return { esito: await call };
  } catch (error) {
    if (error instanceof EsitoIncerto) return { incerto: error.message };
    throw error;
  }
}

interface RispostaAppendice {
  result: 0 | 1 | 2;
  message: string;
  Error: EsitoAppendice['Error'];
  data: { appendice?: Row; model: Row };
}

async function rispostaAppendice(s: ServizioAppendici, trx: Trx, user: AuthUser, chiamata: ChiamataEsterna, esito: EsitoAppendice): Promise<RispostaAppendice> {
  const r = chiamata.richiesta as RichiestaAppendice & { appendice_id: number };
  const appendice = (await sql<Row>`SELECT * FROM appendice WHERE id = ${r.appendice_id}`.execute(trx)).rows[0];
  const messaggio = esito.result === 0
    ? (r.operazione === 'inclusione' ? MESSAGGI_APPENDICI.inclusioneEmessa : MESSAGGI_APPENDICI.esclusioneEmessa)
    : `${esito.result === 1 ? 'WARNING ' : ''}${esito.Error[0]?.descError ?? ''}`;
  if (esito.result !== 0) throw new HttpError(422, messaggio, { appendice: esito.Error.map((e) => e.descError) }, { result: esito.result, Error: esito.Error });
  return { result: esito.result, message: messaggio, Error: esito.Error, data: { appendice: appendice && presenta(s, appendice, user), model: await s.repo.get(trx as unknown as Database, user, chiamata.record_id) } };
}

/** Records a confirmed answer: the appendix issued, the vehicle included or excluded, a history row with the insurer's answer. */
async function registraAppendice(s: ServizioAppendici, trx: Trx, esito: EsitoAppendice, chiamata: ChiamataEsterna): Promise<RispostaAppendice> {
  const user = utenteDa(chiamata.utente);
  const r = chiamata.richiesta as RichiestaAppendice & { appendice_id: number; veicolo_id?: string; importi: Row };
  const row = await riga(trx, chiamata.record_id);
  const nomeOp = r.operazione === 'inclusione' ? 'Inclusione' : 'Esclusione';
  if (esito.result === 0) {
    let veicoli = veicoliDi(row);
    let veicoloId = r.veicolo_id;
    if (r.operazione === 'inclusione') {
      veicoloId = randomUUID();
      const v = r.veicolo as VeicoloAppendice & { auto_storica_id?: number; tipologia_targa?: string };
      veicoli = [...veicoli, {
        id: veicoloId, auto_storica_id: v.auto_storica_id, marca: v.marca, modello: v.modello, anno: v.anno, valore: fromCents(v.valore_centesimi),
        furto: v.furto, targa: v.targa, tipologia_ania: v.tipologia_ania, ...(v.tipologia_targa ? { tipologia_targa: v.tipologia_targa } : {}),
        operazione: 'inclusione',
      }];
    } else {
      veicoli = veicoli.map((v) => (v.id === veicoloId ? { ...v, operazione: 'esclusione' } : v));
    }
    await s.appendiciRepo.writeOnBehalf(trx, user, await s.appendiciRepo.lockRow(trx, r.appendice_id), {
      ...r.importi, stato: 'emessa', veicolo_id: veicoloId ?? null, numero_appendice: esito.numero_appendice ?? null,
      risposta_compagnia: esito, emessa_da: user.name, emessa_il: new Date().toISOString(),
    });
    const nota = `${nomeOp} del veicolo ${r.veicolo.targa} dal ${dataItaliana(r.data_effetto)}: appendice ${esito.numero_appendice ?? ''}, importo ${fromCents(r.importo_centesimi).toFixed(2)} €. Risposta compagnia (result 0).`;
    await transizione(s, trx, user, row, 'APPENDICE', { veicoli_storici: veicoli }, nota);
  } else {
    // Nothing was issued: the draft stays for a corrected attempt, the history keeps the insurer's answer.
    const nota = `${nomeOp} del veicolo ${r.veicolo.targa} non emessa: risposta compagnia (result ${esito.result}) ${esito.Error.map((e) => e.descError).join(' ')}`;
    await s.repo.writeOnBehalf(trx, user, row, {}, { history: { event: 'APPENDICE', note: nota } });
  }
  return rispostaAppendice(s, trx, user, chiamata, esito);
}

function operazioneAppendice(s: ServizioAppendici, nome: string) {
  return {
    sistema: 'auto_storiche', operazione: nome, resource: QUOTAZIONE,
    registra: (trx: Trx, esito: EsitoAppendice, chiamata: ChiamataEsterna) => registraAppendice(s, trx, esito, chiamata),
    giaRegistrata: (trx: Trx, chiamata: ChiamataEsterna) => rispostaAppendice(s, trx, utenteDa(chiamata.utente), chiamata, chiamata.risposta as EsitoAppendice),
    chiama: (chiave: string, r: unknown) => incerto(s.appendici.emetti(chiave, r as RichiestaAppendice)),
    async cerca(chiave: string) {
      return incerto(s.appendici.cerca(chiave));
    },
  };
}

/** POST /api/emissione_appendice_inclusione_polizza_autostoriche_verti: needs date and amount; issued exactly once. */
export async function emettiInclusione(s: ServizioAppendici, user: AuthUser, body: Row) {
  const quotazioneId = quotazioneDi(body);
  await contesto(s, s.db, user, quotazioneId);
  return eseguiUnaVolta(s.db, {
    leaseMs: s.leaseMs,
    ...operazioneAppendice(s, 'appendice_inclusione'), recordId: quotazioneId, user,
    async prepara(trx) {
      const { row, polizza } = await contesto(s, trx, user, quotazioneId);
      const draft = await bozzaRichiesta(trx, quotazioneId, 'inclusione');
      const { data, competenze, premio, spese, totale } = importiInclusione(user, draft, body, true);
      const targa = String(draft.targa).toUpperCase();
      if (veicoliDi(row).some((v) => String(v.targa ?? '').toUpperCase() === targa && v.operazione !== 'esclusione')) {
        throw invalid({ targa: [`Il veicolo ${targa} è già assicurato da questa polizza.`] });
      }
      const importi = {
        competenze: fromCents(competenze), premio_verti: fromCents(premio), spese_emissione: fromCents(spese),
        appendice_totale: fromCents(totale), importo: fromCents(totale), importo_forzato: premio !== toCents(Number(draft.premio_verti)),
      };
      return { ...richiesta(row, polizza, draft, 'inclusione', data, totale), veicolo: draft.veicolo, appendice_id: draft.id, importi };
    },
  });
}

// ---- Exclusion ----

function veicoloDaEscludere(row: Row, targa: string, campo = 'targa', rowId?: string): Row {
  const wanted = targa.trim().toUpperCase();
  const v = (rowId ? veicoliDi(row).find((x) => x.id === rowId) : undefined)
    ?? veicoliDi(row).find((x) => wanted && String(x.targa ?? '').toUpperCase() === wanted);
  if (!v) throw invalid({ [campo]: [`Il veicolo ${wanted || rowId} non è tra quelli della polizza.`] });
  if (v.operazione === 'esclusione') throw invalid({ [campo]: [MESSAGGI_APPENDICI.giaEscluso] });
  return v;
}

/**
 * The vehicle to exclude as the body names it: spec 001 §7 sends `vehicle` (a historic vehicle row, by its row id or
 * its plate, Italian or English names); a bare `targa` is still understood.
 */
function veicoloRichiesto(row: Row, body: Row): Row {
  if (body.vehicle !== undefined) {
    const sent = body.vehicle;
    if (typeof sent === 'string') {
      if (!sent.trim()) throw invalid({ vehicle: ['Campo Obbligatorio.'] });
      return veicoloDaEscludere(row, sent, 'vehicle', sent);
    }
    if (!sent || typeof sent !== 'object' || Array.isArray(sent)) throw invalid({ vehicle: ['Dati del veicolo non validi.'] });
    const v = sent as Row;
    const rowId = typeof v.id === 'string' && v.id ? v.id : undefined;
    const targa = String(v.targa ?? v.plate_number ?? v.plate ?? '');
    if (!rowId && !targa.trim()) throw invalid({ vehicle: ['Campo Obbligatorio.'] });
    return veicoloDaEscludere(row, targa, 'vehicle', rowId);
  }
  const targa = String(body.targa ?? body.plate ?? body.plate_number ?? '');
  if (!targa.trim()) throw invalid({ targa: ['Campo Obbligatorio.'] });
  return veicoloDaEscludere(row, targa);
}

async function valoreModello(trx: Trx | Database, v: Row): Promise<number> {
  if (v.auto_storica_id) {
    const m = (await sql<{ valore_b: number | null }>`SELECT valore_b FROM autostoriche WHERE id = ${Number(v.auto_storica_id)}`.execute(trx)).rows[0];
    if (m?.valore_b !== undefined && m.valore_b !== null) return toCents(Number(m.valore_b));
  }
  return toCents(Number(v.valore ?? 0));
}

/** POST /api/v1/goold/quotations/exclusion/calculate/{id} {date, vehicle}: the amount returned for the rest of the year (data.premio). */
export async function calcolaEsclusione(s: ServizioAppendici, user: AuthUser, quotazioneId: number, body: Row) {
  const data = dataEffetto(body.date ?? body.data_effetto, body.date !== undefined ? 'date' : 'data_effetto');
  if (body.vehicle === undefined && !String(body.targa ?? body.plate ?? body.plate_number ?? '').trim()) throw invalid({ targa: ['Campo Obbligatorio.'] });
  const { row, polizza } = await contesto(s, s.db, user, quotazioneId);
  const p = periodo(row, polizza);
  nelPeriodo(data, p);
  const v = veicoloRichiesto(row, body);
  const veicolo: VeicoloAppendice = {
    targa: String(v.targa).toUpperCase(), marca: String(v.marca ?? ''), modello: String(v.modello ?? ''), anno: Number(v.anno),
    tipologia_ania: (v.tipologia_ania as string | undefined) ?? 'A', valore_centesimi: await valoreModello(s.db, v), furto: v.furto === true,
  };
  const esito = await calcolo(s, 'esclusione', { ...p, data_effetto: data, veicolo });
  const draft = await s.db.transaction().execute((trx) => salvaBozza(s, trx, user, {
    quotazione_id: quotazioneId, polizza_id: polizza.id, numero_polizza: polizza.numero_polizza, collaboratore_id: row.collaboratore_id ?? null,
    operazione: 'esclusione', veicolo_id: v.id ?? null, auto_storica_id: v.auto_storica_id ?? null, targa: veicolo.targa, marca: veicolo.marca,
    modello: veicolo.modello, anno: veicolo.anno, veicolo, data_effetto: data, premio_verti: fromCents(esito.premio_centesimi),
    spese_emissione: 0, competenze: 0, premio_annuale: fromCents(Math.max(0, toCents(Number(polizza.premio_verti ?? 0)) - esito.premio_annuo_veicolo_centesimi)),
    appendice_totale: fromCents(esito.premio_centesimi), importo: fromCents(esito.premio_centesimi), importo_forzato: false,
  }));
  return { message: 'Calcolo eseguito.', data: { premio: fromCents(esito.premio_centesimi), appendice: presenta(s, draft, user) } };
}

/** The exclusion amount: the calculated one, or one forced by a super_admin. */
function importoEsclusione(user: AuthUser, draft: Row, body: Row, perEmissione: boolean) {
  const data = dataEffetto(body.data_effetto ?? body.date ?? draft.data_effetto);
  if (data !== isoDi(draft.data_effetto)) throw invalid({ data_effetto: ['La data è cambiata dopo il calcolo: ricalcola l\'esclusione.'] });
  const calcolato = toCents(Number(draft.premio_verti));
  const importo = centesimi(body.importo ?? body.premio, 'importo');
  if (perEmissione && importo === undefined) throw invalid({ importo: ['Campo Obbligatorio.'] });
  if (importo !== undefined && importo !== calcolato && !isSuperAdmin(user)) throw invalid({ importo: [MESSAGGI_APPENDICI.soloSuperAdmin] });
  return { data, importo: importo ?? calcolato, forzato: importo !== undefined && importo !== calcolato };
}

/** POST /api/preview_appendice_esclusione/{id}/{plate} */
export async function anteprimaEsclusione(s: ServizioAppendici, user: AuthUser, quotazioneId: number, targa: string, body: Row) {
  const { row, polizza } = await contesto(s, s.db, user, quotazioneId);
  veicoloDaEscludere(row, targa);
  const draft = await bozzaRichiesta(s.db, quotazioneId, 'esclusione', targa.trim());
  const { data, importo } = importoEsclusione(user, draft, body, false);
  return anteprimaCompagnia(s, richiesta(row, polizza, draft, 'esclusione', data, importo));
}

/** POST /api/emissione_appendice_esclusione/{id}/{plate}: an excluded vehicle cannot be excluded again. */
export async function emettiEsclusione(s: ServizioAppendici, user: AuthUser, quotazioneId: number, targa: string, body: Row) {
  await contesto(s, s.db, user, quotazioneId);
  return eseguiUnaVolta(s.db, {
    leaseMs: s.leaseMs,
    ...operazioneAppendice(s, 'appendice_esclusione'), recordId: quotazioneId, user,
    async prepara(trx) {
      const { row, polizza } = await contesto(s, trx, user, quotazioneId);
      const v = veicoloDaEscludere(row, targa);
      const draft = await bozzaRichiesta(trx, quotazioneId, 'esclusione', targa.trim());
      const { data, importo, forzato } = importoEsclusione(user, draft, body, true);
      const importi = { importo: fromCents(importo), appendice_totale: fromCents(importo), importo_forzato: forzato };
      return { ...richiesta(row, polizza, draft, 'esclusione', data, importo), appendice_id: draft.id, veicolo_id: v.id, importi };
    },
  });
}

/** GET /api/quotazioni/{id}/appendici: the drafts being prepared (they survive a reload) and the issued appendices. */
export async function appendiciDi(s: ServizioAppendici, user: AuthUser, quotazioneId: number) {
  await s.repo.get(s.db, user, quotazioneId);
  const rows = (await sql<Row>`SELECT * FROM appendice WHERE quotazione_id = ${quotazioneId} ORDER BY id`.execute(s.db)).rows;
  return {
    data: rows.map((r) => presenta(s, r, user)),
    bozze: {
      inclusione: rows.filter((r) => r.operazione === 'inclusione' && r.stato === 'bozza').map((r) => presenta(s, r, user))[0] ?? null,
      esclusione: rows.filter((r) => r.operazione === 'esclusione' && r.stato === 'bozza').map((r) => presenta(s, r, user))[0] ?? null,
    },
  };
}

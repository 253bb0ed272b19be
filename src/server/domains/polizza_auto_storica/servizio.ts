// Issue, preview, renewal, reversal, Koala resend and document regeneration of historic-car policies: each a machine event,
// each outside call made exactly once (chiamate.ts), each change committed with its history row and the third party's answer.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceDefinition } from '../../../shared/definitions/types.ts';
import type { Workflow } from '../../../shared/workflow/machine.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import { formatEuro, fromCents, toCents } from '../../../shared/money.ts';
import { applyRecordRules } from '../../../shared/rules.ts';
import { computedMismatchMessage } from '../../../shared/validation-messages.ts';
import { calcola, type CalcoloInput } from '../../adapters/auto-storiche/calcolo.ts';
import { canonicalInput } from '../../../shared/canonical.ts';
import { normalizeInput, withoutNulls } from '../../../shared/validation.ts';
import { HttpError, invalid, notFound } from '../../errors.ts';
import type { ResourceRepository } from '../../resources/repository.ts';
import {
  EsitoIncerto, type AutoStoricheEmissione, type EsitoEmissione, type EsitoStorno, type RichiestaEmissione,
} from '../../adapters/auto-storiche/emissione-types.ts';
import { KoalaNonRaggiungibile, type DatiEmissioneKoala, type EsitoKoala, type KoalaBroker } from '../../adapters/koala/types.ts';
import { eseguiUnaVolta, registraRisposta, RispostaInConflitto, utenteDa, type ChiamataEsterna, type Risposta, type Trx } from './chiamate.ts';
import { dataItaliana } from '../../../shared/dates.ts';
import { calcolaDecorrenza, DATA_INCASSO_OBBLIGATORIA, type Decorrenza } from './decorrenza.ts';
import { completaRegistri, verificaIdoneita } from './idoneita.ts';
import type { RegistriAdapter } from '../../adapters/registri/types.ts';
import { registraInElenco, stornaInElenco } from './elenco.ts';

export const QUOTAZIONE = 'quotazione';
export const POLIZZA = 'polizza_auto_storica';

export interface Servizio {
  db: Database;
  def: ResourceDefinition;
  workflow: Workflow;
  repo: ResourceRepository;
  polizze: ResourceRepository;
  compagnia: AutoStoricheEmissione;
  koala: KoalaBroker;
  registri: RegistriAdapter;
  /** The policies list (resource polizza) where issued policies are copied (elenco.ts); absent, nothing is copied. */
  elenco?: ResourceRepository;
  log?: (message: string) => void;
  /** CHIAMATE_ESTERNE_LEASE_MS: an outside call in progress longer than this is taken as abandoned. */
  leaseMs?: number;
  /** Stores the issued policy's contract to sign, in the issue's (or the regeneration's) transaction. */
  contratto(trx: Trx, user: AuthUser, quotazioneId: number): Promise<void>;
}

type Row = Record<string, unknown>;

export async function riga(trx: Trx | Database, id: number): Promise<Row> {
  const row = (await sql<Row>`SELECT * FROM quotazione WHERE id = ${id}`.execute(trx)).rows[0];
  if (!row) throw notFound('Quotazione', true);
  return row;
}

function statoDi(s: Servizio, row: Row): number {
  return Number(row[s.workflow.statusField]);
}

/** Refuses, as the generic action routes do, what the machine does not allow now. */
export function consenti(s: Servizio, user: AuthUser, row: Row, type: string): void {
  if (!s.workflow.can(statoDi(s, row), user, row, { type })) {
    const label = s.workflow.definition.meta.events[type]?.label ?? type;
    throw new HttpError(409, `Azione "${label}" non consentita nello stato "${s.workflow.status(statoDi(s, row)).nome}".`, undefined, undefined, 'WORKFLOW_REFUSED');
  }
}

/**
 * Moves the record by a machine event, with its history row, inside the caller's transaction.
 * A confirmed answer of the insurer is never dropped: if the status changed meanwhile (by hand), the data are kept
 * and the history says so.
 */
export async function transizione(s: Servizio, trx: Trx, user: AuthUser, given: Row, type: string, changes: Row, nota: string): Promise<Row> {
  // Written on the user's behalf through the repository: the merged record validated, the version bumped, the history row.
  const row = await s.repo.lockRow(trx, Number(given.id));
  const from = statoDi(s, row);
  const result = s.workflow.apply(from, user, row, { type });
  const to = result?.to.id ?? from;
  const note = result ? nota : `${nota} (stato non modificato: l'azione non era più consentita nello stato "${s.workflow.status(from).nome}")`;
  return s.repo.writeOnBehalf(trx, user, row, changes, { history: { event: type, note, to } });
}

function contraente(row: Row): string {
  return [row.rsoc, row.cognome, row.nome].filter(Boolean).join(' ').trim();
}

function targhe(row: Row): string {
  return ((row.veicoli_storici ?? []) as Row[]).map((v) => String(v.targa ?? '')).filter(Boolean).join(', ');
}

function premioDi(row: Row): number {
  const forzato = row.premio_forzato;
  return forzato !== null && forzato !== undefined ? Number(forzato) : Number(row.premio ?? 0);
}

/** The request sent to the insurer, from the locked record; every missing datum refused at its field. */
export function richiestaEmissione(row: Row, decorrenza: Decorrenza, check: boolean): RichiestaEmissione {
  const errors: Record<string, string[]> = {};
  const veicoli = (row.veicoli_storici ?? []) as Row[];
  if (!veicoli.length) errors.veicoli_storici = ['Inserisci almeno un veicolo storico.'];
  veicoli.forEach((v, i) => {
    if (!v.targa) errors[`veicoli_storici.${i}.targa`] = ['Campo Obbligatorio.'];
    else if (!v.tipologia_ania) errors[`veicoli_storici.${i}.tipologia_ania`] = [`non hai compilato la tipologia di veicolo per la targa ${String(v.targa)}`];
  });
  if (!(premioDi(row) > 0)) errors.premio = ["Calcolare il premio prima dell'emissione."];
  if (!row.cfisc && !row.piva) errors.cfisc = ['Campo Obbligatorio.'];
  if (Object.keys(errors).length) throw invalid(errors);
  return {
    riferimento: `quotazione-${String(row.id)}`,
    contraente: {
      nome: (row.nome as string) ?? undefined, cognome: (row.cognome as string) ?? undefined, rsoc: (row.rsoc as string) ?? undefined,
      cfisc: (row.cfisc as string) ?? undefined, piva: (row.piva as string) ?? undefined, email: (row.email as string) ?? undefined,
      telefono: (row.telefono as string) ?? undefined,
    },
    veicoli: veicoli.map((v) => ({
      targa: String(v.targa), marca: String(v.marca ?? ''), modello: String(v.modello ?? ''), anno: Number(v.anno),
      tipologia_ania: v.tipologia_ania ? String(v.tipologia_ania) : undefined,
      tipologia_targa: v.tipologia_targa ? String(v.tipologia_targa) : undefined,
      furto: v.furto === true,
      ...(v.atrc_contract_expiration_date ? { atrc_contract_expiration_date: String(v.atrc_contract_expiration_date) } : {}),
    })),
    decorrenza: decorrenza.decorrenza,
    premio_centesimi: toCents(premioDi(row)),
    check_atrc_contract_expiration_date: check,
  };
}

/** options.check_atrc_contract_expiration_date: true unless a super_admin switches it off. */
export function controlloAtrc(body: unknown, user: AuthUser): boolean {
  const options = (body as { options?: unknown } | undefined)?.options;
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) throw invalid({ options: ['Deve essere un oggetto.'] });
  const value = (options as Record<string, unknown> | undefined)?.check_atrc_contract_expiration_date;
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw invalid({ 'options.check_atrc_contract_expiration_date': ['Deve essere vero o falso.'] });
  if (!value && !hasPermission('super_admin', user)) {
    throw invalid({ 'options.check_atrc_contract_expiration_date': ['Solo un super_admin può disattivare il controllo della scadenza della polizza precedente.'] });
  }
  return value;
}

async function incerto<T>(call: Promise<T>): Promise<Risposta<T>> {
  try {
    return { esito: await call };
  } catch (error) {
    if (error instanceof EsitoIncerto || error instanceof KoalaNonRaggiungibile) return { incerto: error.message };
    throw error;
  }
}

function messaggioEmissione(esito: EsitoEmissione): string {
  const primo = esito.Error[0]?.descError;
  if (esito.result === 0) return 'Polizza emessa correttamente';
  if (esito.result === 1) return `WARNING ${primo ?? ''}`.trimEnd();
  return primo ?? 'Emissione non riuscita.';
}

function notaEmissione(esito: EsitoEmissione, richiesta: RichiestaEmissione): string {
  const errori = esito.Error.map((e) => `${e.codError ? `[${e.codError}] ` : ''}${e.descError}`).join('; ');
  if (esito.result === 0) {
    return `Risposta compagnia (result 0): polizza ${esito.verti_policy_number}, infodrive_id ${esito.infodrive_id ?? '-'}, decorrenza dalle ore 24:00 del ${dataItaliana(richiesta.decorrenza)}${richiesta.check_atrc_contract_expiration_date ? '' : ' (senza controllo della scadenza della polizza precedente)'}.`;
  }
  return `Risposta compagnia (result ${esito.result}): ${errori}`;
}

export async function polizzaAttiva(trx: Trx | Database, quotazioneId: number): Promise<Row | undefined> {
  return (await sql<Row>`SELECT * FROM polizza_auto_storica WHERE quotazione_id = ${quotazioneId} AND stornata IS NOT TRUE`.execute(trx)).rows[0];
}

export interface RispostaEmissione {
  result: 0 | 1 | 2;
  message: string;
  Error: EsitoEmissione['Error'];
  verti_policy_number?: string;
  infodrive_id?: string;
  data: { model: Row; polizza?: Row };
}

async function rispostaEmissione(s: Servizio, trx: Trx, user: AuthUser, id: number, esito: EsitoEmissione): Promise<RispostaEmissione> {
  const model = await s.repo.get(trx as unknown as Database, user, id);
  const polizza = esito.result === 0 ? await polizzaAttiva(trx, id) : undefined;
  return {
    result: esito.result, message: messaggioEmissione(esito), Error: esito.Error,
    ...(esito.verti_policy_number ? { verti_policy_number: esito.verti_policy_number } : {}),
    ...(esito.infodrive_id ? { infodrive_id: esito.infodrive_id } : {}),
    data: { model, ...(polizza ? { polizza } : {}) },
  };
}

/** Records the insurer's confirmed answer to an issue call: the policy and status 9, a warning, or status 11. */
async function registraEmissione(s: Servizio, trx: Trx, esito: EsitoEmissione, chiamata: ChiamataEsterna, lettore?: AuthUser): Promise<RispostaEmissione> {
  // Recorded in the name of who made the call; answered to who is asking now (a reconciliation may come from another user).
  const user = utenteDa(chiamata.utente);
  const richiesta = chiamata.richiesta as RichiestaEmissione & { scadenza: string; data_incasso: string };
  const row = await riga(trx, chiamata.record_id);
  const nota = notaEmissione(esito, richiesta);
  if (esito.result === 0 && esito.verti_policy_number) {
    const premio = premioDi(row);
    const registrata = await polizzaConNumero(trx, esito.verti_policy_number);
    if (registrata) throw conflittoNumero(esito.verti_policy_number, registrata);
    const polizza = await s.polizze.createOwned(trx, user, {
      numero_polizza: esito.verti_policy_number, infodrive_id: esito.infodrive_id ?? null, quotazione_id: chiamata.record_id,
      collaboratore_id: row.collaboratore_id ?? null, cliente_id: row.cliente_id ?? null, contraente: contraente(row), targhe: targhe(row),
      data_incasso: richiesta.data_incasso, decorrenza: richiesta.decorrenza, scadenza: richiesta.scadenza,
      premio, premio_verti: row.premio_verti ?? null, competenze: row.competenze ?? null,
      documenti: esito.documenti ?? [], risposta_compagnia: esito, emessa_da: user.name,
      stornata: false, koala_invii: 0,
    }, { hooks: false }).catch((error: unknown) => {
      // Recorded meanwhile by another transaction: the unique index refused it.
      if (error instanceof HttpError && error.errors?.numero_polizza) throw conflittoNumero(esito.verti_policy_number!);
      throw error;
    });
    if (s.elenco) await registraInElenco(s.elenco, trx, user, polizza, row, s.log ?? (() => undefined));
    await transizione(s, trx, user, row, 'EMETTI', {
      verti_policy_number: esito.verti_policy_number, infodrive_id: esito.infodrive_id ?? null, polizza_id: polizza.id, decorrenza: richiesta.decorrenza,
    }, nota);
    // Whoever issued (staff from 7, after a request, a retry from 11, a reconciled answer): the contract to sign.
    await s.contratto(trx, user, chiamata.record_id);
  } else if (esito.result === 1) {
    await transizione(s, trx, user, row, 'AVVISO_EMISSIONE', {}, nota);
  } else {
    await transizione(s, trx, user, row, 'ERRORE_EMISSIONE', {}, nota);
  }
  return rispostaEmissione(s, trx, lettore ?? user, chiamata.record_id, esito);
}

async function polizzaConNumero(trx: Trx, numero: string): Promise<{ quotazione_id: number } | undefined> {
  return (await sql<{ quotazione_id: number }>`SELECT quotazione_id FROM polizza_auto_storica WHERE lower(numero_polizza) = lower(${numero})`.execute(trx)).rows[0];
}

/**
 * The insurer confirms a policy number this database already holds for a quotation: a real insurer never gives a number
 * twice, so one of the two records is wrong (a sandbox that forgot its books, data loaded by hand). Asking again with the
 * same key would get the same number for ever: the answer is not recorded, and the quotation says why.
 */
function conflittoNumero(numero: string, registrata?: { quotazione_id: number }): RispostaInConflitto {
  const dove = registrata ? `per la quotazione n. ${registrata.quotazione_id}` : 'per un\'altra quotazione';
  return new RispostaInConflitto(`La compagnia ha comunicato la polizza ${numero}, ma questo numero è già registrato ${dove}: `
    + "la risposta non è stata registrata. Verificare con la compagnia l'esito dell'emissione prima di emettere di nuovo.");
}

function operazioneEmissione(s: Servizio, lettore?: AuthUser) {
  return {
    resource: QUOTAZIONE,
    async inConflitto(trx: Trx, esito: EsitoEmissione, chiamata: ChiamataEsterna, conflitto: RispostaInConflitto) {
      // 'Conclusa con errore': nothing issued here, the note names the number, and issuing may be tried again from there.
      await transizione(s, trx, utenteDa(chiamata.utente), await riga(trx, chiamata.record_id), 'ERRORE_EMISSIONE', {},
        `Risposta compagnia (result ${esito.result}) non registrata: ${conflitto.message}`);
    },
    registra: (trx: Trx, esito: EsitoEmissione, chiamata: ChiamataEsterna) => registraEmissione(s, trx, esito, chiamata, lettore),
    giaRegistrata: (trx: Trx, chiamata: ChiamataEsterna) => rispostaEmissione(s, trx, lettore ?? utenteDa(chiamata.utente), chiamata.record_id, chiamata.risposta as EsitoEmissione),
  };
}

/** A second delivery of the same answer (the insurer's retry, a webhook): recorded once, whatever the order. */
export async function consegnaDuplicata(s: Servizio, chiave: string, esito: EsitoEmissione): Promise<void> {
  const chiamata = (await sql<ChiamataEsterna>`SELECT * FROM chiamata_esterna WHERE chiave = ${chiave}`.execute(s.db)).rows[0];
  if (!chiamata || chiamata.operazione !== 'emissione') return;
  await registraRisposta(s.db, operazioneEmissione(s), chiamata.record_id, chiave, esito);
}

export async function emetti(s: Servizio, user: AuthUser, id: number, decorrenzaRichiesta: unknown, body: unknown): Promise<RispostaEmissione> {
  await s.repo.get(s.db, user, id);
  const check = controlloAtrc(body, user);
  consenti(s, user, await riga(s.db, id), 'EMETTI');
  await completaRegistri(s, user, id);
  return eseguiUnaVolta(s.db, {
    leaseMs: s.leaseMs,
    sistema: 'auto_storiche', operazione: 'emissione', recordId: id, user,
    ...operazioneEmissione(s, user),
    async prepara(trx) {
      const row = await riga(trx, id);
      consenti(s, user, row, 'EMETTI');
      verificaIdoneita(row, check);
      const decorrenza = calcolaDecorrenza(row, decorrenzaRichiesta);
      return { ...richiestaEmissione(row, decorrenza, check), scadenza: decorrenza.scadenza, data_incasso: decorrenza.minima };
    },
    chiama: (chiave, richiesta) => incerto(s.compagnia.emetti(chiave, richiesta as RichiestaEmissione)),
    async cerca(chiave) {
      const found = await incerto(s.compagnia.cerca(chiave));
      if ('incerto' in found) return found;
      return { esito: found.esito.trovata && found.esito.operazione === 'emissione' ? { trovata: true as const, esito: found.esito.esito } : { trovata: false as const } };
    },
  });
}

export async function anteprima(s: Servizio, user: AuthUser, id: number, decorrenzaRichiesta: unknown, body: unknown) {
  consenti(s, user, await riga(s.db, (await s.repo.get(s.db, user, id)).id as number), 'ANTEPRIMA_EMISSIONE');
  const check = controlloAtrc(body, user);
  await completaRegistri(s, user, id);
  const row = await riga(s.db, id);
  verificaIdoneita(row, check);
  const decorrenza = calcolaDecorrenza(row, decorrenzaRichiesta);
  const richiesta = richiestaEmissione(row, decorrenza, check);
  const answer = await incerto(s.compagnia.anteprima(richiesta));
  if ('incerto' in answer) throw new HttpError(502, answer.incerto);
  return {
    result: answer.esito.result, Error: answer.esito.Error,
    message: answer.esito.result === 0 ? 'Anteprima emissione: nessun rilievo della compagnia.' : messaggioEmissione(answer.esito),
    data: {
      decorrenza: decorrenza.decorrenza, scadenza: decorrenza.scadenza, decorrenza_minima: decorrenza.minima, decorrenza_testo: decorrenza.testo,
      premio: fromCents(richiesta.premio_centesimi), contraente: contraente(row), veicoli: richiesta.veicoli,
      check_atrc_contract_expiration_date: check,
    },
  };
}

export async function storna(s: Servizio, user: AuthUser, id: number, numero: string) {
  await s.repo.get(s.db, user, id);
  const out = await eseguiUnaVolta(s.db, {
    leaseMs: s.leaseMs,
    sistema: 'auto_storiche', operazione: 'storno', resource: QUOTAZIONE, recordId: id, user,
    async prepara(trx) {
      const row = await riga(trx, id);
      consenti(s, user, row, 'STORNA');
      const polizza = (await sql<Row>`SELECT * FROM polizza_auto_storica WHERE quotazione_id = ${id} AND numero_polizza = ${numero}`.execute(trx)).rows[0];
      if (!polizza) throw new HttpError(404, `Polizza ${numero} non trovata per la quotazione n. ${id}.`);
      if (polizza.stornata) throw new HttpError(409, `La polizza ${numero} è già stornata.`);
      return { numero_polizza: numero, polizza_id: polizza.id };
    },
    chiama: (chiave, richiesta) => incerto(s.compagnia.storna(chiave, (richiesta as { numero_polizza: string }).numero_polizza)),
    async cerca(chiave) {
      const found = await incerto(s.compagnia.cerca(chiave));
      if ('incerto' in found) return found;
      return { esito: found.esito.trovata && found.esito.operazione === 'storno' ? { trovata: true as const, esito: found.esito.esito } : { trovata: false as const } };
    },
    async registra(trx, esito: EsitoStorno, chiamata) {
      const u = utenteDa(chiamata.utente);
      const { polizza_id } = chiamata.richiesta as { polizza_id: number };
      if (esito.result === 0) {
        await s.polizze.writeOnBehalf(trx, u, await s.polizze.lockRow(trx, polizza_id), { stornata: true, stornata_da: u.name, stornata_il: new Date().toISOString() });
        if (s.elenco) await stornaInElenco(s.elenco, trx, u, polizza_id);
        await transizione(s, trx, u, await riga(trx, id), 'STORNA', {}, `Risposta compagnia (result 0): polizza ${numero} stornata.`);
      }
      return { esito, model: await s.repo.get(trx as unknown as Database, user, id) };
    },
    async giaRegistrata(trx, chiamata) {
      return { esito: chiamata.risposta as EsitoStorno, model: await s.repo.get(trx as unknown as Database, user, id) };
    },
  });
  if (out.esito.result !== 0) {
    // The insurer refused: nothing changed here; the dialog closes and shows the errors.
    const messaggi = out.esito.Error.map((e) => e.descError);
    throw new HttpError(422, messaggi[0] ?? 'Storno non riuscito.', { verti_policy_number: messaggi.length ? messaggi : ['Storno non riuscito.'] }, { result: out.esito.result, Error: out.esito.Error });
  }
  const polizza = (await sql<Row>`SELECT * FROM polizza_auto_storica WHERE quotazione_id = ${id} AND numero_polizza = ${numero}`.execute(s.db)).rows[0];
  return { result: 0, message: 'Polizza stornata correttamente', Error: [], data: { model: out.model, polizza } };
}

export async function reinviaKoala(s: Servizio, user: AuthUser, id: number) {
  await s.repo.get(s.db, user, id);
  const out = await eseguiUnaVolta(s.db, {
    leaseMs: s.leaseMs,
    sistema: 'koala', operazione: 'reimporta_emissione', resource: QUOTAZIONE, recordId: id, user, tentativi: 1,
    async prepara(trx) {
      const row = await riga(trx, id);
      consenti(s, user, row, 'REINVIA_KOALA');
      const polizza = await polizzaAttiva(trx, id);
      if (!polizza) throw new HttpError(409, 'Nessuna polizza emessa da inviare a Koala.');
      const dati: DatiEmissioneKoala & { polizza_id: number } = {
        polizza_id: Number(polizza.id), numero_polizza: String(polizza.numero_polizza), infodrive_id: (polizza.infodrive_id as string) ?? undefined,
        quotazione_id: id, contraente: String(polizza.contraente ?? ''), codice_fiscale: (row.cfisc as string) ?? (row.piva as string) ?? undefined,
        decorrenza: String(polizza.decorrenza), scadenza: String(polizza.scadenza), premio: Number(polizza.premio ?? 0),
        competenze: Number(polizza.competenze ?? 0), collaboratore_id: (row.collaboratore_id as number) ?? undefined,
      };
      return dati;
    },
    chiama: (chiave, richiesta) => {
      const { polizza_id: _omit, ...dati } = richiesta as DatiEmissioneKoala & { polizza_id: number };
      return incerto(s.koala.reimportaEmissione(chiave, dati));
    },
    async registra(trx, esito: EsitoKoala, chiamata) {
      const u = utenteDa(chiamata.utente);
      const { polizza_id, numero_polizza } = chiamata.richiesta as { polizza_id: number; numero_polizza: string };
      if (esito.ok) {
        const polizza = await s.polizze.lockRow(trx, polizza_id);
        await s.polizze.writeOnBehalf(trx, u, polizza, { koala_invii: Number(polizza.koala_invii ?? 0) + 1 });
        await transizione(s, trx, u, await riga(trx, id), 'REINVIA_KOALA', {}, `Koala: dati della polizza ${numero_polizza} reinviati (importazione ${esito.id_importazione}).`);
      }
      return esito;
    },
    async giaRegistrata(_trx, chiamata) {
      return chiamata.risposta as EsitoKoala;
    },
  });
  if (!out.ok) throw new HttpError(422, out.errori[0] ?? 'Koala ha rifiutato i dati.', { koala: out.errori });
  return { message: 'Dati reinviati a Koala', data: { id_importazione: out.id_importazione, model: await s.repo.get(s.db, user, id) } };
}

export async function rigeneraDocumenti(s: Servizio, user: AuthUser, id: number) {
  await s.repo.get(s.db, user, id);
  const row = await riga(s.db, id);
  consenti(s, user, row, 'RIGENERA_DOCUMENTI');
  const polizza = await polizzaAttiva(s.db, id);
  if (!polizza) throw new HttpError(409, 'Nessuna polizza emessa di cui rigenerare i documenti.');
  const answer = await incerto(s.compagnia.rigeneraDocumenti(String(polizza.numero_polizza)));
  if ('incerto' in answer) throw new HttpError(502, answer.incerto);
  if (answer.esito.result !== 0) {
    const messaggi = answer.esito.Error.map((e) => e.descError);
    throw new HttpError(422, messaggi[0] ?? 'Rigenerazione non riuscita.', { documenti: messaggi });
  }
  return s.db.transaction().execute(async (trx) => {
    const locked = (await sql<Row>`SELECT * FROM quotazione WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0]!;
    await s.polizze.writeOnBehalf(trx, user, await s.polizze.lockRow(trx, Number(polizza.id)), { documenti: answer.esito.documenti ?? [] });
    await transizione(s, trx, user, locked, 'RIGENERA_DOCUMENTI', {}, `Risposta compagnia (result 0): ${answer.esito.documenti?.length ?? 0} documenti rigenerati.`);
    await s.contratto(trx, user, id);
    return { message: 'Documenti rigenerati', data: { documenti: answer.esito.documenti ?? [], model: await s.repo.get(trx as unknown as Database, user, id) } };
  });
}

/** Fields a renewal takes from the policy's quotation: the customer and the vehicles, not premiums, status or links. */
const NON_COPIATI = new Set(['id', 'uuid', 'version', 'created_at', 'updated_at', 'stato_quotazione_id', 'premio', 'premio_verti', 'premio_forzato', 'preventivi',
  'colore', 'verti_policy_number', 'infodrive_id', 'polizza_id', 'rinnovo_id', 'rinnovo_della_polizza', 'data_incasso', 'decorrenza']);

export async function rinnova(s: Servizio, user: AuthUser, id: number) {
  await s.repo.get(s.db, user, id);
  return s.db.transaction().execute(async (trx) => {
    const row = (await sql<Row>`SELECT * FROM quotazione WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0]!;
    if (row.rinnovo_id) throw new HttpError(409, `La polizza è già stata rinnovata con la quotazione n. ${String(row.rinnovo_id)}.`);
    consenti(s, user, row, 'RINNOVA');
    const polizza = await polizzaAttiva(trx, id);
    if (!polizza) throw new HttpError(409, 'Nessuna polizza emessa da rinnovare.');
    const copia: Row = {};
    for (const f of s.def.fields) {
      if (NON_COPIATI.has(f.name) || f.readOnly || row[f.name] === undefined || row[f.name] === null) continue;
      copia[f.name] = row[f.name];
    }
    const rinnovoDella = {
      numero_polizza: String(polizza.numero_polizza), quotazione_id: id,
      premio: premioDi(row), premio_forzato: row.premio_forzato ?? null, competenze: row.competenze ?? null,
    };
    // The renewal is created like any record (rules, validation, hooks), with its first history row.
    const nuova = await s.repo.createOwned(trx, user, {
      ...copia, uuid: randomUUID(), [s.workflow.statusField]: 13, rinnovo_della_polizza: rinnovoDella,
      decorrenza: polizza.scadenza ?? null, preventivi: [],
    }, { history: { event: 'RINNOVA', note: `Rinnovo della polizza ${rinnovoDella.numero_polizza} (quotazione n. ${id}).` } });
    await transizione(s, trx, user, row, 'RINNOVA', { rinnovo_id: nuova.id }, `Creata la quotazione di rinnovo n. ${String(nuova.id)} della polizza ${rinnovoDella.numero_polizza}.`);
    const model = await s.repo.get(trx as unknown as Database, user, Number(nuova.id));
    return {
      message: 'Quotazione di rinnovo creata',
      data: { model, rinnovo_di: await s.repo.get(trx as unknown as Database, user, id) },
      avvisi: s.workflow.warnings(13, user, model),
    };
  });
}

/** 'Salva Emissione' may change the customer and vehicle data the insurer needs, never premiums, links or the collaborator. */
const NON_MODIFICABILI_IN_EMISSIONE = new Set(['premio_forzato', 'competenze', 'collaboratore_id', 'cliente_id', 'tipo', 'bundle_key', 'version']);

export async function salvaEmissione(
  s: Servizio, user: AuthUser, id: number, body: unknown, version: number | undefined,
  valida: (record: Row) => Record<string, string[]> | null,
  prima: (input: Row, before: Row, trx: Trx) => Promise<void>,
) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid({ _: ['Il corpo della richiesta deve essere un oggetto JSON.'] });
  await s.repo.get(s.db, user, id);
  const byName = new Map(s.def.fields.map((f) => [f.name, f]));
  const errors: Record<string, string[]> = {};
  const input: Row = {};
  for (const [key, value] of Object.entries(canonicalInput(body as Row, s.def.schema))) {
    if (key === 'version') continue;
    const field = byName.get(key);
    if (!field) errors[key] = ['Campo non consentito.'];
    else if (field.readOnly || NON_MODIFICABILI_IN_EMISSIONE.has(key)) errors[key] = ['Campo non modificabile.'];
    else input[key] = value;
  }
  if (Object.keys(errors).length) throw invalid(errors);
  const clean = normalizeInput(s.def.fields, input);
  return s.db.transaction().execute(async (trx) => {
    const before = (await sql<Row>`SELECT * FROM quotazione WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0]!;
    if (version !== undefined && before.version !== version) {
      throw new HttpError(409, 'Il record è stato modificato da un altro utente. Ricarica per vedere la versione aggiornata.', undefined, { current: await s.repo.get(trx as unknown as Database, user, id) }, 'STALE_VERSION');
    }
    consenti(s, user, before, 'SALVA_EMISSIONE');
    const stored: Row = {};
    for (const f of s.def.fields) if (!f.readOnly && !f.secret) stored[f.name] = before[f.name] ?? null;
    // The definition's conditional and computed rules, as every other write follows them.
    const record = { ...stored, ...clean };
    const regole = applyRecordRules(s.def.schema, record, clean, (expected) => computedMismatchMessage(formatEuro(expected)));
    if (Object.keys(regole).length) throw invalid(regole);
    // The receipt day is what the issue starts from (spec 001 §9): saved, it may change, never go.
    if (record.data_incasso === null || record.data_incasso === undefined || record.data_incasso === '') throw invalid({ data_incasso: [DATA_INCASSO_OBBLIGATORIA] });
    const invalidi = valida(withoutNulls(record));
    if (invalidi) throw invalid(invalidi);
    await prima(clean, before, trx);
    // Changed vehicles make the calculation stale (the quotation hook empties it): price them again here, since the
    // quotation cannot go back to draft to be recalculated; a recalculation empties the forced premium (spec 001 §4).
    let ricalcolato = false;
    if (clean.preventivi === null && Array.isArray(before.preventivi) && before.preventivi.length) {
      const result = await calcola(trx as unknown as Database, { ...stored, ...clean } as CalcoloInput);
      Object.assign(clean, {
        colore: result.colore, premio: result.premio, premio_verti: result.premio_verti, preventivi: result.preventivi,
        veicoli_storici: result.veicoli_storici, premio_forzato: null,
      });
      ricalcolato = true;
    }
    // Stored through the repository like every write on the user's behalf: the merged record validated once more.
    await s.repo.writeOnBehalf(trx, user, before, clean, { version });
    const message = ricalcolato ? "Dati per l'emissione salvati; premio ricalcolato per i veicoli modificati" : "Dati per l'emissione salvati";
    return { message, ricalcolato, data: { model: await s.repo.get(trx as unknown as Database, user, id) } };
  });
}

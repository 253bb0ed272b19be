// Notices and reminders of the expiry calendar: templates and rules as data (schemas/scadenziario/avvisi.json), the
// daily job that sends what is due through the outbox once per rule, row and date (a unique key, so a second run or a
// second instance sends nothing more), the preview of a template on a row, a notice sent by hand, and 'Rinnovo perso'.
// Each notice leaves an entry in its record's history and a line in the row's 'Avvisi inviati'.
import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import definizioni from '../../../../schemas/scadenziario/avvisi.json' with { type: 'json' };
import { requirePermission } from '../../auth/guards.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Database } from '../../db/connection.ts';
import { HttpError, forbidden, notFoundFor } from '../../errors.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import { ID_PARAMS, parsePathId } from '../../http/contract.ts';
import { errorResponses } from '../../http/openapi.ts';
import { enqueueEmail } from '../../mail/outbox.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import type { ResourceDefinition } from '../../../shared/definitions/types.ts';
import { registraEvento } from '../../storico/contesto.ts';
import type { JobContext } from '../../scheduler/scheduler.ts';
import { formatEuro } from '../../../shared/money.ts';

type Trx = Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the view and side table are untyped

export interface Modello { nome: string; titolo: string; oggetto: string; corpo: string }
export interface Regola { nome: string; titolo: string; tipi: string[]; modello: string; giorni: number; recupero: number; richiede?: string; attiva: boolean }
export interface Avvisi { intermediario: { nome: string; telefono: string; email: string }; modelli: Modello[]; regole: Regola[] }

export const SEGNAPOSTI = ['cliente', 'polizza', 'scadenza', 'importo', 'intermediario', 'telefono', 'email_intermediario'] as const;
const TIPI = ['POLIZZA', 'POLIZZA_AUTO_STORICA', 'TITOLO'];
/** The record behind a calendar row, by its kind: its history receives the notice. */
const RISORSA: Record<string, string> = { POLIZZA: 'polizza', POLIZZA_AUTO_STORICA: 'polizza_auto_storica', TITOLO: 'titolo' };

// A notice is once per rule, row and the row's date: next year's expiry of the same policy is a new notice. Sent by
// hand (regola NULL), as often as the clerk decides.
export const AVVISI_TABLES = [
  `CREATE TABLE IF NOT EXISTS scadenziario_avviso (
     id bigserial PRIMARY KEY,
     riga_id bigint NOT NULL,
     regola text,
     modello text NOT NULL,
     titolo text NOT NULL,
     data_riferimento date NOT NULL,
     destinatario text NOT NULL,
     email_outbox_id bigint,
     manuale boolean NOT NULL DEFAULT false,
     utente_nome text,
     inviato_il timestamptz NOT NULL DEFAULT now())`,
  `CREATE UNIQUE INDEX IF NOT EXISTS scadenziario_avviso_una_volta ON scadenziario_avviso (regola, riga_id, data_riferimento) WHERE regola IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS scadenziario_avviso_riga ON scadenziario_avviso (riga_id, data_riferimento)`,
];

/** The file checked: a wrong entry stops the start naming it, rather than a notice going out wrong. */
export function checkAvvisi(raw: unknown): Avvisi {
  const file = 'schemas/scadenziario/avvisi.json';
  const d = raw as Avvisi;
  if (!d || typeof d !== 'object' || !Array.isArray(d.modelli) || !Array.isArray(d.regole) || typeof d.intermediario?.nome !== 'string') {
    throw new Error(`${file}: servono intermediario, modelli e regole`);
  }
  const modelli = new Set<string>();
  for (const m of d.modelli) {
    if (typeof m?.nome !== 'string' || !/^[a-z][a-z0-9_]*$/.test(m.nome) || modelli.has(m.nome)) throw new Error(`${file}: modello "${String(m?.nome)}": nome mancante, non valido o ripetuto`);
    if (typeof m.titolo !== 'string' || typeof m.oggetto !== 'string' || typeof m.corpo !== 'string') throw new Error(`${file}: modello "${m.nome}": servono titolo, oggetto e corpo`);
    for (const [, name] of `${m.oggetto} ${m.corpo}`.matchAll(/\{([^}]*)\}/g)) {
      if (!(SEGNAPOSTI as readonly string[]).includes(name!)) throw new Error(`${file}: modello "${m.nome}": segnaposto sconosciuto {${name}} (ammessi: ${SEGNAPOSTI.join(', ')})`);
    }
    modelli.add(m.nome);
  }
  const regole = new Set<string>();
  for (const r of d.regole) {
    const where = `${file}: regola "${String(r?.nome)}"`;
    if (typeof r?.nome !== 'string' || !/^[a-z][a-z0-9_]*$/.test(r.nome) || regole.has(r.nome)) throw new Error(`${where}: nome mancante, non valido o ripetuto`);
    if (!modelli.has(r.modello)) throw new Error(`${where}: modello sconosciuto "${String(r.modello)}"`);
    if (!Array.isArray(r.tipi) || !r.tipi.length || r.tipi.some((t) => !TIPI.includes(t))) throw new Error(`${where}: tipi tra ${TIPI.join(', ')}`);
    if (!Number.isInteger(r.giorni) || !Number.isInteger(r.recupero) || r.recupero < 1 || typeof r.attiva !== 'boolean') throw new Error(`${where}: servono giorni, recupero (almeno 1) e attiva`);
    if (r.richiede !== undefined && !regole.has(r.richiede)) throw new Error(`${where}: richiede una regola precedente nel file, non "${String(r.richiede)}"`);
    regole.add(r.nome);
  }
  return d;
}

export const AVVISI = checkAvvisi(definizioni);

/** A calendar row as the notices read it (the view's columns, and the policy's number for an instalment). */
export interface Riga {
  id: number; tipo: string; record_id: number; riferimento: string | null; numero_polizza: string | null; contraente: string | null;
  email: string | null; premio: number | string | null; data_scadenza: string; stato_rinnovo: string;
}

const italianDate = (iso: string) => iso.split('-').reverse().join('/');

/** The template filled for a row: the values a brokerage writes (dates dd/mm/yyyy, amounts '1.257,50 €'). */
export function compila(modello: Modello, riga: Riga, avvisi: Avvisi = AVVISI): { oggetto: string; corpo: string } {
  const valori: Record<string, string> = {
    cliente: riga.contraente ?? 'Cliente',
    polizza: riga.numero_polizza ?? riga.riferimento ?? '',
    scadenza: italianDate(riga.data_scadenza),
    importo: riga.premio === null ? '' : formatEuro(Math.round(Number(riga.premio) * 100) / 100),
    intermediario: avvisi.intermediario.nome,
    telefono: avvisi.intermediario.telefono,
    email_intermediario: avvisi.intermediario.email,
  };
  const fill = (text: string) => text.replace(/\{([a-z_]+)\}/g, (all, name: string) => valori[name] ?? all);
  return { oggetto: fill(modello.oggetto), corpo: fill(modello.corpo) };
}

const ROW_SQL = sql`SELECT s.id, s.tipo, s.record_id, s.riferimento, s.contraente, nullif(trim(s.email), '') AS email, s.premio,
    to_char(s.data_scadenza, 'YYYY-MM-DD') AS data_scadenza, s.stato_rinnovo,
    coalesce(CASE WHEN s.tipo = 'TITOLO' THEN (SELECT x.polizza_numero FROM polizza x WHERE x.id = s.polizza_id) END, s.riferimento) AS numero_polizza
  FROM scadenziario s`;

async function rigaById(db: Database | Trx, id: number): Promise<Riga | undefined> {
  return (await sql<Riga>`${ROW_SQL} WHERE s.id = ${id}`.execute(db)).rows[0];
}

/**
 * Sends one notice in the caller's transaction: the row in scadenziario_avviso (for a rule, once: a second attempt finds
 * the key and sends nothing), the e-mail in the outbox, the entry in the record's history. Answers the outbox id, or
 * undefined when the rule's notice had gone already.
 */
async function invia(trx: Trx, riga: Riga, modello: Modello, how: { regola?: Regola; utente?: string }): Promise<number | undefined> {
  const titolo = how.regola ? how.regola.titolo : `${modello.titolo} (inviato a mano)`;
  const inserted = await sql<{ id: string }>`INSERT INTO scadenziario_avviso (riga_id, regola, modello, titolo, data_riferimento, destinatario, manuale, utente_nome)
    VALUES (${riga.id}, ${how.regola?.nome ?? null}, ${modello.nome}, ${titolo}, ${riga.data_scadenza}, ${riga.email}, ${!how.regola}, ${how.utente ?? null})
    ON CONFLICT (regola, riga_id, data_riferimento) WHERE regola IS NOT NULL DO NOTHING RETURNING id`.execute(trx);
  const id = inserted.rows[0]?.id;
  if (id === undefined) return undefined;
  const risorsa = RISORSA[riga.tipo]!;
  const { oggetto, corpo } = compila(modello, riga);
  const outbox = await enqueueEmail(trx, { to: riga.email!, subject: oggetto, body: corpo, resource: risorsa, recordId: riga.record_id, event: `avviso:${modello.nome}` });
  await sql`UPDATE scadenziario_avviso SET email_outbox_id = ${outbox} WHERE id = ${id}`.execute(trx);
  await registraEvento(trx, risorsa, riga.record_id, `Avviso inviato: ${titolo}`, { avviso: [null, `${titolo} a ${riga.email!}: ${oggetto}`] }, 'transizione');
  return outbox;
}

const romeDate = (now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(now);

/**
 * The daily job: for each enabled rule, the rows whose send day (the row's date + giorni) is today or up to `recupero`
 * days past (a missed run catches up), not renewed or lost, not sent yet, and after the rule it requires. An instalment
 * paid leaves the calendar, so its reminders stop by themselves. Customers without an e-mail are named in the outcome.
 */
export async function inviaAvvisiDovuti({ trx, now }: Pick<JobContext, 'trx' | 'now'>, avvisi: Avvisi = AVVISI): Promise<string> {
  const oggi = romeDate(now);
  const modelli = new Map(avvisi.modelli.map((m) => [m.nome, m]));
  let inviati = 0;
  const senzaEmail: string[] = [];
  for (const regola of avvisi.regole.filter((r) => r.attiva)) {
    const righe = await sql<Riga>`${ROW_SQL}
      WHERE s.tipo = ANY(${regola.tipi}) AND s.stato_rinnovo NOT IN ('RINNOVATO', 'PERSO')
        AND s.data_scadenza + ${regola.giorni}::int <= ${oggi}::date AND s.data_scadenza + ${regola.giorni + regola.recupero}::int > ${oggi}::date
        AND NOT EXISTS (SELECT 1 FROM scadenziario_avviso a WHERE a.regola = ${regola.nome} AND a.riga_id = s.id AND a.data_riferimento = s.data_scadenza)
        AND (${regola.richiede ?? null}::text IS NULL OR EXISTS (SELECT 1 FROM scadenziario_avviso a
              WHERE a.regola = ${regola.richiede ?? null} AND a.riga_id = s.id AND a.data_riferimento = s.data_scadenza))
      ORDER BY s.data_scadenza, s.id`.execute(trx);
    for (const riga of righe.rows) {
      if (!riga.email) {
        senzaEmail.push(`${riga.contraente ?? 'cliente senza nome'} (${riga.riferimento ?? riga.id}, ${regola.titolo})`);
        continue;
      }
      if (await invia(trx, riga, modelli.get(regola.modello)!, { regola }) !== undefined) inviati++;
    }
  }
  const esito = inviati === 1 ? '1 avviso inviato.' : `${inviati} avvisi inviati.`;
  return senzaEmail.length ? `${esito} Senza e-mail, da avvisare a mano: ${senzaEmail.join('; ')}.` : esito;
}

const MESSAGE = { type: 'object', properties: { message: { type: 'string' }, data: { type: 'object', additionalProperties: true } } };

export function registerAvvisi(app: FastifyInstance): void {
  app.extensions.job('avvisi_scadenze', (context) => inviaAvvisiDovuti(context));
  app.extensions.routes('scadenziario_avvisi', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('scadenziario')!;
    const righe = new ResourceRepository(def, app.ctx);
    // 'Rinnovo perso' writes the policy of the row's kind, with that resource's own permission, scope and history.
    const perso: Record<string, { def: ResourceDefinition; repo: ResourceRepository }> = Object.fromEntries(
      [['POLIZZA', 'polizza'], ['POLIZZA_AUTO_STORICA', 'polizza_auto_storica']].map(([tipo, nome]) => {
        const resource = app.ctx.definitions.resources.get(nome!)!;
        return [tipo, { def: resource, repo: new ResourceRepository(resource, app.ctx) }];
      }),
    );
    const base = def.resource.api.path;
    const tags = ['scadenziario'];
    const modelloNames = AVVISI.modelli.map((m) => m.nome);

    /** The row in the user's scope (another collaborator's answers 404, as its record does), read for the notice. */
    const rigaInScope = async (user: AuthUser, raw: unknown): Promise<Riga> => {
      const id = parsePathId(raw, () => notFoundFor(def));
      await righe.get(app.ctx.db, user, id);
      const riga = await rigaById(app.ctx.db, id);
      if (!riga) throw notFoundFor(def);
      return riga;
    };
    const modelloOf = (nome: string): Modello => {
      const modello = AVVISI.modelli.find((m) => m.nome === nome);
      if (!modello) throw new HttpError(404, 'Modello di avviso non trovato.');
      return modello;
    };

    app.get(`${base}/avvisi/modelli`, {
      preHandler: requirePermission(def.resource.permissions.list),
      schema: { tags, summary: 'I modelli e le regole degli avvisi', response: { 200: { type: 'object', properties: { data: { type: 'object', additionalProperties: true } } }, ...errorResponses(401, 403) } },
    }, async () => ({ data: { modelli: AVVISI.modelli, regole: AVVISI.regole, segnaposti: SEGNAPOSTI } }));

    app.get(`${base}/:id/avvisi/:modello`, {
      preHandler: requirePermission(def.resource.permissions.read),
      schema: {
        tags, summary: "Anteprima di un modello d'avviso sulla riga",
        params: { type: 'object', required: ['id', 'modello'], properties: { ...ID_PARAMS.properties, modello: { type: 'string', maxLength: 64 } } },
        response: { 200: { type: 'object', properties: { data: { type: 'object', properties: { destinatario: { type: ['string', 'null'] }, oggetto: { type: 'string' }, corpo: { type: 'string' } } } } }, ...errorResponses(401, 403, 404) },
      },
    }, async (request) => {
      const params = request.params as { id: string; modello: string };
      const riga = await rigaInScope(request.user, params.id);
      return { data: { destinatario: riga.email, ...compila(modelloOf(params.modello), riga) } };
    });

    app.post(`${base}/:id/avvisi`, {
      preHandler: requirePermission(def.resource.permissions.update),
      schema: {
        tags, summary: 'Invia un avviso a mano dalla riga', params: ID_PARAMS,
        body: { type: 'object', required: ['modello'], additionalProperties: false, properties: { modello: { type: 'string', enum: modelloNames } } },
        response: { 200: MESSAGE, ...errorResponses(401, 403, 404, 409, 422) },
      },
    }, async (request) => {
      const riga = await rigaInScope(request.user, (request.params as { id: string }).id);
      const modello = modelloOf((request.body as { modello: string }).modello);
      if (!riga.email) throw new HttpError(409, `${riga.contraente ?? 'Il cliente'} non ha un indirizzo e-mail: aggiungilo nella sua anagrafica, o avvisalo in altro modo.`);
      const outbox = await app.ctx.db.transaction().execute((trx) => invia(trx, riga, modello, { utente: request.user.name }));
      return { message: `Avviso "${modello.titolo}" messo in coda per ${riga.email}.`, data: { email_outbox_id: outbox } };
    });

    app.post(`${base}/:id/rinnovo-perso`, {
      schema: {
        tags, summary: 'Rinnovo perso, con il motivo', params: ID_PARAMS,
        body: { type: 'object', required: ['motivo'], additionalProperties: false, properties: { motivo: { type: 'string', minLength: 3, maxLength: 500 }, version: { type: 'integer', minimum: 0, maximum: 2147483647 } } },
        response: { 200: MESSAGE, ...errorResponses(401, 403, 404, 409, 422, 428) },
      },
    }, async (request) => {
      const riga = await rigaInScope(request.user, (request.params as { id: string }).id);
      const { motivo, version } = request.body as { motivo: string; version?: number };
      const target = perso[riga.tipo];
      if (!target) throw new HttpError(409, 'Il rinnovo perso si indica sulle polizze.');
      if (!hasPermission(target.def.resource.permissions.update, request.user)) throw forbidden();
      if (riga.stato_rinnovo === 'RINNOVATO') throw new HttpError(409, 'La polizza è già rinnovata.');
      const testo = motivo.trim();
      if (testo.length < 3) throw new HttpError(422, 'Indica il motivo.', { motivo: ['Indica il motivo.'] });
      // The policy's own write path: scope, version check, validation and its history entry (the motivo's change).
      const model = await target.repo.updateOwned(app.ctx.db, request.user, riga.record_id, { rinnovo_perso_motivo: testo }, { version });
      return { message: `Rinnovo della polizza ${riga.riferimento ?? ''} segnato come perso.`.replace('  ', ' '), data: { model } };
    });
  });
}

// The history's routes: a record's timeline and its restore under every resource's path, the desk over all entries,
// its export and the chain's verification.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ExcelJS from 'exceljs';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';
import { hasPermission } from '../../shared/permissions.ts';
import type { ResourceRepository } from '../resources/repository.ts';
import { requirePermission } from '../auth/guards.ts';
import { errorResponses } from '../http/openapi.ts';
import { HttpError, notFoundFor } from '../errors.ts';
import { AZIONI, Storico, checkDate, type Filtri, type Voce } from './servizio.ts';
import { conMarca } from './contesto.ts';

export const SHOW_STORICO = 'show_storico';

const PAGE_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000 }, per_page: { type: 'integer', minimum: 1, maximum: 200 },
    // The client's GETs carry a timestamp so no cache answers them (spec 000 §7).
    _t: { type: 'string', maxLength: 20 },
  },
};
const ID = { type: 'string', pattern: '^[1-9][0-9]{0,9}$', description: 'id numerico' };
const MODIFICA = {
  type: 'object', properties: { campo: { type: 'string' }, da: {}, a: {}, nascosto: { type: 'boolean' } }, required: ['campo'],
};
const VOCE = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, at: { type: 'string', format: 'date-time' }, risorsa: { type: 'string' }, record_id: { type: ['integer', 'null'] },
    utente: { type: ['object', 'null'], properties: { id: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] } } },
    origine: { type: 'string', enum: ['utente', 'cliente', 'sistema'] }, indirizzo: { type: ['string', 'null'] }, richiesta: { type: ['string', 'null'] },
    azione: { type: 'string', enum: AZIONI }, evento: { type: ['string', 'null'] }, modifiche: { type: 'array', items: MODIFICA },
    utente_nome: { type: ['string', 'null'], description: "l'autore (solo nel banco)" },
  },
};
const PAGINA = {
  type: 'object',
  properties: {
    data: { type: 'array', items: VOCE }, current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' },
    total: { type: 'integer' }, total_is_estimate: { type: 'boolean' },
  },
};
const DESK_FILTERS = {
  utente_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  risorsa: { type: 'string', maxLength: 100 },
  record_id: { type: 'integer', minimum: 1, maximum: 9_007_199_254_740_991 },
  campo: { type: 'string', maxLength: 100 },
  azione: { type: 'string', enum: AZIONI },
  dal: { type: 'string', maxLength: 10, description: 'AAAA-MM-GG' },
  al: { type: 'string', maxLength: 10, description: 'AAAA-MM-GG' },
};

/**
 * The same filters as the generic list sends them (filter[risorsa]=…), so the 'Storico' desk is drawn by the list
 * renderer; newest first is the only order.
 */
const LIST_FILTERS = Object.fromEntries(Object.entries(DESK_FILTERS).map(([name, schema]) => [`filter[${name}]`, schema]));
const LIST_EXTRAS = {
  sort: { type: 'string', enum: ['-id', '-at'] },
  columns: { type: 'string', maxLength: 2000, description: 'campi delle colonne, separati da virgola (ignorati: le colonne dello storico sono fisse)' },
};

function paging(query: { page?: number; per_page?: number }) {
  return { page: query.page ?? 1, perPage: query.per_page ?? 20 };
}

/** A record's timeline and restore, on the resource's path (called for every resource that is not a view). */
export function registerRecordHistory(scoped: FastifyInstance, def: ResourceDefinition, repo: ResourceRepository, storico: () => Storico) {
  if (def.resource.view || def.resource.storico === false) return;
  const base = def.resource.api.path;
  const tags = [def.name];
  const read = requirePermission(def.resource.permissions.read);
  scoped.get(`${base}/:id/storico`, {
    preHandler: read,
    schema: {
      tags, summary: `Storico delle modifiche (${def.resource.singular ?? def.resource.title})`, params: { type: 'object', required: ['id'], properties: { id: ID } },
      querystring: PAGE_QUERY, response: { 200: PAGINA, ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    // The record's row scope: out of scope reads as missing. A deleted record's timeline is for the desk.
    await repo.get(scoped.ctx.db, request.user, id);
    const { page, perPage } = paging(request.query as { page?: number; per_page?: number });
    return storico().ofRecord(def, request.user, id, page, perPage);
  });
  scoped.post(`${base}/:id/storico/:entryId/ripristina`, {
    preHandler: requirePermission(def.resource.permissions.update),
    schema: {
      tags, summary: 'Ripristina i valori precedenti a una modifica',
      params: { type: 'object', required: ['id', 'entryId'], properties: { id: ID, entryId: ID } },
      body: { type: ['object', 'null'], properties: { version: { type: 'integer', minimum: 0, maximum: 2_147_483_647 } } },
      response: { 200: { type: 'object', properties: { message: { type: 'string' }, data: { type: 'object', properties: { model: { $ref: `${def.name}#` } } } } }, ...errorResponses(401, 403, 404, 409, 422, 428) },
    },
  }, async (request) => {
    const { id, entryId } = request.params as { id: string; entryId: string };
    const entry = await storico().entry(Number(entryId));
    if (!entry || entry.risorsa !== def.name || Number(entry.record_id) !== Number(id)) throw new HttpError(404, 'Voce dello storico non trovata.');
    // Bringing back a deleted record is the desk's: its holder sees every entry, the record's scope is checked on insert.
    if (entry.azione === 'eliminazione') {
      if (!hasPermission(SHOW_STORICO, request.user) || !hasPermission(def.resource.permissions.create, request.user)) throw new HttpError(403, 'Non hai i permessi per eseguire questa operazione.');
    } else {
      await repo.get(scoped.ctx.db, request.user, Number(id)).catch(() => {
        throw notFoundFor(def);
      });
    }
    const version = (request.body as { version?: number } | null)?.version;
    const { model } = await conMarca({ azione: 'ripristino' }, () => storico().restore(def, repo, request.user, Number(id), Number(entryId), version));
    return { message: 'Valori ripristinati.', data: { model } };
  });
}

function desk(request: FastifyRequest): Filtri {
  const raw = request.query as Record<string, unknown>;
  const q = { ...raw, ...Object.fromEntries(Object.keys(DESK_FILTERS).filter((k) => raw[`filter[${k}]`] !== undefined).map((k) => [k, raw[`filter[${k}]`]])) };
  return {
    utente_id: q.utente_id as number | undefined, risorsa: q.risorsa as string | undefined, record_id: q.record_id as number | undefined,
    campo: q.campo as string | undefined, azione: q.azione as string | undefined, dal: checkDate(q.dal, 'dal'), al: checkDate(q.al, 'al'),
  };
}

const COLONNE: Array<[string, (v: Voce) => string]> = [
  ['Data', (v) => v.at],
  ['Utente', (v) => v.utente?.name ?? (v.origine === 'sistema' ? 'sistema' : '')],
  ['Origine', (v) => v.origine],
  ['Risorsa', (v) => v.risorsa],
  ['Record', (v) => (v.record_id === null ? '' : String(v.record_id))],
  ['Azione', (v) => v.azione],
  ['Evento', (v) => v.evento ?? ''],
  ['Modifiche', (v) => v.modifiche.map((m) => (m.nascosto ? `${m.campo}: modificato` : `${m.campo}: ${JSON.stringify(m.da)} → ${JSON.stringify(m.a)}`)).join('; ')],
  ['Indirizzo', (v) => v.indirizzo ?? ''],
];

async function esporta(reply: FastifyReply, storico: Storico, request: FastifyRequest, format: 'csv' | 'xlsx') {
  const filters = desk(request);
  const rows: Voce[] = [];
  // At most 100 000 entries in one file; narrow the filters for more.
  for (let page = 1; page <= 500; page++) {
    const chunk = await storico.all(request.user, filters, page, 200);
    rows.push(...chunk.data);
    if (chunk.data.length < 200) break;
  }
  const name = `storico.${format}`;
  reply.header('content-disposition', `attachment; filename="${name}"`);
  if (format === 'csv') {
    const cell = (s: string) => (/[";\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    reply.type('text/csv; charset=utf-8');
    return '\uFEFF' + [COLONNE.map(([h]) => h).join(';'), ...rows.map((v) => COLONNE.map(([, f]) => cell(f(v))).join(';'))].join('\r\n') + '\r\n';
  }
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Storico');
  sheet.addRow(COLONNE.map(([h]) => h));
  for (const v of rows) sheet.addRow(COLONNE.map(([, f]) => f(v)));
  reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The desk over every entry (show_storico), its export and the chain's verification. */
export function registerHistoryDesk(scoped: FastifyInstance, storico: () => Storico) {
  const guard = requirePermission(SHOW_STORICO);
  const tags = ['storico'];
  scoped.get('/api/storico', {
    preHandler: guard,
    schema: {
      tags, summary: 'Storico di tutte le modifiche',
      querystring: { type: 'object', additionalProperties: false, properties: { ...PAGE_QUERY.properties, ...DESK_FILTERS, ...LIST_FILTERS, sort: LIST_EXTRAS.sort } },
      response: { 200: PAGINA, ...errorResponses(401, 403, 422) },
    },
  }, async (request) => {
    const { page, perPage } = paging(request.query as { page?: number; per_page?: number });
    const answer = await storico().all(request.user, desk(request), page, perPage);
    // The desk's list shows the author as a column of its own: the customer's link and the server's work by their kind.
    return { ...answer, data: answer.data.map((v) => ({ ...v, utente_nome: v.utente?.name ?? (v.origine === 'cliente' ? 'Cliente' : 'Sistema') })) };
  });
  scoped.get('/api/storico/export', {
    preHandler: guard,
    schema: {
      tags, summary: 'Esporta lo storico (CSV o XLSX, i filtri del banco)',
      querystring: {
        type: 'object', additionalProperties: false, required: ['format'],
        properties: { ...DESK_FILTERS, ...LIST_FILTERS, ...LIST_EXTRAS, _t: PAGE_QUERY.properties._t, format: { type: 'string', enum: ['csv', 'xlsx'] } },
      },
      response: { 200: { type: 'string', format: 'binary' }, ...errorResponses(401, 403, 422) },
    },
  }, async (request, reply) => esporta(reply, storico(), request, (request.query as { format: 'csv' | 'xlsx' }).format));
  scoped.get('/api/storico/verifica', {
    preHandler: guard,
    schema: {
      tags, summary: "Verifica l'integrità della catena dello storico",
      response: { 200: { type: 'object', properties: { ok: { type: 'boolean' }, voci: { type: 'integer' }, prima_voce_alterata: { type: 'object', additionalProperties: true } } }, ...errorResponses(401, 403) },
    },
  }, async () => storico().verify());
}

// The dashboard's two documents desks (issue 18): /api/track_gestione_documenti (required documents per record, with
// the workflow's confirm and revision events offered) and /api/gestione_documenti (every file the user may see).
// Both answer the generic list shape (data, current_page, last_page, per_page, total) with the row scope of the owners,
// and export it (<path>/export?format=csv|xlsx) through the lists' export writer, with the screen's columns (desks.json).
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { invalid } from '../../errors.ts';
import { errorResponses } from '../../http/openapi.ts';
import { collectionsOf, downloadPattern, presentMedia } from '../../media/routes.ts';
import { fillTitle, STATI_DOCUMENTI, trackedResources, trackedRows, visibleOwners, type TrackedResource } from '../../media/track.ts';
import type { MediaRecord } from '../../media/store.ts';
import { exportColumns, schemaSources, sendExport, type ExportFormat } from '../../resources/export.ts';
import desks from '../../../shared/documenti/desks.json' with { type: 'json' };
import type { JsonSchema, ListColumn, ResourceDefinition } from '../../../shared/definitions/types.ts';
import type { Workflow } from '../../../shared/workflow/machine.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Database } from '../../db/connection.ts';
import { isCalendarDate } from '../../../shared/dates.ts';

const MAX_PER_PAGE = 500;
const EXPORT_BATCH = 500;

const listQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    // -1: every row (what an export reads).
    per_page: { type: 'integer', minimum: -1, maximum: MAX_PER_PAGE, not: { const: 0 } },
    sort: { type: 'string', maxLength: 100 },
    search: { type: 'string', maxLength: 200 },
  },
  // filter[field] and filter[field][from|to] keys, checked by the handler.
  additionalProperties: { type: 'string', maxLength: 200 },
} as const;

/** The export of a desk: the list's query (no page), the format and the columns shown. */
const exportQuery = {
  ...listQuery,
  required: ['format'],
  properties: {
    ...listQuery.properties,
    format: { type: 'string', enum: ['csv', 'xlsx'] },
    columns: { type: 'string', maxLength: 2000, description: 'campi delle colonne, separati da virgola' },
  },
} as const;

const fileResponse = {
  200: { description: 'Il file, trasmesso man mano (X-Total-Count: le righe)', type: 'string', format: 'binary' },
  ...errorResponses(401, 403, 422),
};

const page = (row: Record<string, unknown>) => ({
  200: {
    type: 'object',
    required: ['data', 'current_page', 'last_page', 'per_page', 'total'],
    properties: {
      data: { type: 'array', items: { type: 'object', properties: row, additionalProperties: true } },
      current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' },
    },
  },
  ...errorResponses(401, 403, 422),
});

const str = { type: 'string' };
const int = { type: 'integer' };
const nullableStr = { type: ['string', 'null'] };

interface ListInput {
  page: number;
  perPage: number;
  sort: { field: string; desc: boolean };
  search: string;
  filters: Record<string, string>;
}

/** page, per_page, sort (one key, '-' for descending, among `sortable`) and filter[...] (among `filterable`). */
function readList(query: Record<string, unknown>, sortable: string[], defaultSort: string, filterable: string[]): ListInput {
  const sortText = typeof query.sort === 'string' && query.sort ? query.sort : defaultSort;
  const field = sortText.replace(/^-/, '');
  if (!sortable.includes(field)) throw invalid({ sort: [`Ordinamento non consentito: ${sortable.join(', ')}.`] });
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    const match = /^filter\[([a-z_]+)\](?:\[(from|to)\])?$/.exec(key);
    if (!match) continue;
    if (!filterable.includes(match[1]!)) throw invalid({ [`filter.${match[1]}`]: ['Filtro non consentito.'] });
    if (typeof value === 'string' && value !== '') filters[match[2] ? `${match[1]}.${match[2]}` : match[1]!] = value;
  }
  return {
    page: Number(query.page ?? 1),
    perPage: Number(query.per_page ?? 15),
    sort: { field, desc: sortText.startsWith('-') },
    search: typeof query.search === 'string' ? query.search.trim().toLowerCase() : '',
    filters,
  };
}

/** LIMIT/OFFSET of a page; per_page -1 reads every row. */
function pageWindow(input: ListInput) {
  return input.perPage === -1 ? sql`` : sql`LIMIT ${input.perPage} OFFSET ${(input.page - 1) * input.perPage}`;
}

function pageOf<T>(data: T[], input: ListInput, total: number) {
  const perPage = input.perPage === -1 ? Math.max(total, 1) : input.perPage;
  return { data, current_page: input.page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: input.perPage, total };
}

/** The owner's screen: its edit route with the id (the client opens it from the desk's row). */
function linkOf(def: ResourceDefinition | undefined, id: number, suffix = ''): string | null {
  const path = def?.resource.routes?.edit?.path;
  return path ? `${path.replace(':id', String(id))}${suffix}` : null;
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function dateFilter(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) throw invalid({ [`filter.${field}`]: ['Data non valida (AAAA-MM-GG).'] });
  return value;
}

/** Owners' records by resource, for their titles and the guards of their events. */
async function ownersOf(db: Database, defs: Map<string, ResourceDefinition>, pairs: Array<{ owner_resource: string; owner_id: number }>) {
  const byResource = new Map<string, number[]>();
  for (const p of pairs) byResource.set(p.owner_resource, [...(byResource.get(p.owner_resource) ?? []), Number(p.owner_id)]);
  const records = new Map<string, Record<string, unknown>>();
  for (const [name, ids] of byResource) {
    if (!defs.has(name)) continue;
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)} WHERE id = ANY(${ids}::int[])`.execute(db);
    for (const row of rows.rows) records.set(`${name}:${String(row.id)}`, row);
  }
  return records;
}

function titleOf(def: ResourceDefinition | undefined, record: Record<string, unknown> | undefined, id: number): string {
  const text = def?.resource.recordTitle && record ? fillTitle(def.resource.recordTitle, record) : '';
  return text || `${def?.resource.singular ?? def?.resource.title ?? ''} ${id}`.trim();
}

/** The document state of each required collection of one record. */
function documentsOf(t: TrackedResource, record: Record<string, unknown> | undefined, files: Array<{ collection_name: string; item_id: string | null; esito: string | null }>) {
  const verdict = (list: typeof files) => {
    if (!list.length) return 'mancante';
    if (list.some((f) => f.esito === 'da_rivedere')) return 'da rivedere';
    if (list.every((f) => f.esito === 'confermato')) return 'confermato';
    return 'caricato';
  };
  const own = t.own.map(([name, c]) => {
    const list = files.filter((f) => f.collection_name === name && f.item_id === null);
    return { collection: name, title: c.title, stato: verdict(list), n: list.length };
  });
  const items = t.items.map((i) => {
    const rows = Array.isArray(record?.[i.field]) ? (record![i.field] as Array<{ id?: string }>) : [];
    const list = files.filter((f) => f.collection_name === i.name && f.item_id !== null);
    const without = rows.filter((r) => !list.some((f) => f.item_id === r.id)).length;
    return { collection: i.name, title: i.collection.title, stato: without ? 'mancante' : verdict(list), n: list.length, mancano: without };
  });
  return [...own, ...items];
}

function eventsOf(workflow: Workflow | undefined, def: ResourceDefinition, user: AuthUser, record: Record<string, unknown> | undefined) {
  const events = def.resource.media?.events;
  if (!workflow || !record || !events) return [];
  const wanted = [events.confirm, events.revise].filter((e): e is string => Boolean(e));
  const status = Number(record[workflow.statusField]);
  return workflow.available(status, user, record)
    .filter((e) => wanted.includes(e.type) && e.meta.route)
    .map((e) => ({ type: e.type, label: e.meta.label, route: e.meta.route!, confirm: e.meta.confirm ?? null, note: e.meta.note ?? null, noteField: e.meta.noteField ?? 'nota' }));
}

type Page<T> = { data: T[]; total: number };

function register(app: FastifyInstance): void {
  app.extensions.routes('gestione_documenti', async (app: FastifyInstance) => {
  const db = app.ctx.db;
  const defs = app.ctx.definitions.resources;
  const tracked = trackedResources(defs.values(), app.ctx.workflows as Map<string, Workflow>);
  const trackedBy = new Map(tracked.map((t) => [t.def.name, t]));

  const readTrack = (query: Record<string, unknown>) =>
    readList(query, ['updated_at', 'owner_id', 'caricati'], '-updated_at', ['mancante', 'stato_documenti', 'owner_resource']);

  /** One page of the tracking desk (every row with per_page -1). */
  async function trackPage(db: Database, user: AuthUser, input: ListInput): Promise<Page<Record<string, unknown>>> {
    const rows = await trackedRows(db, user, tracked);
    if (!rows) return { data: [], total: 0 };
    const where: Expression<SqlBool>[] = [sql<SqlBool>`true`];
    const { mancante, stato_documenti: stato, owner_resource: owner } = input.filters;
    // "What is missing": one collection, or any ('*'): both mean still missing, so signed records are out.
    if (mancante) where.push(mancante === '*' ? sql<SqlBool>`cardinality(r.mancanti) > 0 AND NOT r.firmato` : sql<SqlBool>`${mancante} = ANY(r.mancanti) AND NOT r.firmato`);
    if (stato) {
      if (!(STATI_DOCUMENTI as readonly string[]).includes(stato)) throw invalid({ 'filter.stato_documenti': [`Valori ammessi: ${STATI_DOCUMENTI.join(', ')}.`] });
      where.push(sql<SqlBool>`r.stato_documenti = ${stato}`);
    }
    if (owner) where.push(sql<SqlBool>`r.owner_resource = ${owner}`);
    if (input.search) where.push(sql<SqlBool>`r.testo LIKE ${like(input.search)}`);
    const order = sql`${sql.ref(`r.${input.sort.field}`)} ${input.sort.desc ? sql`DESC` : sql`ASC`}, r.owner_resource, r.owner_id DESC`;
    const found = await sql<{ owner_resource: string; owner_id: number; stato_id: number | null; updated_at: string; mancanti: string[]; caricati: number; da_rivedere: number; confermati: number; firmato: boolean; stato_documenti: string; total: number }>`
      SELECT r.*, count(*) OVER ()::int AS total FROM (${rows}) r WHERE ${sql.join(where, sql` AND `)}
      ORDER BY ${order} ${pageWindow(input)}`.execute(db);
    const total = found.rows[0]?.total ?? (input.page > 1 ? (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${rows}) r WHERE ${sql.join(where, sql` AND `)}`.execute(db)).rows[0]!.n : 0);
    const records = await ownersOf(db, defs, found.rows);
    const files = found.rows.length
      ? (await sql<{ owner_resource: string; owner_id: number; collection_name: string; item_id: string | null; esito: string | null }>`
          SELECT m.owner_resource, m.owner_id, m.collection_name, m.item_id, m.meta->'verifica'->>'esito' AS esito FROM media m
          WHERE (m.owner_resource, m.owner_id) IN (${sql.join(found.rows.map((r) => sql`(${r.owner_resource}, ${r.owner_id})`))})`.execute(db)).rows
      : [];
    const data = found.rows.map((r) => {
      const t = trackedBy.get(r.owner_resource)!;
      const record = records.get(`${r.owner_resource}:${r.owner_id}`);
      const mine = files.filter((f) => f.owner_resource === r.owner_resource && Number(f.owner_id) === Number(r.owner_id));
      const titles = new Map([...t.own.map(([n, c]) => [n, c.title] as const), ...t.items.map((i) => [i.name, i.collection.title] as const)]);
      return {
        id: `${r.owner_resource}-${r.owner_id}`,
        owner_resource: r.owner_resource,
        owner_title: t.def.resource.singular ?? t.def.resource.title,
        owner_id: Number(r.owner_id),
        riferimento: titleOf(t.def, record, Number(r.owner_id)),
        stato: t.workflow && r.stato_id !== null ? t.workflow.status(Number(r.stato_id)).nome : null,
        stato_documenti: r.stato_documenti,
        mancanti: r.mancanti.map((c) => titles.get(c) ?? c),
        caricati: r.caricati, da_rivedere: r.da_rivedere, confermati: r.confermati, firmato: r.firmato,
        documenti: documentsOf(t, record, mine),
        azioni: eventsOf(t.workflow, t.def, user, record),
        updated_at: new Date(r.updated_at).toISOString(),
        link: linkOf(t.def, Number(r.owner_id), '?tab=documenti'),
      };
    });
    return { data, total };
  }

  const readArchive = (query: Record<string, unknown>) =>
    readList(query, ['created_at', 'name', 'size', 'owner_id', 'collection_name', 'owner_resource'], '-created_at', ['owner_resource', 'collection_name', 'owner_id', 'created_at']);

  /** One page of the archive (every row with per_page -1). */
  async function archivePage(db: Database, user: AuthUser, input: ListInput): Promise<Page<Record<string, unknown>>> {
    const owners = await visibleOwners(db, user, defs.values());
    if (!owners) return { data: [], total: 0 };
    const where: Expression<SqlBool>[] = [owners];
    const f = input.filters;
    if (f.owner_resource) where.push(sql<SqlBool>`m.owner_resource = ${f.owner_resource}`);
    if (f.collection_name) where.push(sql<SqlBool>`m.collection_name = ${f.collection_name}`);
    if (f.owner_id) {
      if (!/^\d{1,9}$/.test(f.owner_id)) throw invalid({ 'filter.owner_id': ['Identificativo non valido.'] });
      where.push(sql<SqlBool>`m.owner_id = ${Number(f.owner_id)}`);
    }
    const from = dateFilter(f['created_at.from'] ?? f.created_at, 'created_at');
    const to = dateFilter(f['created_at.to'] ?? f.created_at, 'created_at');
    // Days of the brokerage (Europe/Rome), whole days inclusive.
    if (from) where.push(sql<SqlBool>`(m.created_at AT TIME ZONE 'Europe/Rome')::date >= ${from}::date`);
    if (to) where.push(sql<SqlBool>`(m.created_at AT TIME ZONE 'Europe/Rome')::date <= ${to}::date`);
    if (input.search) where.push(sql<SqlBool>`lower(m.name || ' ' || m.file_name) LIKE ${like(input.search)}`);
    const order = sql`${sql.ref(`m.${input.sort.field}`)} ${input.sort.desc ? sql`DESC` : sql`ASC`}, m.id DESC`;
    const found = await sql<MediaRecord & { total: number }>`
      SELECT m.id, m.owner_resource, m.owner_id, m.item_model, m.item_id, m.collection_name, m.name, m.file_name, m.mime_type, m.size, m.sha256,
        m.meta, m.created_by_name, m.created_at, count(*) OVER ()::int AS total
      FROM media m WHERE ${sql.join(where, sql` AND `)} ORDER BY ${order} ${pageWindow(input)}`.execute(db);
    const records = await ownersOf(db, defs, found.rows);
    const data = found.rows.map((m) => {
      const def = defs.get(m.owner_resource)!;
      const media = presentMedia(downloadPattern(def), m);
      return {
        ...media,
        owner_resource: m.owner_resource,
        owner_title: def.resource.singular ?? def.resource.title,
        owner_id: Number(m.owner_id),
        riferimento: titleOf(def, records.get(`${m.owner_resource}:${m.owner_id}`), Number(m.owner_id)),
        collection: collectionsOf(def.resource.media!).get(m.collection_name)?.title ?? m.collection_name,
        created_at: new Date(m.created_at).toISOString(),
        link: linkOf(def, Number(m.owner_id)),
      };
    });
    return { data, total: found.rows[0]?.total ?? 0 };
  }

  /**
   * A desk's list at /api/<name> (a page of rows, every row with per_page -1) and its export at /api/<name>/export: the
   * rows of the current filter read in pages of one read-only snapshot (the rows are built in TypeScript, so no cursor),
   * written by the lists' export writer with the desk's columns and labels.
   */
  function serveDesk(desk: {
    name: string; permission: string; summary: string; exportSummary: string; row: Record<string, unknown>;
    definition: { schema: unknown; list: unknown }; readInput: (q: Record<string, unknown>) => ListInput;
    pageOf: (db: Database, user: AuthUser, input: ListInput) => Promise<Page<Record<string, unknown>>>;
  }): void {
    const { name, readInput } = desk;
    const preHandler = requirePermission(desk.permission);
    app.get(`/api/${name}`, {
      preHandler, schema: { tags: ['documenti'], summary: desk.summary, querystring: listQuery, response: page(desk.row) },
    }, async (request, reply) => {
      const input = readInput(request.query as Record<string, unknown>);
      reply.header('cache-control', 'no-store');
      const { data, total } = await desk.pageOf(db, request.user, input);
      return pageOf(data, input, total);
    });
    app.get(`/api/${name}/export`, {
      preHandler, schema: { tags: ['documenti'], summary: desk.exportSummary, querystring: exportQuery, response: fileResponse },
    }, async (request: FastifyRequest, reply: FastifyReply) => {
      const raw = request.query as Record<string, unknown>;
      const columns = exportColumns((desk.definition.list as { columns: ListColumn[] }).columns, typeof raw.columns === 'string' ? raw.columns : undefined);
      const input = { ...readInput(raw), page: 1, perPage: EXPORT_BATCH };
      // The first page answers a bad filter with 422 before the file starts, and gives the total.
      const first = await desk.pageOf(db, request.user, input);
      // The sheet is named as the dashboard card that opens the desk.
      const title = app.ctx.definitions.dashboard.find((c) => c.route === `/${name}`)?.title ?? name;
      return sendExport(reply, raw.format as ExportFormat, {
        name, title, columns, sources: schemaSources(desk.definition.schema as JsonSchema, columns), total: first.total,
        read: (each) => db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(async (trx) => {
          for (let n = 1; ; n++) {
            const { data } = await desk.pageOf(trx, request.user, { ...input, page: n });
            if (!(await each(data)) || data.length < EXPORT_BATCH) break;
          }
        }),
      });
    });
  }

  serveDesk({
    name: 'track_gestione_documenti', permission: 'show_track_documenti', definition: desks.track, readInput: readTrack, pageOf: trackPage,
    summary: 'Documenti richiesti per quotazione e polizza: mancanti, caricati, da rivedere, confermati, firmati',
    exportSummary: 'Esporta i documenti richiesti (CSV o XLSX, i filtri dell\'elenco)',
    row: {
      id: str, owner_resource: str, owner_title: str, owner_id: int, riferimento: str, stato: nullableStr, stato_documenti: { enum: [...STATI_DOCUMENTI] },
      mancanti: { type: 'array', items: str }, caricati: int, da_rivedere: int, confermati: int, firmato: { type: 'boolean' },
      documenti: { type: 'array', items: { type: 'object' } }, azioni: { type: 'array', items: { type: 'object' } }, updated_at: str, link: nullableStr,
    },
  });

  serveDesk({
    name: 'gestione_documenti', permission: 'show_gestione_documenti', definition: desks.archivio, readInput: readArchive, pageOf: archivePage,
    summary: 'Ogni documento archiviato che l\'utente può vedere, per proprietario, categoria e data',
    exportSummary: 'Esporta i documenti archiviati (CSV o XLSX, i filtri dell\'elenco)',
    row: {
      id: int, owner_resource: str, owner_title: str, owner_id: int, riferimento: str, collection_name: str, collection: str,
      name: str, file_name: str, mime_type: str, size: int, created_at: str, created_by_name: nullableStr, url: str, link: nullableStr,
    },
  });
});
}

export default defineDomain('gestione_documenti', register);

// Generic CRUD routes for every resource declared under schemas/, on the paths its resource.json names.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { PermissionAction, ResourceDefinition } from '../../shared/definitions/types.ts';
import { invalid, notFoundFor } from '../errors.ts';
import { ResourceRepository, directedSort, type ListQuery } from '../resources/repository.ts';
import { streamAll } from '../resources/stream.ts';
import { exportColumns, streamExport } from '../resources/export.ts';
import { listFor } from '../../shared/definitions/read-masks.ts';
import { ENGINE_VALIDATED, errorResponses } from '../http/openapi.ts';
import { ID_PARAMS, parsePathId } from '../http/contract.ts';
import type { Workflow } from '../../shared/workflow/machine.ts';
import { registerAutocomplete } from '../resources/autocomplete.ts';
import { registerCerca } from '../resources/cerca.ts';
import { requirePermission } from '../auth/guards.ts';
import { registerHistoryDesk, registerRecordHistory } from '../storico/routes.ts';
import { Storico } from '../storico/servizio.ts';

const MAX_PER_PAGE = 500;

const FILTER_VALUE = { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 1000 } }] };
const LIST_QUERY = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    per_page: { type: 'integer', minimum: -1, maximum: MAX_PER_PAGE, description: '-1 = tutti' },
    sort: { type: 'string', maxLength: 300, description: 'campi separati da virgola, - per discendente' },
    search: { type: 'string', maxLength: 200 },
    cursor: { type: 'string', maxLength: 4000, description: 'next_cursor della pagina precedente: le righe dopo la sua ultima' },
    // The spec's client sends sort plus sortDesc (true/false, one per sort key; also as sortDesc[]).
    sortDesc: { anyOf: [{ type: 'string', maxLength: 300 }, { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 10 } }], description: 'true = discendente' },
    'sortDesc[]': { anyOf: [{ type: 'string', maxLength: 300 }, { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 10 } }] },
  },
  // filter[campo], filter[campo][from], filter[campo][to]
  patternProperties: { '^filter\\[': FILTER_VALUE },
};

/** The list query of a resource: the generic one plus the range filters its list.json declares (filter[pagato_dal]). */
export function listQuery(def: ResourceDefinition) {
  const bounds = (def.list.filters ?? []).filter((f) => f.property && f.bound);
  if (!bounds.length) return LIST_QUERY;
  const declared = Object.fromEntries(bounds.map((f) => [`filter[${f.field}]`, {
    ...FILTER_VALUE,
    description: `${f.headerName}: ${f.property} ${f.bound === 'from' ? '>=' : '<='} il valore${f.filter === 'date' ? ' (AAAA-MM-GG)' : ''}`,
  }]));
  return { ...LIST_QUERY, properties: { ...LIST_QUERY.properties, ...declared } };
}

function listResponse(name: string) {
  return {
    type: 'object',
    properties: { data: { type: 'array', items: { $ref: `${name}#` } }, current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' },
      total_is_estimate: { type: 'boolean', description: 'true: total è una stima per difetto (più di N), non un conteggio' },
      next_cursor: { type: ['string', 'null'], description: 'la pagina dopo questa (cursor=...); null sull\'ultima' },
    },
  };
}
const recordResponse = (name: string) => ({ type: 'object', properties: { data: { $ref: `${name}#` } } });
const WARNINGS = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } };
const writeResponse = (name: string) => ({
  type: 'object', properties: { message: { type: 'string' }, data: { type: 'object', properties: { model: { $ref: `${name}#` } } }, warnings: WARNINGS },
});
const IF_MATCH = { type: 'object', properties: { 'if-match': { type: 'string', maxLength: 40 } } };
const MESSAGE_RESPONSE = { type: 'object', properties: { message: { type: 'string' } } };

/** A record's id is a positive int32 in plain decimal: '01', '+1' or '1.0' name no record (they were read as 1). */
function parseId(raw: string, def: ResourceDefinition): number {
  return parsePathId(raw, () => notFoundFor(def));
}

export function parseListQuery(def: ResourceDefinition, query: Record<string, unknown>): ListQuery {
  const errors: Record<string, string[]> = {};
  const int = (name: string, fallback: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return raw;
    if (typeof raw !== 'string' || !/^-?\d{1,9}$/.test(raw)) {
      errors[name] = ['Deve essere un numero intero'];
      return fallback;
    }
    return Number(raw);
  };
  const page = int('page', 1);
  const perPage = int('per_page', def.list.perPage ?? 15);
  if (page < 1) errors.page = ['Il valore minimo è 1'];
  if (perPage !== -1 && (perPage < 1 || perPage > MAX_PER_PAGE)) errors.per_page = [`Deve essere tra 1 e ${MAX_PER_PAGE}, oppure -1 per tutti`];
  const sortRaw = typeof query.sort === 'string' && query.sort ? query.sort : def.list.defaultSort ?? '-id';
  const directed = directedSort(sortRaw.split(',').map((s) => s.trim()).filter(Boolean), query.sortDesc ?? query['sortDesc[]']);
  const sort = Array.isArray(directed) ? directed : [];
  if (!Array.isArray(directed)) Object.assign(errors, directed);
  const filters: ListQuery['filters'] = [];
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('filter[')) continue;
    const match = /^filter\[([A-Za-z_][A-Za-z0-9_]*)\](?:\[(from|to)\])?$/.exec(key);
    // A filter the engine cannot read must not silently answer every row; nor may it name an object's machinery.
    if (!match || ['__proto__', 'constructor', 'prototype'].includes(match[1]!)) {
      errors[key] = ['Filtro non consentito'];
      continue;
    }
    if (value === undefined || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      filters.push({ field: match[1]!, op: (match[2] as 'from' | 'to' | undefined) ?? 'eq', value: String(v) });
    }
  }
  // filter[search] is how the old front end sent the search box (spec 000 §7).
  const searchFilter = filters.findIndex((f) => f.field === 'search' && !def.fields.some((d) => d.name === 'search'));
  const search = typeof query.search === 'string' ? query.search : searchFilter >= 0 ? filters.splice(searchFilter, 1)[0]!.value : undefined;
  const cursor = typeof query.cursor === 'string' && query.cursor ? query.cursor : undefined;
  if (Object.keys(errors).length) throw invalid(errors);
  return { page, perPage, sort, search, filters, cursor };
}

/** The record version a write was based on: the body's `version` or the If-Match header. */
export function versionFrom(request: FastifyRequest): number | undefined {
  const body = request.body as { version?: unknown } | undefined;
  if (body && typeof body === 'object' && body.version !== undefined) {
    if (!Number.isInteger(body.version)) throw invalid({ version: ['Deve essere un numero intero'] });
    return body.version as number;
  }
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(String(request.headers['if-match'] ?? ''));
  return match ? Number(match[1]) : undefined;
}

function withWarnings(warnings: Record<string, string[]>) {
  return Object.keys(warnings).length ? { warnings } : {};
}

function etag(reply: FastifyReply, record: Record<string, unknown>) {
  reply.header('etag', `"${String(record.version)}"`);
}

/** Action routes of the spec (POST /api/quotazioni/conferma/{id}, ...) from the events that declare a route. */
function registerWorkflowRoutes(
  scoped: FastifyInstance, base: string, def: ResourceDefinition, repo: ResourceRepository, workflow: Workflow,
  allow: (action: PermissionAction) => preHandlerHookHandler,
) {
  const run = async (request: FastifyRequest, type: string, id: number, body: Record<string, unknown>) => {
    const meta = workflow.definition.meta.events[type]!;
    const note = body[meta.noteField ?? 'nota'] ?? body.nota;
    const stato = body[workflow.statusField] ?? body.stato;
    const model = await repo.transition(scoped.ctx.db, request.user, id, {
      type,
      nota: typeof note === 'string' ? note : undefined,
      stato: stato === undefined ? undefined : Number(stato),
    });
    const status = workflow.status(Number(model[workflow.statusField]));
    return { message: `${meta.label}: stato "${status.nome}".`, data: { model } };
  };
  const tags = [def.name];
  const actionResponse = { 200: writeResponse(def.name), ...errorResponses(401, 403, 404, 409, 422) };
  for (const [type, meta] of Object.entries(workflow.definition.meta.events)) {
    if (!meta.route) continue;
    const noteField = meta.noteField ?? 'nota';
    const body = {
      type: 'object',
      properties: {
        [noteField]: { type: 'string', maxLength: 5000 }, nota: { type: 'string', maxLength: 5000 },
        [workflow.statusField]: { anyOf: [{ type: 'integer', minimum: 0, maximum: 1000 }, { type: 'string', pattern: '^[0-9]{1,4}$' }] },
        stato: { anyOf: [{ type: 'integer', minimum: 0, maximum: 1000 }, { type: 'string', pattern: '^[0-9]{1,4}$' }] },
      },
    };
    // The spec's second spellings of an event's route (meta.paths) are served once, beside the primary path.
    for (const path of [`${base}/${meta.route}`, ...(base === def.resource.api.path ? meta.paths ?? [] : [])]) {
      scoped.post(`${path}/:id`, {
        preHandler: allow('read'), schema: { tags, summary: meta.label, params: ID_PARAMS, body, response: actionResponse },
      }, async (request) =>
        run(request, type, parseId((request.params as { id: string }).id, def), (request.body ?? {}) as Record<string, unknown>));
    }
    if (meta.kind === 'manual') {
      // The spec's form: POST /api/quotazioni/cambioStato with id and stato_quotazione_id in the body.
      const withId = { ...body, required: ['id'], properties: { ...body.properties, id: { anyOf: [{ type: 'integer', minimum: 1, maximum: 999_999_999 }, { type: 'string', pattern: '^[0-9]{1,9}$' }] } } };
      scoped.post(`${base}/${meta.route}`, { preHandler: allow('read'), schema: { tags, summary: meta.label, body: withId, response: actionResponse } }, async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        return run(request, type, parseId(String(body.id ?? ''), def), body);
      });
    }
  }
  scoped.get(`${base}/:id/workflow`, {
    preHandler: allow('read'),
    schema: { tags, summary: 'Stato, azioni disponibili, avvisi e storico', params: ID_PARAMS, response: { 200: { type: 'object', properties: { data: { type: 'object' } } }, ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const id = parseId((request.params as { id: string }).id, def);
    // Only the machine's answers leave this route: its guards judge the stored values (a hidden colour still needs a derogation).
    const record = await repo.get(scoped.ctx.db, request.user, id, true);
    const status = Number(record[workflow.statusField]);
    return {
      data: {
        stato: workflow.status(status),
        // The version judged: the client trusts these events only for the record it shows.
        version: record.version ?? null,
        eventi: workflow.available(status, request.user, record).map((e) => ({ type: e.type, ...e.meta, target: e.target, targets: e.targets })),
        avvisi: workflow.warnings(status, request.user, record),
        storico: await repo.history(scoped.ctx.db, request.user, id),
      },
    };
  });
}

export default fp(async (app: FastifyInstance) => {
  app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);
    const repositories = new Map<string, ResourceRepository>();
    const storico = new Storico(app.ctx.db, (name) => repositories.get(name));
    registerHistoryDesk(scoped, () => storico);
    for (const def of app.ctx.definitions.resources.values()) {
      const workflow = def.resource.workflow ? app.ctx.workflows.get(def.resource.workflow.machine) : undefined;
      const repo = new ResourceRepository(def, app.ctx, (table) => app.ctx.definitions.resources.get(table)?.resource.title ?? table, workflow);
      repositories.set(def.name, repo);
      const allow = (action: PermissionAction) => requirePermission(def.resource.permissions[action]);
      const what = def.resource.singular ?? 'Record';
      const tags = [def.name];
      // The engine validates the body itself (aliases, normalisation, the entity schema); the document shows the whole input.
      const input = { $ref: `${def.name}_input#`, [ENGINE_VALIDATED]: true };
      const update = { $ref: `${def.name}_update#`, [ENGINE_VALIDATED]: true };
      const own = { creat: def.resource.messages?.created, aggiornat: def.resource.messages?.updated, eliminat: def.resource.messages?.deleted };
      const done = (verb: 'creat' | 'aggiornat' | 'eliminat') => own[verb] ?? `${what} ${verb}${def.resource.feminine ? 'a' : 'o'} con successo.`;
      const serves = (op: PermissionAction) => !def.resource.api.operations || def.resource.api.operations.includes(op);
      for (const base of [def.resource.api.path, ...(def.resource.api.aliases ?? [])]) {
        if (serves('list')) scoped.get(base, { preHandler: allow('list'), schema: { tags, summary: `Elenco ${def.resource.title}`, querystring: listQuery(def), response: { 200: listResponse(def.name), ...errorResponses(401, 403, 422) } } }, async (request, reply) => {
          reply.header('cache-control', 'no-store');
          const query = { ...parseListQuery(def, request.query as Record<string, unknown>), exactTotalLimit: app.ctx.config.EXACT_TOTAL_LIMIT, anchorEvery: app.ctx.config.LIST_ANCHOR_EVERY, anchoredFrom: app.ctx.config.LIST_ANCHORED_FROM };
          // per_page=-1 means every row: streamed from a cursor rather than capped and held in memory.
          if (query.perPage === -1) return streamAll(reply, app.ctx.db, repo, request.user, query);
          return repo.list(app.ctx.db, request.user, query, app.ctx.cache);
        });
        if (serves('list') && base === def.resource.api.path) scoped.get(`${base}/export`, {
          preHandler: allow('list'),
          schema: {
            tags, summary: `Esporta ${def.resource.title} (CSV o XLSX, i filtri dell'elenco)`,
            querystring: { ...listQuery(def), required: ['format'], properties: { ...listQuery(def).properties, format: { type: 'string', enum: ['csv', 'xlsx'] }, columns: { type: 'string', maxLength: 2000, description: 'campi delle colonne, separati da virgola' } } },
            response: { 200: { description: 'Il file, trasmesso man mano (X-Total-Count: le righe)', type: 'string', format: 'binary' }, ...errorResponses(401, 403, 422) },
          },
        }, async (request, reply) => {
          const raw = request.query as Record<string, unknown>;
          const columns = exportColumns(listFor(def, request.user).columns, typeof raw.columns === 'string' ? raw.columns : undefined);
          const query = parseListQuery(def, { ...raw, page: undefined, per_page: undefined });
          return streamExport(reply, app.ctx.db, repo, request.user, query, raw.format as 'csv' | 'xlsx', columns, workflow);
        });
        if (serves('read')) scoped.get(`${base}/:id`, { preHandler: allow('read'), schema: { tags, params: ID_PARAMS, response: { 200: recordResponse(def.name), ...errorResponses(401, 403, 404) } } }, async (request, reply) => {
          const record = await repo.get(app.ctx.db, request.user, parseId((request.params as { id: string }).id, def));
          etag(reply, record);
          reply.header('cache-control', 'no-store');
          const readOne = app.ctx.extensions.hooksFor(def.name).readOne;
          return { data: readOne ? { ...record, ...(await readOne.load(app.ctx.db, record, request.user)) } : record };
        });
        if (serves('create')) scoped.post(base, { preHandler: allow('create'), schema: { tags, summary: `Crea ${what}`, body: input, response: { 201: writeResponse(def.name), ...errorResponses(401, 403, 422) } } }, async (request, reply) => {
          const { model, warnings } = await repo.create(app.ctx.db, request.user, request.body);
          etag(reply, model);
          reply.code(201);
          return { message: done('creat'), data: { model }, ...withWarnings(warnings) };
        });
        if (serves('update')) scoped.put(`${base}/:id`, {
          preHandler: allow('update'),
          schema: { tags, params: ID_PARAMS, headers: IF_MATCH, body: update, response: { 200: writeResponse(def.name), ...errorResponses(401, 403, 404, 409, 422, 428) } },
        }, async (request, reply) => {
          const id = parseId((request.params as { id: string }).id, def);
          const { model, warnings } = await repo.update(app.ctx.db, request.user, id, request.body, versionFrom(request));
          etag(reply, model);
          return { message: done('aggiornat'), data: { model }, ...withWarnings(warnings) };
        });
        if (serves('delete')) scoped.delete(`${base}/:id`, { preHandler: allow('delete'), schema: { tags, params: ID_PARAMS, response: { 200: MESSAGE_RESPONSE, ...errorResponses(401, 403, 404, 409) } } }, async (request) => {
          await repo.remove(app.ctx.db, request.user, parseId((request.params as { id: string }).id, def));
          return { message: done('eliminat') };
        });
        if (workflow) registerWorkflowRoutes(scoped, base, def, repo, workflow, allow);
      }
      registerAutocomplete(scoped, () => app.ctx.db, def, repo, allow('list'));
      registerRecordHistory(scoped, def, repo, () => storico);
      if (workflow && def.resource.workflow?.countsPath) {
        scoped.get(def.resource.workflow.countsPath, {
          preHandler: allow('list'),
          schema: { tags: [def.name], summary: 'Record per stato', response: { 200: { type: 'object', properties: { data: { type: 'array', items: { type: 'object' } } } }, ...errorResponses(401, 403) } },
        }, async (request) => ({
          data: await repo.statusCounts(app.ctx.db, request.user),
        }));
      }
    }
    registerCerca(scoped, () => app.ctx.db, [...repositories.values()]);
  });
}, { name: 'resources', dependencies: ['auth'] });

// Generic CRUD routes for every resource declared under schemas/, on the paths its resource.json names.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PermissionAction, ResourceDefinition } from '../../shared/definitions/types.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { forbidden, invalid, notFoundFor } from '../errors.ts';
import { ResourceRepository, type ListQuery } from '../resources/repository.ts';
import type { Workflow } from '../../shared/workflow/machine.ts';

const MAX_PER_PAGE = 500;

function parseId(raw: string, def: ResourceDefinition): number {
  if (!/^\d{1,9}$/.test(raw)) throw notFoundFor(def);
  return Number(raw);
}

export function parseListQuery(def: ResourceDefinition, query: Record<string, unknown>): ListQuery {
  const errors: Record<string, string[]> = {};
  const int = (name: string, fallback: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (typeof raw !== 'string' || !/^-?\d+$/.test(raw)) {
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
  const sort = sortRaw.split(',').map((s) => s.trim()).filter(Boolean);
  const filters: ListQuery['filters'] = [];
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('filter[')) continue;
    const match = /^filter\[([A-Za-z_][A-Za-z0-9_]*)\](?:\[(from|to)\])?$/.exec(key);
    // A filter the engine cannot read must not silently answer every row.
    if (!match) {
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
  if (Object.keys(errors).length) throw invalid(errors);
  return { page, perPage, sort, search, filters };
}

function versionFrom(request: FastifyRequest): number | undefined {
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
  allow: (action: PermissionAction) => (request: FastifyRequest) => Promise<void>,
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
  for (const [type, meta] of Object.entries(workflow.definition.meta.events)) {
    if (!meta.route) continue;
    scoped.post(`${base}/${meta.route}/:id`, { preHandler: allow('read') }, async (request) =>
      run(request, type, parseId((request.params as { id: string }).id, def), (request.body ?? {}) as Record<string, unknown>));
    if (meta.kind === 'manual') {
      // The spec's form: POST /api/quotazioni/cambioStato with id and stato_quotazione_id in the body.
      scoped.post(`${base}/${meta.route}`, { preHandler: allow('read') }, async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        return run(request, type, parseId(String(body.id ?? ''), def), body);
      });
    }
  }
  scoped.get(`${base}/:id/workflow`, { preHandler: allow('read') }, async (request) => {
    const id = parseId((request.params as { id: string }).id, def);
    const record = await repo.get(scoped.ctx.db, request.user, id);
    const status = Number(record[workflow.statusField]);
    return {
      data: {
        stato: workflow.status(status),
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
    for (const def of app.ctx.definitions.resources.values()) {
      const workflow = def.resource.workflow ? app.ctx.workflows.get(def.resource.workflow.machine) : undefined;
      const repo = new ResourceRepository(def, app.ctx.ajv, (table) => app.ctx.definitions.resources.get(table)?.resource.title ?? table, workflow);
      const allow = (action: PermissionAction) => async (request: FastifyRequest) => {
        if (!hasPermission(def.resource.permissions[action], request.user)) throw forbidden();
      };
      const what = def.resource.singular ?? 'Record';
      const own = { creat: def.resource.messages?.created, aggiornat: def.resource.messages?.updated, eliminat: def.resource.messages?.deleted };
      const done = (verb: 'creat' | 'aggiornat' | 'eliminat') => own[verb] ?? `${what} ${verb}${def.resource.feminine ? 'a' : 'o'} con successo.`;
      const serves = (op: PermissionAction) => !def.resource.api.operations || def.resource.api.operations.includes(op);
      for (const base of [def.resource.api.path, ...(def.resource.api.aliases ?? [])]) {
        if (serves('list')) scoped.get(base, { preHandler: allow('list') }, async (request, reply) => {
          reply.header('cache-control', 'no-store');
          return repo.list(app.ctx.db, request.user, parseListQuery(def, request.query as Record<string, unknown>));
        });
        if (serves('read')) scoped.get(`${base}/:id`, { preHandler: allow('read') }, async (request, reply) => {
          const record = await repo.get(app.ctx.db, request.user, parseId((request.params as { id: string }).id, def));
          etag(reply, record);
          reply.header('cache-control', 'no-store');
          return { data: record };
        });
        if (serves('create')) scoped.post(base, { preHandler: allow('create') }, async (request, reply) => {
          const { model, warnings } = await repo.create(app.ctx.db, request.user, request.body);
          etag(reply, model);
          reply.code(201);
          return { message: done('creat'), data: { model }, ...withWarnings(warnings) };
        });
        if (serves('update')) scoped.put(`${base}/:id`, { preHandler: allow('update') }, async (request, reply) => {
          const id = parseId((request.params as { id: string }).id, def);
          const { model, warnings } = await repo.update(app.ctx.db, request.user, id, request.body, versionFrom(request));
          etag(reply, model);
          return { message: done('aggiornat'), data: { model }, ...withWarnings(warnings) };
        });
        if (serves('delete')) scoped.delete(`${base}/:id`, { preHandler: allow('delete') }, async (request) => {
          await repo.remove(app.ctx.db, request.user, parseId((request.params as { id: string }).id, def));
          return { message: done('eliminat') };
        });
        if (workflow) registerWorkflowRoutes(scoped, base, def, repo, workflow, allow);
      }
      if (workflow && def.resource.workflow?.countsPath) {
        scoped.get(def.resource.workflow.countsPath, { preHandler: allow('list') }, async (request) => ({
          data: await repo.statusCounts(app.ctx.db, request.user),
        }));
      }
    }
  });
}, { name: 'resources', dependencies: ['auth'] });

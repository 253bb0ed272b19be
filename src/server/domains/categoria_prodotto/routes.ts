// /api/prodotto_assicurativo: the spec's product calls with the nested mandato{...} body and filter[prodotto.*], mapped onto the generic repository.
import type { FastifyInstance } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requirePermission } from '../../auth/guards.ts';
import { HttpError, invalid, notFound } from '../../errors.ts';
import { parsePathId } from '../../http/contract.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { parseListQuery } from '../../plugins/resources.ts';
import type { FieldErrors } from '../../../shared/validation.ts';

const RESOURCE = 'categoria_prodotto';
const PATH = '/api/prodotto_assicurativo';

/** Keys of the spec's mandato{...} object and the columns they are stored in. */
const MANDATO: Record<string, string> = {
  percentuale_provvigione_attiva: 'percentuale_provvigione_attiva',
  data_inizio_mandato: 'data_inizio_mandato',
  attivo: 'mandato_attivo',
  compagnia_fornitore_id: 'compagnia_fornitore_id',
};
const MANDATO_KEY_OF = Object.fromEntries(Object.entries(MANDATO).map(([key, column]) => [column, key]));

type Body = Record<string, unknown>;

/** The record as stored, plus the spec's nested view of its mandate. */
function withMandato(record: Body): Body {
  return { ...record, mandato: Object.fromEntries(Object.entries(MANDATO).map(([key, column]) => [key, record[column] ?? null])) };
}

/** The old front end sends the commission as text ("0", "12,5"). */
function coercePercent(value: unknown): unknown {
  return typeof value === 'string' && /^\s*\d+(?:[.,]\d+)?\s*$/.test(value) ? Number(value.trim().replace(',', '.')) : value;
}

/** Flat body for the repository, and the columns that arrived inside mandato (their errors are answered there). */
function flatten(body: unknown): { flat: Body; nested: Set<string> } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid({ body: ['Il corpo della richiesta deve essere un oggetto JSON.'] });
  const { mandato, ...flat } = body as Body;
  const nested = new Set<string>();
  const errors: FieldErrors = {};
  if (mandato !== undefined && mandato !== null) {
    if (typeof mandato !== 'object' || Array.isArray(mandato)) throw invalid({ mandato: ['Formato non valido'] });
    for (const [key, value] of Object.entries(mandato as Body)) {
      const column = MANDATO[key];
      if (!column) errors[`mandato.${key}`] = ['Campo non consentito.'];
      else if (column in flat && flat[column] !== value) errors[`mandato.${key}`] = [`Non coincide con ${column} del prodotto.`];
      else {
        flat[column] = value;
        nested.add(column);
      }
    }
  }
  if (Object.keys(errors).length) throw invalid(errors);
  if ('percentuale_provvigione_attiva' in flat) flat.percentuale_provvigione_attiva = coercePercent(flat.percentuale_provvigione_attiva);
  return { flat, nested };
}

/** Field errors of columns sent inside mandato are answered under mandato.<key>, where that client put them. */
async function answeringNested<T>(nested: Set<string>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof HttpError) || !error.errors || !nested.size) throw error;
    const errors = Object.fromEntries(Object.entries(error.errors).map(([field, messages]) =>
      [nested.has(field) ? `mandato.${MANDATO_KEY_OF[field]}` : field, messages]));
    throw error.restated({ errors });
  }
}

function parseId(raw: string, what: string): number {
  return parsePathId(raw, () => notFound(what));
}

function versionFrom(request: FastifyRequest, body: Body): number | undefined {
  if (body.version !== undefined) {
    if (!Number.isInteger(body.version)) throw invalid({ version: ['Deve essere un numero intero'] });
    return body.version as number;
  }
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(String(request.headers['if-match'] ?? ''));
  return match ? Number(match[1]) : undefined;
}

/** filter[prodotto.x] and filter[mandato.x] name columns of the row itself; any other dotted filter is refused. */
function mapFilters(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const match = /^filter\[(prodotto|mandato)\.([A-Za-z_][A-Za-z0-9_]*)\](\[(?:from|to)\])?$/.exec(key);
    if (!match) {
      if (/^filter\[[^\]]*\./.test(key)) throw invalid({ [key]: ['Filtro non consentito'] });
      out[key] = value;
      continue;
    }
    const column = match[1] === 'mandato' ? MANDATO[match[2]!] : match[2]!;
    if (!column) throw invalid({ [key]: ['Filtro non consentito'] });
    out[`filter[${column}]${match[3] ?? ''}`] = value;
  }
  return out;
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('categoria_prodotto', async (app) => {
    const def = app.ctx.definitions.resources.get(RESOURCE);
    if (!def) return;
    const repo = new ResourceRepository(def, app.ctx, (table) => app.ctx.definitions.resources.get(table)?.resource.title ?? table);
    const { permissions } = def.resource;
    const what = def.resource.singular ?? 'Prodotto';
    const etag = (reply: FastifyReply, record: Body) => reply.header('etag', `"${String(record.version)}"`);

    app.get(PATH, { preHandler: requirePermission(permissions.list) }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const result = await repo.list(app.ctx.db, request.user, parseListQuery(def, mapFilters(request.query as Record<string, unknown>)));
      return { ...result, data: result.data.map(withMandato) };
    });

    // Spec 000 §7: "GET search on /api/categoria_prodotto" with filter[...] parameters (a company's categories).
    app.get(`${def.resource.api.path}/search`, { preHandler: requirePermission(permissions.list) }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return repo.list(app.ctx.db, request.user, parseListQuery(def, mapFilters(request.query as Record<string, unknown>)));
    });

    app.get(`${PATH}/:id`, { preHandler: requirePermission(permissions.read) }, async (request, reply) => {
      const record = await repo.get(app.ctx.db, request.user, parseId((request.params as { id: string }).id, what));
      etag(reply, record);
      reply.header('cache-control', 'no-store');
      return { data: withMandato(record) };
    });

    app.post(PATH, { preHandler: requirePermission(permissions.create) }, async (request, reply) => {
      const { flat, nested } = flatten(request.body);
      const { model, warnings } = await answeringNested(nested, () => repo.create(app.ctx.db, request.user, flat));
      etag(reply, model);
      reply.code(201);
      return { message: `${what} creato con successo.`, data: { model: withMandato(model) }, ...(Object.keys(warnings).length ? { warnings } : {}) };
    });

    app.put(`${PATH}/:id`, { preHandler: requirePermission(permissions.update) }, async (request, reply) => {
      const id = parseId((request.params as { id: string }).id, what);
      const { flat, nested } = flatten(request.body);
      const version = versionFrom(request, flat);
      const { model, warnings } = await answeringNested(nested, () => repo.update(app.ctx.db, request.user, id, flat, version));
      etag(reply, model);
      return { message: `${what} aggiornato con successo.`, data: { model: withMandato(model) }, ...(Object.keys(warnings).length ? { warnings } : {}) };
    });

    app.delete(`${PATH}/:id`, { preHandler: requirePermission(permissions.delete) }, async (request) => {
      await repo.remove(app.ctx.db, request.user, parseId((request.params as { id: string }).id, what));
      return { message: `${what} eliminato con successo.` };
    });
  });
}

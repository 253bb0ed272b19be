// The direct quotation's calls (spec 001 §7 'Direct quotation'): aliases over the same quotation records, repository and
// machine as /api/quotazioni, answering in the shapes the old screen reads (English names beside the Italian ones).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { invalid, notFoundFor } from '../../errors.ts';
import { parsePathId } from '../../http/contract.ts';
import { canonicalInput } from '../../../shared/canonical.ts';
import type { JsonSchema } from '../../../shared/definitions/types.ts';

const BASE = '/api/v1/goold/quotations';
const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 12 } }, required: ['id'] } as const;
const objectBody = { type: 'object' } as const;

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('quotazione-diretta', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('quotazione')!;
    const workflow = app.ctx.workflows.get(def.resource.workflow!.machine)!;
    const repo = new ResourceRepository(def, app.ctx, undefined, workflow);
    const { permissions } = def.resource;
    const db = app.ctx.db;
    const props = (def.schema.properties ?? {}) as Record<string, JsonSchema>;
    const emit = Object.entries(workflow.definition.meta.events).find(([, meta]) => meta.route === 'emettiDiretta')?.[0] ?? 'EMETTI_DIRETTA';

    const parseId = (request: FastifyRequest) => {
      return parsePathId((request.params as { id: string }).id, () => notFoundFor(def));
    };

    /** The record with the first English alias of each field beside it (first_name, plate_number, ...) and its status. */
    function english(record: Record<string, unknown>): Record<string, unknown> {
      const out: Record<string, unknown> = { ...record };
      for (const [name, prop] of Object.entries(props)) {
        const alias = (prop['x-aliases'] as string[] | undefined)?.[0];
        if (alias && !(alias in out) && name in record) out[alias] = record[name];
      }
      const status = workflow.status(Number(record[workflow.statusField]));
      out.status_id = status.id;
      out.stato_quotazione = { id: status.id, cod: status.code, nome: status.nome };
      return out;
    }

    /** Gender A is a company (spec 001 §3): the person type follows the gender the direct screen sends. */
    function withPersona(body: Record<string, unknown>): Record<string, unknown> {
      // This route speaks the direct screen's English names: sent beside the Italian ones (read back from edit), they win.
      const sent = { ...body };
      for (const [name, prop] of Object.entries(props)) {
        if (((prop['x-aliases'] as string[] | undefined) ?? []).some((alias) => alias in sent)) delete sent[name];
      }
      const input = canonicalInput(sent, def.schema);
      if (input.sesso === 'A') input.persona = 'g';
      else if (input.sesso === 'M' || input.sesso === 'F') input.persona = 'f';
      // What the screen read and sends back but the server owns (status, premiums, ids) is not an edit.
      for (const [name, prop] of Object.entries(props)) if (prop.readOnly) delete input[name];
      for (const key of ['stato_quotazione', 'media', 'version']) delete input[key];
      if (input.persona === 'g') delete input.sesso;
      return input;
    }

    /** The old screen sends no version: it edits the stored one, still under the row lock and the machine. */
    async function versionOf(request: FastifyRequest, id: number): Promise<number> {
      const sent = (request.body as { version?: unknown } | undefined)?.version;
      if (Number.isInteger(sent)) return sent as number;
      const match = /^(?:W\/)?"?(\d+)"?$/.exec(String(request.headers['if-match'] ?? ''));
      if (match) return Number(match[1]);
      return Number((await repo.get(db, request.user, id)).version);
    }

    app.get(`${BASE}/:id/edit`, { preHandler: requirePermission(permissions.read), schema: { params: idParams } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: english(await repo.get(db, request.user, parseId(request))) };
    });

    app.put(`${BASE}/:id`, { preHandler: requirePermission(permissions.update), schema: { params: idParams, body: objectBody } }, async (request) => {
      const id = parseId(request);
      const body = { ...(request.body as Record<string, unknown>) };
      delete body.version;
      const { model, warnings } = await repo.update(db, request.user, id, withPersona(body), await versionOf(request, id));
      return { message: 'Quotazione salvata con successo', data: { code: 201, model: english(model) }, ...(Object.keys(warnings).length ? { warnings } : {}) };
    });

    app.get(`${BASE}/:id/vehicles`, { preHandler: requirePermission(permissions.read), schema: { params: idParams } }, async (request, reply) => {
      const record = await repo.get(db, request.user, parseId(request));
      reply.header('cache-control', 'no-store');
      return { data: { historic: record.veicoli_storici ?? [], modern: record.veicoli_moderni ?? [] } };
    });

    app.post(`${BASE}/:id/vehicles`, {
      preHandler: requirePermission(permissions.update),
      schema: { params: idParams, body: { type: 'object', properties: { historic: { type: 'array' }, modern: { type: 'array' } } } },
    }, async (request, reply) => {
      const id = parseId(request);
      const body = request.body as { historic?: unknown[]; modern?: unknown[] };
      if (body.historic === undefined && body.modern === undefined) throw invalid({ historic: ['Campo Obbligatorio.'] });
      const input: Record<string, unknown> = {};
      if (body.historic !== undefined) input.historic = body.historic;
      if (body.modern !== undefined) input.modern = body.modern;
      const { model } = await repo.update(db, request.user, id, input, await versionOf(request, id));
      reply.code(201);
      return { message: 'Veicoli salvati con successo.', data: { historic: model.veicoli_storici ?? [], modern: model.veicoli_moderni ?? [] } };
    });

    // 'Passa in attesa di emissione': the machine's event of the direct quotation (status 12 → 7). GET as the spec calls it.
    const emitHandler = async (request: FastifyRequest) => {
      const model = await repo.transition(db, request.user, parseId(request), { type: emit });
      return { message: `Quotazione in stato "${workflow.status(Number(model[workflow.statusField])).nome}".`, data: { model: english(model) } };
    };
    app.get(`${BASE}/:id/emit`, { preHandler: requirePermission(permissions.read), schema: { params: idParams } }, emitHandler);
    app.post(`${BASE}/:id/emit`, { preHandler: requirePermission(permissions.read), schema: { params: idParams } }, emitHandler);

    // One historic vehicle by its row id, inside its quotation: the same edit (scope, version, machine) as the whole record.
    app.put('/api/v1/goold/vehicles/:id', {
      preHandler: requirePermission(permissions.update),
      schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 100 } }, required: ['id'] }, body: objectBody },
    }, async (request) => {
      const rowId = (request.params as { id: string }).id;
      const body = request.body as { vehicle?: unknown };
      const sent = body.vehicle ?? body;
      if (!sent || typeof sent !== 'object' || Array.isArray(sent)) throw invalid({ vehicle: ['Campo Obbligatorio.'] });
      const found = await sql<{ id: number }>`
        SELECT id FROM quotazione WHERE veicoli_storici @> ${JSON.stringify([{ id: rowId }])}::jsonb ORDER BY id LIMIT 1`.execute(db);
      const quotazioneId = found.rows[0]?.id;
      if (quotazioneId === undefined) throw notFoundFor({ resource: { singular: 'Veicolo', feminine: false } });
      // Out of the user's scope answers like a missing vehicle.
      const record = await repo.get(db, request.user, quotazioneId).catch(() => {
        throw notFoundFor({ resource: { singular: 'Veicolo', feminine: false } });
      });
      const [vehicle] = (canonicalInput({ veicoli_storici: [sent] }, def.schema).veicoli_storici as Array<Record<string, unknown>>);
      const rows = ((record.veicoli_storici ?? []) as Array<Record<string, unknown>>).map((v) => (v.id === rowId ? { ...v, ...vehicle, id: rowId } : v));
      const { model } = await repo.update(db, request.user, quotazioneId, { veicoli_storici: rows }, Number(record.version));
      return { message: 'Veicolo salvato con successo.', data: { vehicle: ((model.veicoli_storici ?? []) as Array<Record<string, unknown>>).find((v) => v.id === rowId) } };
    });
  });
}

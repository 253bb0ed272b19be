// Quotation routes beyond CRUD and workflow events: the status list and the calculation, stored on the quotation when an id is given.
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../auth/guards.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { invalid } from '../../errors.ts';
import { INT4_MAX } from '../../http/contract.ts';
import { calcola, PRICING_INPUTS, type CalcoloInput } from '../../adapters/auto-storiche/calcolo.ts';

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

/** The pricing inputs as the entity declares them; the engine checks them again on the merged record. */
export const calcoloBody = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    version: { type: 'integer', minimum: 0, maximum: INT4_MAX },
    competenze: nullable({ type: 'number', minimum: 0, maximum: 999_999_999.99 }),
    provincia_codice: nullable({ type: 'string', maxLength: 2 }),
    minoreAnni: nullable({ anyOf: [{ type: 'boolean' }, { enum: [0, 1] }] }),
    veicoli_storici: { type: 'array', maxItems: 50, items: { type: 'object' } },
  },
} as const;

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('quotazione', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('quotazione')!;
    const workflow = app.ctx.workflows.get(def.resource.workflow!.machine);
    const repo = new ResourceRepository(def, app.ctx, undefined, workflow);

    // Spec 001 §7: the status list (id, code, name, in the machine's order), without the counts of /api/stati_quotazione.
    app.get('/api/v1/goold/states/quotation', {
      preHandler: requirePermission(def.resource.permissions.list),
      schema: { tags: ['quotazione'], summary: 'Elenco degli stati della quotazione (spec 001 §7)' },
    }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: workflow!.statuses.map(({ id, code, nome }) => ({ id, code, nome })) };
    });

    app.post('/api/quotazioni/calcolo', {
      preHandler: requirePermission('show_sue_quotazioni'),
      schema: { tags: ['quotazione'], summary: 'Calcolo del premio (salvato sulla quotazione quando si indica id)', body: calcoloBody },
    }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const input = repo.computationInput(body, request.user, PRICING_INPUTS);
      // The result answers as the record's fields would: the insurer's premium and hidden colours masked.
      if (body.id === undefined) return { ...repo.presentPart(await calcola(app.ctx.db, input as CalcoloInput), request.user), message: 'Calcolo eseguito.' };
      const ifMatch = /^(?:W\/)?"?(\d{1,9})"?$/.exec(String(request.headers['if-match'] ?? ''));
      const version = typeof body.version === 'number' ? body.version : ifMatch ? Number(ifMatch[1]) : undefined;
      let result: Awaited<ReturnType<typeof calcola>> | undefined;
      // The inputs, the price computed from them and the forced premium emptied (spec 001 §4) commit together.
      const model = await repo.updateComputed(app.ctx.db, request.user, Number(body.id), input, version, async (record, trx) => {
        result = await calcola(trx, record as CalcoloInput);
        return {
          colore: result.colore, premio: result.premio, premio_verti: result.premio_verti, preventivi: result.preventivi,
          veicoli_storici: result.veicoli_storici, premio_forzato: null,
        };
      });
      if (!result) throw invalid({ id: ['Calcolo non eseguito.'] });
      return { ...repo.presentPart(result, request.user), message: 'Calcolo eseguito.', data: { model } };
    });
  });
}

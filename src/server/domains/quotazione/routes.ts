// Quotation routes beyond CRUD and workflow events: the status list and the calculation, stored on the quotation when an id is given.
import type { FastifyInstance } from 'fastify';
import { registerDomainRoutes } from '../registry.ts';
import { requirePermission } from '../../auth/guards.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { calcola, type CalcoloInput } from './calcolo.ts';

registerDomainRoutes('quotazione', async (app: FastifyInstance) => {
  const def = app.ctx.definitions.resources.get('quotazione')!;
  const workflow = app.ctx.workflows.get(def.resource.workflow!.machine);
  const repo = new ResourceRepository(def, app.ctx.ajv, undefined, workflow);

  // Spec 001 §7: the status list (id, code, name, in the machine's order), without the counts of /api/stati_quotazione.
  app.get('/api/v1/goold/states/quotation', { preHandler: requirePermission(def.resource.permissions.list) }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { data: workflow!.statuses.map(({ id, code, nome }) => ({ id, code, nome })) };
  });

  app.post('/api/quotazioni/calcolo', { preHandler: requirePermission('show_sue_quotazioni') }, async (request) => {
    const body = (request.body ?? {}) as CalcoloInput & { id?: number };
    const id = Number(body.id);
    const stored = Number.isInteger(id) && id > 0 ? await repo.get(app.ctx.db, request.user, id) : undefined;
    const input: CalcoloInput = { ...(stored as CalcoloInput | undefined), ...body };
    const result = await calcola(app.ctx.db, input);
    if (!stored) return { ...result, message: 'Calcolo eseguito.' };
    // A new calculation replaces the previous premiums and empties the forced premium (spec 001 §4).
    const model = await repo.updateOwned(app.ctx.db, request.user, id, {
      colore: result.colore, premio: result.premio, premio_verti: result.premio_verti, preventivi: result.preventivi,
      veicoli_storici: result.veicoli_storici, premio_forzato: null,
      ...(body.competenze !== undefined ? { competenze: body.competenze } : {}),
      ...(body.provincia_codice !== undefined ? { provincia_codice: body.provincia_codice } : {}),
      ...(body.minoreAnni !== undefined ? { minoreAnni: body.minoreAnni } : {}),
    });
    return { ...result, message: 'Calcolo eseguito.', data: { model } };
  });
});

// 'Prepara rinnovo' of a policy: the next period's policy in draft, from last year's data, premium and guarantees, linked
// to the old one by polizza_numero_sostituita. Created through the same path as a POST (rules, validation, hooks that
// split the titles, history), in one transaction with the check that no renewal exists yet.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { HttpError, notFoundFor } from '../../errors.ts';
import { ID_PARAMS, parsePathId } from '../../http/contract.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { aggiungiMesi, premioLordo } from '../../../shared/premi.ts';

/** What the renewal does not take from last year's policy: identity, number, dates, status, payments, links. */
const NON_COPIATI = new Set(['id', 'version', 'created_at', 'updated_at', 'polizza_numero', 'polizza_numero_sostituita', 'data_entrata_in_effetto',
  'data_scadenza', 'data_scadenza_rata', 'quotazione_id', 'polizza_auto_storica_id', 'totale_premio_lordo']);

/** The period's length in whole months (a policy of a year is 12), so the next period is as long as the last. */
export function mesiDelPeriodo(inizio: string, fine: string): number {
  const [y1, m1] = inizio.split('-').map(Number) as [number, number];
  const [y2, m2] = fine.split('-').map(Number) as [number, number];
  const mesi = (y2 - y1) * 12 + (m2 - m1);
  return mesi > 0 ? mesi : 12;
}

export function registerRinnovo(app: FastifyInstance): void {
  app.extensions.routes('scadenziario_rinnovo', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('polizza')!;
    const polizze = new ResourceRepository(def, app.ctx);
    const base = def.resource.api.path;
    const response = { 200: { type: 'object', properties: { message: { type: 'string' }, data: { type: 'object', additionalProperties: true } } } };

    app.post(`${base}/:id/prepara-rinnovo`, {
      preHandler: requirePermission(def.resource.permissions.create),
      schema: { params: ID_PARAMS, body: { anyOf: [{ type: 'object', additionalProperties: false, maxProperties: 0 }, { type: 'null' }] }, response },
    }, async (request, reply) => {
      const id = parsePathId((request.params as { id: string }).id, () => notFoundFor(def));
      const user = request.user;
      // Scope: another collaborator's policy answers 404, as its record does.
      const vecchia = await polizze.get(app.ctx.db, user, id);
      const model = await app.ctx.db.transaction().execute(async (trx) => {
        await sql`SELECT id FROM polizza WHERE id = ${id} FOR UPDATE`.execute(trx);
        const numero = typeof vecchia.polizza_numero === 'string' ? vecchia.polizza_numero : '';
        if (!numero) throw new HttpError(409, 'La polizza non ha un numero: serve per collegarle il rinnovo.');
        if (!vecchia.data_scadenza || !vecchia.data_entrata_in_effetto) throw new HttpError(409, 'La polizza non ha le date del periodo: impossibile preparare il rinnovo.');
        const esistente = (await sql<{ id: number }>`SELECT id FROM polizza WHERE polizza_numero_sostituita = ${numero} ORDER BY id LIMIT 1`.execute(trx)).rows[0];
        if (esistente) throw new HttpError(409, `Il rinnovo della polizza ${numero} è già preparato (polizza n. ${esistente.id}).`);
        const body: Record<string, unknown> = {};
        for (const f of def.fields) {
          if (NON_COPIATI.has(f.name) || f.readOnly || vecchia[f.name] === undefined || vecchia[f.name] === null) continue;
          body[f.name] = vecchia[f.name];
        }
        const inizio = String(vecchia.data_scadenza);
        const fine = aggiungiMesi(inizio, mesiDelPeriodo(String(vecchia.data_entrata_in_effetto), inizio));
        const { model } = await polizze.createWithin(trx, user, { ...body, polizza_numero_sostituita: numero, data_entrata_in_effetto: inizio, data_scadenza: fine });
        // The gross premium is the rules' (x-computed); the shared premium code says what it must be.
        if (Number(model.totale_premio_lordo) !== premioLordo(body)) throw new Error(`premio lordo del rinnovo ${String(model.totale_premio_lordo)} diverso da ${premioLordo(body)}`);
        return model;
      });
      reply.code(200);
      return { message: `Rinnovo preparato: bozza della polizza dal ${String(model.data_entrata_in_effetto)} al ${String(model.data_scadenza)}.`, data: { model } };
    });
  });
}

// Collaborators: the superior sales point may not be the collaborator itself or one of its sub-network (no cycles).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { invalid } from '../../errors.ts';
import { subNetworkIds } from './network.ts';

export const CYCLE_MESSAGE = 'Il punto vendita superiore non può essere il collaboratore stesso o un suo sottoposto.';
// Serialises changes of the hierarchy: two concurrent moves (A under B, B under A) would each look fine alone.
const HIERARCHY_LOCK = 727276;

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('collaboratore', {
    async beforeWrite(operation, { trx, input, before }) {
      const superiore = input.punto_vendita_superiore_id;
      // A new collaborator has no sub-network yet, and an unknown superior is refused by the foreign key.
      if (operation !== 'update' || superiore === undefined || superiore === null || !before) return;
      await sql`SELECT pg_advisory_xact_lock(${HIERARCHY_LOCK})`.execute(trx);
      const id = before.id as number;
      const below = await sql<{ id: number }>`SELECT 1 AS id FROM (${subNetworkIds(id)}) s WHERE s.id = ${superiore}`.execute(trx);
      if (superiore === id || below.rows.length) throw invalid({ punto_vendita_superiore_id: [CYCLE_MESSAGE] });
    },
  });
}

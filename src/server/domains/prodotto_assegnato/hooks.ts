// Products assigned to collaborators: one assignment per collaborator and mandate row.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { invalid } from '../../errors.ts';

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('prodotto_assegnato', {
    async beforeWrite(_operation, { trx, input, before, def }) {
      const collaboratore = input.collaboratore_id !== undefined ? input.collaboratore_id : before?.collaboratore_id;
      const prodotto = input.categoria_prodotto_id !== undefined ? input.categoria_prodotto_id : before?.categoria_prodotto_id;
      if (collaboratore == null || prodotto == null) return;
      // Serialises writers of the same pair, so two concurrent requests cannot both pass the check.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`${def.name}:${String(collaboratore)}:${String(prodotto)}`}::text))`.execute(trx);
      const taken = await sql`
        SELECT 1 FROM ${sql.table(def.name)}
        WHERE collaboratore_id = ${collaboratore} AND categoria_prodotto_id = ${prodotto} AND id <> ${(before?.id as number | undefined) ?? 0}
        LIMIT 1`.execute(trx);
      if (taken.rows.length) throw invalid({ categoria_prodotto_id: ['Prodotto già assegnato a questo collaboratore.'] });
    },
  });
}

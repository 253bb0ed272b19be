// GET /api/autocomplete/fornitore: active suppliers as {id, label} for the selectors of the product form and the policies.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { autocompleteSearch } from '../../resources/autocomplete.ts';

const RESOURCE = 'compagnia';
// Enough for a selector; a search narrows it down (the client asks from 3 characters on).
const MAX_ITEMS = 50;

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('compagnia', async (app) => {
    const def = app.ctx.definitions.resources.get(RESOURCE);
    if (!def) return;
    app.get('/api/autocomplete/fornitore', { preHandler: requirePermission(def.resource.permissions.list) }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { search, tooShort } = autocompleteSearch(request.query);
      if (tooShort) return { data: [] };
      const match = search ? sql`AND "ragioneSociale" ILIKE ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``;
      const rows = await sql<{ id: number; label: string }>`
        SELECT id, "ragioneSociale" AS label FROM ${sql.table(RESOURCE)}
        WHERE attivo ${match} ORDER BY "ragioneSociale", id LIMIT ${MAX_ITEMS}`.execute(app.ctx.db);
      return { data: rows.rows };
    });
  });
}

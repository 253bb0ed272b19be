// Maintenance mode: by environment (MAINTENANCE=1) or by the database setting 'maintenance'; the API then answers 503.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../errors.ts';

const CACHE_MS = 2000;
let cached: { at: number; value: boolean } | undefined;

export async function isMaintenance(app: FastifyInstance): Promise<boolean> {
  if (app.ctx.config.maintenance) return true;
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const row = await sql<{ value: unknown }>`SELECT value FROM app_setting WHERE key = 'maintenance'`.execute(app.ctx.db);
  cached = { at: Date.now(), value: row.rows[0]?.value === true };
  return cached.value;
}

// Health and the public environment stay reachable so the client and probes can tell what is going on.
const ALWAYS_OPEN = ['/api/health', '/api/environment', '/api/login'];

export default fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || ALWAYS_OPEN.some((p) => request.url.startsWith(p))) return;
    if (await isMaintenance(app)) throw new HttpError(503, 'Sito in aggiornamento', undefined, { maintenance: true });
  });
}, { name: 'maintenance' });

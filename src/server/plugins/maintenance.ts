// Maintenance mode: by environment (MAINTENANCE=1) or by the database setting 'maintenance'; the API then answers 503.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../errors.ts';

/** The setting is cached by the app (cache.ts): a change on any instance is seen by every one at once, within 2 s without the listener. */
export async function isMaintenance(app: FastifyInstance): Promise<boolean> {
  if (app.ctx.config.MAINTENANCE) return true;
  const cached = app.ctx.cache.setting('maintenance');
  if (cached) return cached.value === true;
  const generation = app.ctx.cache.generation;
  const row = await sql<{ value: unknown }>`SELECT value FROM app_setting WHERE key = 'maintenance'`.execute(app.ctx.db);
  const value = row.rows[0]?.value === true;
  app.ctx.cache.rememberSetting('maintenance', value, generation);
  return value;
}

// Health and the public environment stay reachable so the client and probes can tell what is going on.
const ALWAYS_OPEN = ['/api/health', '/api/environment', '/api/login'];

export default fp(async (app: FastifyInstance) => {
  const closed = () => new HttpError(503, 'Sito in aggiornamento', undefined, { maintenance: true }, 'MAINTENANCE');
  // A callback hook: with the setting cached (nearly always) the request goes on without a promise of its own.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/api/') || ALWAYS_OPEN.some((p) => request.url.startsWith(p))) return done();
    const cached = !app.ctx.config.MAINTENANCE && app.ctx.cache.setting('maintenance');
    if (cached) return done(cached.value === true ? closed() : undefined);
    isMaintenance(app).then((on) => done(on ? closed() : undefined), done);
  });
}, { name: 'maintenance' });

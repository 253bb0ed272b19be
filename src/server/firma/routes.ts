// The provider's callback (no session: a shared secret) and the poller that brings open requests forward.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.ts';
import { onCallback, pollOpenRequests, presentRequest } from './service.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

export async function registerSignatureRoutes(app: FastifyInstance): Promise<void> {
  const secret = app.ctx.config.FIRMA_CALLBACK_SECRET;
  app.post('/api/firma/callback', {
    schema: {
      body: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 }, status: { type: 'string', maxLength: 20 } } },
    },
  }, async (request) => {
    const given = String(request.headers['x-firma-secret'] ?? '');
    // Compared in constant time; without a configured secret the callback is off.
    if (!secret || !timingSafeEqual(digest(given), digest(secret))) throw new HttpError(401, 'Unauthenticated.');
    const row = await onCallback(app.ctx, (request.body as { id: string }).id);
    if (!row) throw new HttpError(404, 'Richiesta di firma non trovata.');
    return { data: presentRequest(row) };
  });

  // Several instances may poll together: completion locks the request row, so each signature completes once.
  const every = app.ctx.config.FIRMA_POLL_MS;
  if (every > 0) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      pollOpenRequests(app.ctx).catch((error: Error) => app.log.warn(`signature poll: ${error.message}`)).finally(() => { running = false; });
    }, every);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
}

// Documents and signatures: the file routes of every resource with "media", and the signature provider's callback.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { registerMediaRoutes } from '../media/routes.ts';
import { registerSignatureRoutes } from '../firma/routes.ts';

export default fp(async (app: FastifyInstance) => {
  await app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);
    await registerMediaRoutes(scoped);
  });
  // The provider calls back without a session: the callback checks its shared secret itself.
  await app.register(registerSignatureRoutes);
  await app.ctx.media.sweepOrphans(app.ctx.db).catch((error: Error) => app.log.warn(`media sweep: ${error.message}`));
}, { name: 'documenti', dependencies: ['auth'] });

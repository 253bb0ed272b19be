// Each request's actor for the history: the signed-in user, the customer of a personal link, or nobody ('sistema').
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { conContesto, type Attore } from './contesto.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the public link's routes: the customer the writes of this request are made for (their label). */
    storicoCliente: string | null;
  }
}

function attoreDi(request: FastifyRequest): Attore {
  const where = { indirizzo: request.ip ?? null, richiesta: String(request.id) };
  if (request.storicoCliente) return { utente_id: null, utente_nome: request.storicoCliente, origine: 'cliente', ...where };
  const user = request.user;
  // Id 0 is the engine's own user (seed, start-up work).
  if (user && user.id) return { utente_id: user.id, utente_nome: user.name, origine: 'utente', ...where };
  return { utente_id: null, utente_nome: null, origine: 'sistema', ...where };
}

export function registerStoricoContesto(app: FastifyInstance): void {
  app.decorateRequest('storicoCliente', null);
  app.addHook('onRequest', (request, _reply, done) => {
    conContesto({ attore: () => attoreDi(request) }, done);
  });
}

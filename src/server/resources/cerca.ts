// GET /api/cerca?q=: the top bar's one search over every resource that declares "cerca" in its resource.json, each
// with its list permission and row scope (the repository's, as its list applies them). Names no resource.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/connection.ts';
import type { ResourceRepository } from './repository.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { MIN_SEARCH } from './autocomplete.ts';
import { errorResponses } from '../http/openapi.ts';

/** Results per kind: enough to pick from, few enough to read at a glance. */
export const CERCA_PER_KIND = 5;

const QUERY = {
  type: 'object',
  required: ['q'],
  properties: { q: { type: 'string', maxLength: 200, description: `testo cercato (almeno ${MIN_SEARCH} caratteri; meno = nessun risultato)` } },
};
const RESPONSE = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tipo', 'id', 'label', 'route'],
        properties: {
          tipo: { type: 'string', description: 'la risorsa (cliente, quotazione, polizza, ...)' },
          id: { type: 'integer' },
          label: { type: 'string' },
          route: { type: 'string', description: 'la schermata che apre il record' },
        },
      },
    },
  },
};

export function registerCerca(scoped: FastifyInstance, db: () => Database, repositories: ResourceRepository[]): void {
  const searched = repositories.filter((repo) => repo.def.resource.cerca);
  scoped.get('/api/cerca', {
    schema: { tags: ['cerca'], summary: 'Cerca clienti, quotazioni, polizze, titoli, ... per nome, codice fiscale, targa, numero', querystring: QUERY, response: { 200: RESPONSE, ...errorResponses(401, 422) } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const q = (request.query as { q: string }).q.trim();
    // As the autocompletes: 1 or 2 characters answer nothing rather than half the tables.
    if (q.length < MIN_SEARCH) return { data: [] };
    // A kind the user may not list is not searched at all; each kind's search runs on its own pooled connection.
    const allowed = searched.filter((repo) => hasPermission(repo.def.resource.permissions.list, request.user));
    const found = await Promise.all(allowed.map(async (repo) =>
      (await repo.cerca(db(), request.user, q, CERCA_PER_KIND)).map((hit) => ({ tipo: repo.def.name, ...hit }))));
    return { data: found.flat() };
  });
}

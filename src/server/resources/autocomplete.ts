// Autocomplete pickers: the search rule they all share, and the {id, label} picker a resource declares
// in resource.json ("autocomplete": {"path", "label"}), served with the resource's permission and row scope.
import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import type { Database } from '../db/connection.ts';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';
import type { ResourceRepository } from './repository.ts';

/** Spec 000 §9, 001 §9: the search starts above 2 characters. */
export const MIN_SEARCH = 3;
const MAX_ITEMS = 20;

/**
 * The search term of an autocomplete call. `tooShort` (1 or 2 characters) answers an empty list:
 * a search that does not search would list what the user did not ask for.
 */
export function autocompleteSearch(query: unknown): { search?: string; tooShort: boolean } {
  const raw = (query as { search?: unknown } | undefined)?.search;
  const search = typeof raw === 'string' ? raw.trim() : '';
  if (!search) return { tooShort: false };
  return search.length < MIN_SEARCH ? { tooShort: true } : { search, tooShort: false };
}

/** GET {autocomplete.path}?search=: active records the user may list, as {id, label}, ordered by label. */
export function registerAutocomplete(
  scoped: FastifyInstance, db: () => Database, def: ResourceDefinition, repo: ResourceRepository, preHandler: preHandlerHookHandler,
): void {
  const config = def.resource.autocomplete;
  if (!config) return;
  const active = def.resource.activeField;
  scoped.get(config.path, { preHandler }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { search, tooShort } = autocompleteSearch(request.query);
    if (tooShort) return { data: [] };
    const page = await repo.list(db(), request.user, {
      page: 1,
      perPage: MAX_ITEMS,
      sort: config.label,
      search,
      filters: active ? [{ field: active, op: 'eq', value: 'true' }] : [],
    });
    return {
      data: page.data.map((row) => ({
        id: row.id,
        label: config.label.map((f) => row[f]).filter((v) => v !== null && v !== undefined && v !== '').join(' '),
      })),
    };
  });
}

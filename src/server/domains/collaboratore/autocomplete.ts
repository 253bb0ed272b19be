// Collaborator pickers (spec 000 §7): /api/autocomplete/collaboratore(i) and the superior sales points a collaborator may take.
import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { notFound } from '../../errors.ts';
import { parsePathId } from '../../http/contract.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import type { AuthUser } from '../../auth/user.ts';
import { collaboratoreLabel, subNetworkIds } from './network.ts';
import { autocompleteSearch } from '../../resources/autocomplete.ts';

const MAX_ITEMS = 20;
const MAX_WORDS = 5;

function searchWords(query: unknown): string[] {
  const { search } = autocompleteSearch(query);
  return search ? search.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS) : [];
}

/** The search starts above 2 characters: a shorter one answers an empty list. */
const tooShort = (query: unknown) => autocompleteSearch(query).tooShort;

/** Every word must appear in the name or surname: "rossi mario" finds MARIO ROSSI. */
function wordsCondition(words: string[]): Expression<SqlBool>[] {
  return words.map((word) => {
    const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<SqlBool>`(nome ILIKE ${pattern} OR cognome ILIKE ${pattern})`;
  });
}

/**
 * Who may be picked: users who see collaborators or every customer pick among all; a collaborator
 * (show_suoi_clienti only) can assign a customer to nobody but itself, so sees only itself.
 */
function scopeCondition(user: AuthUser): Expression<SqlBool> | undefined {
  if (hasPermission('show_collaboratori|show_tutti_clienti', user)) return undefined;
  return user.collaboratore_id === null ? sql<SqlBool>`false` : sql<SqlBool>`id = ${user.collaboratore_id}`;
}

async function activeCollaborators(app: FastifyInstance, conditions: Expression<SqlBool>[], limit?: number) {
  const where = sql.join([sql<SqlBool>`active IS TRUE`, ...conditions], sql` AND `);
  const rows = await sql<{ id: number; label: string }>`
    SELECT id, ${collaboratoreLabel} AS label FROM collaboratore WHERE ${where}
    ORDER BY label, id ${limit ? sql`LIMIT ${limit}` : sql``}`.execute(app.ctx.db);
  return { data: rows.rows };
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('collaboratore/autocomplete', async (app: FastifyInstance) => {
    const pickers = { preHandler: requirePermission('show_collaboratori|show_suoi_clienti') };
    for (const path of ['/api/autocomplete/collaboratore', '/api/autocomplete/collaboratori']) {
      app.get(path, pickers, async (request) => {
        if (tooShort(request.query)) return { data: [] };
        const scope = scopeCondition(request.user);
        return activeCollaborators(app, [...(scope ? [scope] : []), ...wordsCondition(searchWords(request.query))], MAX_ITEMS);
      });
    }

    // The collaborator form's selector: without an id (a collaborator not saved yet) every active one qualifies.
    const superiors = { preHandler: requirePermission('show_collaboratori|gestione_collaboratori') };
    app.get('/api/autocomplete/punto_vendita_superiore', superiors, async (request) =>
      (tooShort(request.query) ? { data: [] } : activeCollaborators(app, wordsCondition(searchWords(request.query)))));
    app.get('/api/autocomplete/punto_vendita_superiore/:id', superiors, async (request) => {
      const id = parsePathId((request.params as { id: string }).id, () => notFound('Collaboratore'));
      const exists = await sql`SELECT 1 FROM collaboratore WHERE id = ${id}`.execute(app.ctx.db);
      if (!exists.rows.length) throw notFound('Collaboratore');
      if (tooShort(request.query)) return { data: [] };
      // Neither itself nor anyone below it: choosing one of those would close a cycle.
      return activeCollaborators(app, [
        sql<SqlBool>`id <> ${id}`,
        sql<SqlBool>`id NOT IN (${subNetworkIds(id)})`,
        ...wordsCondition(searchWords(request.query)),
      ]);
    });
  });
}

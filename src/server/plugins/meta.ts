// Definitions for the client, list headers, OpenAPI, environment, health and per-user preferences.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Definitions, MenuEntry, PermissionAction, ResourceDefinition } from '../../shared/definitions/types.ts';
import { hasPermission, type Grants } from '../../shared/permissions.ts';
import { invalid, notFound } from '../errors.ts';
import { isMaintenance } from './maintenance.ts';
import { listFor } from '../../shared/definitions/read-masks.ts';

const PREFERENCE_PARAMS = { type: 'object', required: ['key'], properties: { key: { type: 'string', minLength: 1, maxLength: 100 } } };

const ACTIONS: PermissionAction[] = ['list', 'read', 'create', 'update', 'delete'];

/** A resource as GET /api/definitions serves it to `user` (the studio's preview serves a draft's the same way). */
export function servedResource(definitions: Definitions, d: ResourceDefinition, user: Grants) {
  return {
    name: d.name,
    resource: d.resource,
    schema: d.schema,
    // Columns of fields this user may not read are left out (the server answers null for them anyway).
    list: listFor(d, user),
    form: d.form,
    can: Object.fromEntries(ACTIONS.map((a) => [a, hasPermission(d.resource.permissions[a], user)])),
    // The client runs the same machine to show only the buttons the server would accept.
    ...(d.resource.workflow ? { workflow: definitions.workflows.get(d.resource.workflow.machine) } : {}),
  };
}

export default fp(async (app: FastifyInstance) => {
  const { definitions, config } = app.ctx;
  const headers = new Map([...definitions.resources.values()].filter((d) => d.resource.headers).map((d) => [d.resource.headers!, d.list]));

  app.get('/api/health', async (_request, reply) => {
    try {
      await sql`SELECT 1`.execute(app.ctx.db);
      return { status: 'ok', database: 'ok' };
    } catch {
      reply.code(503);
      return { status: 'error', database: 'unreachable', message: 'Database non raggiungibile.' };
    }
  });

  app.get('/api/environment', async () => ({ maintenance: await isMaintenance(app), appName: config.appName, ambiente: config.AMBIENTE }));

  // Generated from the registered routes, so it cannot drift from what the server accepts.
  app.get('/api/openapi.json', { schema: { tags: ['system'], summary: 'Documento OpenAPI 3.1 di questa API' } }, async () => app.swagger());

  app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);

    // Column configuration only, but every call carries the token (spec 000 §7): none answers 401, like the rest.
    scoped.get('/headers/:config', async (request) => {
      const name = (request.params as { config: string }).config.replace(/\.json$/, '');
      const list = headers.get(name);
      if (!list) throw notFound('Configurazione');
      return list;
    });

    scoped.get('/api/definitions', async (request, reply) => {
      const user = request.user;
      const resources = [...definitions.resources.values()]
        .filter((d) => hasPermission(d.resource.permissions.list, user) || hasPermission(d.resource.permissions.read, user))
        .map((d) => servedResource(definitions, d, user));
      const menu: MenuEntry[] = [
        ...definitions.staticMenu,
        ...[...definitions.resources.values()]
          .filter((d) => d.resource.menu && d.resource.routes?.list)
          .map((d) => ({
            title: d.resource.menu!.title,
            route: d.resource.routes!.list!.path,
            icon: d.resource.menu!.icon ?? d.resource.icon,
            permission: d.resource.permissions.list,
            order: d.resource.menu!.order ?? 100,
          })),
      ].filter((m) => hasPermission(m.permission, user)).sort((a, b) => a.order - b.order);
      // The dashboard's cards this user may open (spec 002 §2.1).
      const dashboard = definitions.dashboard.filter((c) => hasPermission(c.permission, user));
      reply.header('cache-control', 'no-store');
      return { resources, menu, dashboard };
    });

    // One per-user store, under the app's path and the spec's (spec 001 §7: POST/GET /api/remote-storage/{key}, {key, value}).
    const readPreference = async (userId: number, key: string) =>
      (await app.ctx.db.selectFrom('user_preference').select('value').where('user_id', '=', userId).where('key', '=', key).executeTakeFirst())?.value ?? null;
    const writePreference = async (userId: number, key: string, body: { value?: unknown } | undefined) => {
      if (!body || typeof body !== 'object' || !('value' in body)) throw invalid({ value: ['Campo Obbligatorio.'] });
      const text = JSON.stringify(body.value ?? null);
      if (text.length > 100_000) throw invalid({ value: ['Preferenza troppo grande.'] });
      await sql`INSERT INTO user_preference (user_id, key, value) VALUES (${userId}, ${key}, ${text}::jsonb)
                ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value`.execute(app.ctx.db);
    };

    scoped.get('/api/preferences/:key', { schema: { tags: ['preferences'], params: PREFERENCE_PARAMS } }, async (request) => {
      const key = (request.params as { key: string }).key;
      return { data: { value: await readPreference(request.user.id, key) } };
    });

    scoped.put('/api/preferences/:key', {
      schema: {
        tags: ['preferences'], summary: 'Salva una preferenza dell\'utente',
        params: PREFERENCE_PARAMS,
        body: { type: 'object', required: ['value'], properties: { value: {} } },
      },
    }, async (request) => {
      const key = (request.params as { key: string }).key;
      const body = request.body as { value?: unknown } | undefined;
      await writePreference(request.user.id, key, body);
      return { message: 'Preferenza salvata.', data: { value: body!.value } };
    });

    scoped.get('/api/remote-storage/:key', { schema: { tags: ['preferences'], summary: 'Preferenza dell\'utente (spec 001 §7)', params: PREFERENCE_PARAMS } }, async (request) => {
      const key = (request.params as { key: string }).key;
      return { data: { key, value: await readPreference(request.user.id, key) } };
    });

    scoped.post('/api/remote-storage/:key', {
      schema: {
        tags: ['preferences'], summary: 'Salva una preferenza dell\'utente, {key, value} (spec 001 §7)',
        params: PREFERENCE_PARAMS,
        body: { type: 'object', required: ['value'], properties: { key: { type: 'string' }, value: {} } },
      },
    }, async (request) => {
      const key = (request.params as { key: string }).key;
      const body = request.body as { key?: unknown; value?: unknown } | undefined;
      if (body && typeof body === 'object' && body.key !== undefined && body.key !== key) throw invalid({ key: ['La chiave non corrisponde a quella dell\'indirizzo.'] });
      await writePreference(request.user.id, key, body);
      return { message: 'Preferenza salvata.', data: { key, value: body!.value } };
    });
  });
}, { name: 'meta', dependencies: ['auth'] });

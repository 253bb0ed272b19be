// Definitions for the client, list headers, OpenAPI, environment, health and per-user preferences.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { MenuEntry, PermissionAction } from '../../shared/definitions/types.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { invalid, notFound } from '../errors.ts';
import { isMaintenance } from './maintenance.ts';

const PREFERENCE_PARAMS = { type: 'object', required: ['key'], properties: { key: { type: 'string', minLength: 1, maxLength: 100 } } };

const ACTIONS: PermissionAction[] = ['list', 'read', 'create', 'update', 'delete'];

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

  app.get('/api/environment', async () => ({ maintenance: await isMaintenance(app), appName: config.appName, ambiente: config.ambiente }));

  // Generated from the registered routes, so it cannot drift from what the server accepts.
  app.get('/api/openapi.json', { schema: { tags: ['system'], summary: 'Documento OpenAPI 3.1 di questa API' } }, async () => app.swagger());

  // Column configuration only, no data: public like the static files of the old product.
  app.get('/headers/:config', async (request) => {
    const name = (request.params as { config: string }).config.replace(/\.json$/, '');
    const list = headers.get(name);
    if (!list) throw notFound('Configurazione');
    return list;
  });

  app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);

    scoped.get('/api/definitions', async (request, reply) => {
      const user = request.user;
      const resources = [...definitions.resources.values()]
        .filter((d) => hasPermission(d.resource.permissions.list, user) || hasPermission(d.resource.permissions.read, user))
        .map((d) => ({
          name: d.name,
          resource: d.resource,
          schema: d.schema,
          list: d.list,
          form: d.form,
          can: Object.fromEntries(ACTIONS.map((a) => [a, hasPermission(d.resource.permissions[a], user)])),
          // The client runs the same machine to show only the buttons the server would accept.
          ...(d.resource.workflow ? { workflow: definitions.workflows.get(d.resource.workflow.machine) } : {}),
        }));
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
      reply.header('cache-control', 'no-store');
      return { resources, menu };
    });

    scoped.get('/api/preferences/:key', { schema: { tags: ['preferences'], params: PREFERENCE_PARAMS } }, async (request) => {
      const key = (request.params as { key: string }).key;
      const row = await app.ctx.db.selectFrom('user_preference').select('value').where('user_id', '=', request.user.id).where('key', '=', key).executeTakeFirst();
      return { data: { value: row?.value ?? null } };
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
      if (!body || !('value' in body)) throw invalid({ value: ['Campo Obbligatorio.'] });
      const text = JSON.stringify(body.value);
      if (text.length > 100_000) throw invalid({ value: ['Preferenza troppo grande.'] });
      await sql`INSERT INTO user_preference (user_id, key, value) VALUES (${request.user.id}, ${key}, ${text}::jsonb)
                ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value`.execute(app.ctx.db);
      return { message: 'Preferenza salvata.', data: { value: body.value } };
    });
  });
}, { name: 'meta', dependencies: ['auth'] });

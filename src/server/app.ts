// Builds the Fastify app from a database and the compiled definitions: engine plugins, then routes, then the SPA.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createAjv } from '../shared/validation.ts';
import type { AppConfig, AppContext } from './context.ts';
import { loadConfig } from './config.ts';
import { poolOf, type Database } from './db/connection.ts';
import { InstanceCache } from './cache.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import { defaultBody, errorHandler, installJsonParser, installValidator, refuseNul } from './http/contract.ts';
import { errorBody } from './errors.ts';
import { registerEntitySchemas, registerOpenApi } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security.ts';
import authPlugin from './plugins/auth.ts';
import maintenancePlugin from './plugins/maintenance.ts';
import metaPlugin from './plugins/meta.ts';
import resourcesPlugin from './plugins/resources.ts';
import documentiPlugin from './plugins/documenti.ts';
import validatorsPlugin from './plugins/validators.ts';
import { limitPublicRequests } from './plugins/rateLimit.ts';
import { registerDomains, type Domain } from './extensions.ts';
import { registerStoricoContesto } from './storico/richiesta.ts';
import { checkSchedules, Scheduler } from './scheduler/scheduler.ts';
import { engineJobs } from './scheduler/jobs.ts';
import schedulerPlugin from './scheduler/routes.ts';
import definizioniPlugin from './definizioni/routes.ts';
import { newerVersionBehind } from './definizioni/store.ts';
import type { DefinitionFiles } from './definitions.ts';
import { createMediaStore, mediaSettings } from './media/store.ts';
import { createFirmaProvider } from './adapters/firma/index.ts';
import type { FirmaProvider } from './adapters/firma/types.ts';

/** TRUST_PROXY: unset = the socket's address; 1/true = X-Forwarded-For from any proxy; else the proxies' addresses/CIDRs, comma-separated. */
export function trustProxy(value: string | undefined): boolean | string {
  if (!value || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

/** The app's own cache, listening for other instances' changes when the database came from connect(). */
async function instanceCache(db: Database, app: FastifyInstance): Promise<InstanceCache> {
  const cache = new InstanceCache();
  app.addHook('onClose', () => cache.close());
  // A write of this instance may end sessions: the next request first catches up with its notifications.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') cache.noteWrite();
    done(null, payload);
  });
  const pool = poolOf(db);
  if (pool) await cache.listen(pool.options).catch((error: Error) => app.log.warn(`cache listener: ${error.message}`));
  return cache;
}

export interface BuildOptions {
  db: Database;
  definitions: Definitions;
  /** The domain plugins (src/server/domains/index.ts), chosen by the entry point. */
  domains: readonly Domain[];
  /** The configuration read at start (loadConfig), or a test's overrides: validated here, unset values take the defaults. */
  config?: Partial<AppConfig>;
  logger?: FastifyServerOptions['logger'];
  /** A test's own signature provider (a sandbox with its clock and hooks) instead of the configured one. */
  firmaProvider?: FirmaProvider;
  /** The definitions version served and its files: with them, the routes of live changes (src/server/definizioni). */
  definizioni?: { versione: number; files: DefinitionFiles; applied?: (n: number) => Promise<void> };
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { appName = 'Broker Back Office', staticDir: servedDir, ...settings } = options.config ?? {};
  const config: AppConfig = { appName, staticDir: servedDir, ...loadConfig(settings) };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: trustProxy(config.TRUST_PROXY),
  });
  // First of all hooks: everything the request runs, down to the database driver, knows who writes (the history).
  registerStoricoContesto(app);
  // The domains register first: the validator needs the place codes one of them provides.
  const extensions = await registerDomains(app, options.definitions, options.domains);
  const workflows = extensions.workflows({ APP_URL: config.APP_URL });
  const placeCodes = await extensions.loadPlaceCodes(options.db);
  const cache = await instanceCache(options.db, app);
  const jobs = new Map([...engineJobs(config), ...extensions.jobs()]);
  const scheduler = new Scheduler(options.db, checkSchedules(options.definitions.schedules ?? [], jobs), jobs, { log: (line) => app.log.info(line) });
  const ctx: AppContext = { db: options.db, definitions: options.definitions, ajv: createAjv({ placeCodes }), config, workflows, cache, placeCodes, extensions,
    media: createMediaStore(mediaSettings(config)), firma: options.firmaProvider ?? createFirmaProvider(config), scheduler,
    definizioni: options.definizioni && { ...options.definizioni, domains: options.domains, applied: options.definizioni.applied ?? (async () => {}) } };
  app.decorate('ctx', ctx);
  // Every answer says which definitions served it: a client holding another set reloads it before its next submit.
  const versione = ctx.definizioni && String(ctx.definizioni.versione);
  if (versione) {
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('x-definizioni-versione', versione);
      done(null, payload);
    });
  }
  installJsonParser(app);
  // The old front end posted some actions as form data (spec 001 §7, cambioStato).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.setErrorHandler(async (error, request, reply) => {
    const newer = ctx.definizioni && await newerVersionBehind(error, ctx.db, ctx.definizioni.versione);
    if (!newer) return errorHandler(error as Error, request, reply);
    void ctx.definizioni!.applied(newer);
    return reply.code(503).header('retry-after', '1').send({ message: 'Le definizioni sono appena cambiate: riprova.', code: 'DEFINITIONS_CHANGED' });
  });
  installValidator(app, placeCodes);
  app.addHook('preValidation', defaultBody);
  app.addHook('preValidation', refuseNul);

  await registerSecurityHeaders(app);
  // Before any route: the document collects every route registered after it, and every route inherits the defaults.
  registerEntitySchemas(app, options.definitions, extensions);
  await registerOpenApi(app, config.appName);

  await app.register(maintenancePlugin);
  await app.register(authPlugin);
  await app.register(metaPlugin);
  await app.register(resourcesPlugin);
  await app.register(documentiPlugin);
  await app.register(validatorsPlugin);
  await app.register(schedulerPlugin);
  await app.register(definizioniPlugin);
  // Domain routes run behind authentication; each declares its own permissions with requirePermission.
  await app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);
    for (const plugin of extensions.routePlugins()) await scoped.register(plugin);
  });
  // Public routes (the customer's link) carry no token; each guards itself, and the address limit is counted before parsing.
  await app.register(async (scoped) => {
    scoped.addHook('onRequest', limitPublicRequests);
    for (const plugin of extensions.publicRoutePlugins()) await scoped.register(plugin);
  });

  const staticDir = config.staticDir;
  const spa = staticDir && existsSync(path.join(staticDir, 'index.html'));
  if (spa) await app.register(fastifyStatic, { root: path.resolve(staticDir), wildcard: false, index: false });
  app.setNotFoundHandler((request, reply) => {
    if (spa && request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/headers/')) {
      // Client-side routes (/cliente, /modifica/cliente/3, ...) all load the app shell.
      const file = request.url.split('?')[0]!.slice(1);
      if (file && !file.includes('..') && existsSync(path.join(staticDir, file)) && path.extname(file)) return reply.sendFile(file);
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(errorBody(404, 'Risorsa non trovata.'));
  });
  return app;
}

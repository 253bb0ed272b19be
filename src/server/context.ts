// What the app is built from, and the Fastify type augmentation every plugin relies on.
import type { Scheduler } from './scheduler/scheduler.ts';
import type { onRequestHookHandler } from 'fastify';
import type { Ajv } from 'ajv';
import type { MediaStore } from './media/store.ts';
import type { FirmaProvider } from './adapters/firma/types.ts';
import type { Database } from './db/connection.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import type { AuthUser } from './auth/user.ts';
import type { Workflow } from '../shared/workflow/machine.ts';
import type { InstanceCache } from './cache.ts';
import type { Config } from './config.ts';
import type { Domain, Extensions } from './extensions.ts';
import type { DefinitionFiles } from './definitions.ts';

/** The validated environment (config.ts; MAINTENANCE forces maintenance, a database setting can switch it on too) and the app's name. */
export interface AppConfig extends Config {
  appName: string;
  /** Built front end to serve, when present. */
  staticDir?: string;
}

export interface AppContext {
  db: Database;
  definitions: Definitions;
  ajv: Ajv;
  config: AppConfig;
  workflows: Map<string, Workflow>;
  /** This instance's sessions, grants and settings (never shared with another app, even in one process). */
  cache: InstanceCache;
  /** Every cadastral code, read once when the app is built. */
  placeCodes: ReadonlySet<string>;
  /** What the domains registered on this app (hooks, checks, actions, routes). */
  extensions: Extensions;
  /** The file store its configuration chose (MEDIA_STORAGE): another app in the process may use another. */
  media: MediaStore;
  /** The signature provider its configuration chose (FIRMA_ADAPTER), or a test's own sandbox. */
  firma: FirmaProvider;
  /** The one scheduler: work that must happen at a time (schemas/_shared/pianificazioni.json). */
  scheduler: Scheduler;
  /** The definitions version this app serves, its files, and how an applied change reaches this instance (src/server/definizioni). */
  definizioni?: DefinizioniServite;
}

export interface DefinizioniServite {
  versione: number;
  files: DefinitionFiles;
  domains: readonly Domain[];
  /** Makes this instance serve version n now (the other instances hear it from PostgreSQL). */
  applied(n: number): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** The onRequest hook of every signed-in route: sets request.user or answers 401. */
    authenticate: onRequestHookHandler;
  }
  interface FastifyRequest {
    user: AuthUser;
  }
}

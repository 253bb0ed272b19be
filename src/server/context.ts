// What the app is built from, and the Fastify type augmentation every plugin relies on.
import type { Ajv } from 'ajv';
import type { Database } from './db/connection.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import type { AuthUser } from './auth/user.ts';
import type { Workflow } from '../shared/workflow/machine.ts';
import type { InstanceCache } from './cache.ts';

export interface AppConfig {
  appName: string;
  ambiente: string;
  /** Maintenance forced by environment; a database setting can switch it on too. */
  maintenance: boolean;
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
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: AuthUser;
  }
}

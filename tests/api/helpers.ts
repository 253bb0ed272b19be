// Builds the whole app on a fresh database of the suite's PostgreSQL server, and calls it with inject.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { ensureAdmin, loadAll, prepareDatabase } from '../../src/server/bootstrap.ts';
import { connect, type Connection } from '../../src/server/db/connection.ts';
import { domains } from '../../src/server/domains/index.ts';
import type { FirmaProvider } from '../../src/server/adapters/firma/types.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const ADMIN = { email: 'admin@test.it', password: 'admin-password-123' };

export interface TestApp {
  app: FastifyInstance;
  connection: Connection;
  /** What the start's migration did and warned of. */
  migration: Awaited<ReturnType<typeof prepareDatabase>>;
  databaseUrl: string;
  call(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A login of the database that is not its owner: it may create tables in the public schema but not extensions (as
 * on a managed PostgreSQL where only an administrator installs them). Dropped with the database.
 */
async function restrictedLogin(database: { url: string; drop(): Promise<void> }): Promise<{ url: string; drop(): Promise<void> }> {
  const role = `limitato_${randomBytes(4).toString('hex')}`;
  const name = new URL(database.url).pathname.slice(1);
  await admin((c) => c.query(`CREATE ROLE ${role} LOGIN PASSWORD '${role}'; REVOKE CREATE ON DATABASE ${name} FROM PUBLIC; GRANT CONNECT ON DATABASE ${name} TO ${role}`));
  const owner = new URL(database.url);
  const client = new pg.Client({ connectionString: owner.toString() });
  await client.connect();
  await client.query(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`).finally(() => client.end());
  const url = new URL(database.url);
  url.username = role;
  url.password = role;
  return {
    url: url.toString(),
    drop: async () => {
      await database.drop();
      await admin((c) => c.query(`DROP ROLE IF EXISTS ${role}`));
    },
  };
}

export async function createTestApp(options: { schemasDir?: string; config?: Record<string, unknown>; firmaProvider?: FirmaProvider; restricted?: boolean } = {}): Promise<TestApp> {
  const database = options.restricted ? await restrictedLogin(await createDatabase()) : await createDatabase();
  const { definitions, roles } = await loadAll(options.schemasDir ?? path.join(ROOT, 'schemas'));
  const connection = connect(database.url, 5);
  const migration = await prepareDatabase(connection.db, definitions, roles, domains);
  await ensureAdmin(connection.db, ADMIN.email, ADMIN.password, () => {}, true);
  const app = await buildApp({ domains, db: connection.db, definitions, config: options.config, firmaProvider: options.firmaProvider });
  const call: TestApp['call'] = async (method, url, { token, body, headers } = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    let parsed: unknown = response.body;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.statusCode, body: parsed, headers: response.headers };
  };
  return {
    app,
    connection,
    migration,
    databaseUrl: database.url,
    call,
    async login(email, password) {
      const res = await call('POST', '/api/login', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    async close() {
      await app.close();
      await connection.close();
      await database.drop();
    },
  };
}

/** Creates a user through the API as admin and returns a token for it. */
export async function userWithRoles(t: TestApp, adminToken: string, user: { email: string; roles: string[]; collaboratore_id?: number }): Promise<string> {
  const password = 'user-password-1234';
  const res = await t.call('POST', '/api/utente', {
    token: adminToken,
    body: { email: user.email, name: user.email.split('@')[0]!.split(/[.-]/).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' '), password, ruoli: user.roles, ...(user.collaboratore_id ? { collaboratore_id: user.collaboratore_id } : {}) },
  });
  if (res.status !== 201) throw new Error(`create user failed: ${JSON.stringify(res.body)}`);
  // A role that requires two-step verification (staff): the test user gets a recorded exemption, as the demo users do.
  const id = Number(res.body.data.model.id);
  if ((await t.call('GET', `/api/utente/${id}/mfa`, { token: adminToken })).body.richiesta) {
    const exempt = await t.call('PUT', `/api/utente/${id}/mfa/esenzione`, { token: adminToken, body: { motivo: 'Utente di prova dei test API' } });
    if (exempt.status !== 200) throw new Error(`exemption failed: ${JSON.stringify(exempt.body)}`);
  }
  return t.login(user.email, password);
}

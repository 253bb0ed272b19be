// What the operators see: logs without secrets, health that tells the truth about the database.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { loadAll, prepareDatabase, ensureAdmin } from '../../src/server/bootstrap.ts';
import { connect } from '../../src/server/db/connection.ts';
import { ADMIN, ROOT, createDatabase } from './helpers.ts';
import { domains } from '../../src/server/domains/index.ts';

describe('logs', () => {
  it('never contain tokens or passwords', async () => {
    const database = await createDatabase();
    const { definitions, roles } = await loadAll(path.join(ROOT, 'schemas'));
    const connection = connect(database.url, 3);
    let logged = '';
    const stream = new Writable({ write(chunk, _enc, done) { logged += chunk.toString(); done(); } });
    try {
      await prepareDatabase(connection.db, definitions, roles, domains);
      await ensureAdmin(connection.db, ADMIN.email, ADMIN.password, () => {}, true);
      const app = await buildApp({ domains, db: connection.db, definitions, logger: { level: 'trace', stream } });
      const login = await app.inject({ method: 'POST', url: '/api/login', payload: ADMIN });
      const token = JSON.parse(login.body).token as string;
      await app.inject({ method: 'GET', url: '/api/cliente', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ method: 'PUT', url: '/api/account', headers: { authorization: `Bearer ${token}` }, payload: { password_attuale: ADMIN.password, password: 'another-password-42' } });
      await app.close();
      expect(logged.length).toBeGreaterThan(100);
      expect(logged).not.toContain(token);
      expect(logged).not.toContain(ADMIN.password);
      expect(logged).not.toContain('another-password-42');
    } finally {
      await connection.close();
      await database.drop();
    }
  });
});

describe('health', () => {
  it('answers 503 when the database cannot be reached', async () => {
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    // Port 9 (discard) on loopback: nothing listens there.
    const connection = connect('postgres://postgres@127.0.0.1:9/none', 1);
    const app = await buildApp({ domains, db: connection.db, definitions });
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'error', database: 'unreachable' });
    await app.close();
    await connection.close();
  });
});

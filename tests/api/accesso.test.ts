// Staff sign-in (issue 32): the idle timeout beside the absolute lifetime, the 'Sessioni attive' list and its revocation,
// and changed roles ending a user's sessions on every instance.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { connect, type Connection } from '../../src/server/db/connection.ts';
import { domains } from '../../src/server/domains/index.ts';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

const IDLE_SECONDS = 3;
const EXPIRED = 'Sessione scaduta. Effettua nuovamente il login.';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let b: FastifyInstance;
let bConnection: Connection;
let admin: string;

async function callB(method: string, url: string, token: string) {
  const res = await b.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, body: JSON.parse(res.body) as any };
}

async function loginFrom(email: string, password: string, userAgent: string): Promise<string> {
  const res = await t.call('POST', '/api/login', { body: { email, password }, headers: { 'user-agent': userAgent } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

beforeAll(async () => {
  t = await createTestApp({ config: { SESSION_IDLE_MINUTES: IDLE_SECONDS / 60 } });
  bConnection = connect(t.databaseUrl, 5);
  const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
  b = await buildApp({ domains, db: bConnection.db, definitions, config: { SESSION_IDLE_MINUTES: IDLE_SECONDS / 60 } });
});
// A fresh admin session per test: with a 3 s idle limit a shared one would expire between tests.
beforeEach(async () => {
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await b?.close();
  await bConnection?.close();
  await t?.close();
});

describe('idle timeout', () => {
  it('a session in use stays open past the idle limit; unused for longer it answers 401 with the Italian message', async () => {
    const token = await userWithRoles(t, admin, { email: 'inattivo@accesso.test', roles: ['staff'] });
    // Used every 0.5 s (on both instances) for twice the idle limit: still open.
    for (let i = 0; i < (IDLE_SECONDS * 2000) / 500; i++) {
      expect((await t.call('GET', '/api/user', { token })).status).toBe(200);
      expect((await callB('GET', '/api/user', token)).status).toBe(200);
      await pause(500);
    }
    await pause(IDLE_SECONDS * 1000 + 500);
    const expired = await t.call('GET', '/api/user', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe(EXPIRED);
    expect((await callB('GET', '/api/user', token)).body.message).toBe(EXPIRED);
    // The absolute lifetime still applies beside it: a fresh session works.
    expect((await t.call('GET', '/api/user', { token: await t.login('inattivo@accesso.test', 'user-password-1234') })).status).toBe(200);
  });

  it('the last use is written at most once per interval, not on every request', async () => {
    const token = await loginFrom('inattivo@accesso.test', 'user-password-1234', 'Probe/1');
    const usedAt = async () => (await sql<{ u: string }>`SELECT used_at::text AS u FROM auth_token WHERE user_agent = 'Probe/1'`.execute(t.connection.db)).rows[0]!.u;
    const first = await usedAt();
    for (let i = 0; i < 20; i++) expect((await t.call('GET', '/api/user', { token })).status).toBe(200);
    // 20 requests within a fraction of the interval (idle/4 = 0.75 s here) leave the stored last use as it was.
    expect(await usedAt()).toBe(first);
    await pause(900);
    expect((await t.call('GET', '/api/user', { token })).status).toBe(200);
    expect(await usedAt()).not.toBe(first);
  });
});

describe('Sessioni attive', () => {
  it('lists the own live sessions with device, address and last use; ends one, then all the others; recorded', async () => {
    const email = 'sessioni@accesso.test';
    const first = await userWithRoles(t, admin, { email, roles: ['staff'] });
    const laptop = await loginFrom(email, 'user-password-1234', 'Mozilla/5.0 (X11; Linux) Firefox/140.0');
    const phone = await loginFrom(email, 'user-password-1234', 'Mozilla/5.0 (iPhone) Safari/18');
    const list = await t.call('GET', '/api/account/sessioni', { token: laptop });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data[0]).toMatchObject({ corrente: true, dispositivo: 'Mozilla/5.0 (X11; Linux) Firefox/140.0', indirizzo: '127.0.0.1' });
    expect(Date.parse(list.body.data[0].ultimo_uso)).toBeGreaterThan(Date.now() - 60_000);
    expect(list.body.data.filter((s: { corrente: boolean }) => s.corrente)).toHaveLength(1);
    // Another user's list does not show them, nor can another user end them.
    const stranger = await userWithRoles(t, admin, { email: 'estraneo@accesso.test', roles: ['staff'] });
    const phoneId = list.body.data.find((s: { dispositivo: string }) => s.dispositivo?.includes('iPhone')).id as number;
    expect((await t.call('GET', '/api/account/sessioni', { token: stranger })).body.data).toHaveLength(1);
    expect((await t.call('DELETE', `/api/account/sessioni/${phoneId}`, { token: stranger })).status).toBe(404);
    expect((await t.call('GET', '/api/user', { token: phone })).status).toBe(200);

    // The phone's session is in B's cache: only the revocation's notification can end it there.
    expect((await callB('GET', '/api/user', phone)).status).toBe(200);
    const ended = await t.call('DELETE', `/api/account/sessioni/${phoneId}`, { token: laptop });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body).toMatchObject({ message: 'Sessione terminata.', terminate: 1 });
    expect((await t.call('GET', '/api/user', { token: phone })).status).toBe(401);
    await expect.poll(async () => (await callB('GET', '/api/user', phone)).status, { timeout: 1000, interval: 10 }).toBe(401);
    expect((await t.call('DELETE', `/api/account/sessioni/${phoneId}`, { token: laptop })).status).toBe(404);

    const others = await t.call('DELETE', '/api/account/sessioni', { token: laptop });
    expect(others.body).toMatchObject({ terminate: 1, message: 'Terminata 1 altra sessione.' });
    expect((await t.call('GET', '/api/user', { token: first })).status).toBe(401);
    expect((await t.call('GET', '/api/user', { token: laptop })).status).toBe(200);
    expect((await t.call('GET', '/api/account/sessioni', { token: laptop })).body.data).toHaveLength(1);

    const me = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = ${email}`.execute(t.connection.db)).rows[0]!.id;
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${me}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    expect(events.slice(0, 2)).toEqual(['sessioni_terminate', 'sessione_terminata']);
  });

  it('refuses bad ids as invalid (not a 500) and needs a session', async () => {
    for (const id of ['abc', '0', '-1', '99999999999999999999', '1.5']) {
      expect((await t.call('DELETE', `/api/account/sessioni/${id}`, { token: admin })).status).toBe(422);
    }
    expect((await t.call('GET', '/api/account/sessioni')).status).toBe(401);
    expect((await t.call('DELETE', '/api/account/sessioni')).status).toBe(401);
  });
});

describe('changed roles end the sessions', () => {
  it('changing a user\'s roles on one instance ends their sessions on the other within 1 s; recorded', async () => {
    const token = await userWithRoles(t, admin, { email: 'ruoli@accesso.test', roles: ['staff'] });
    expect((await callB('GET', '/api/user', token)).status).toBe(200);
    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = 'ruoli@accesso.test'`.execute(t.connection.db)).rows[0]!.id;
    const current = await t.call('GET', `/api/utente/${id}`, { token: admin });
    // The same roles again is no change: the session stays.
    const same = await t.call('PUT', `/api/utente/${id}`, { token: admin, body: { ruoli: ['staff'], version: current.body.data.version } });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect((await callB('GET', '/api/user', token)).status).toBe(200);
    const changed = await t.call('PUT', `/api/utente/${id}`, { token: admin, body: { ruoli: ['staff', 'cassiere'], version: (await t.call('GET', `/api/utente/${id}`, { token: admin })).body.data.version } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expect.poll(async () => (await callB('GET', '/api/user', token)).status, { timeout: 1000, interval: 10 }).toBe(401);
    expect((await t.call('GET', '/api/user', { token })).status).toBe(401);
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${id}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    expect(events[0]).toBe('sessioni_revocate');
  });
});

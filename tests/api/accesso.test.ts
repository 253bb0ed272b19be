// Staff sign-in (issue 32): the idle timeout beside the absolute lifetime, the 'Sessioni attive' list and its revocation,
// and changed roles ending a user's sessions on every instance.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generateSync } from 'otplib';
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

  it('deactivating a user on one instance ends their session on the other within 1 s', async () => {
    const token = await userWithRoles(t, admin, { email: 'disattiva@accesso.test', roles: ['collaboratore'] });
    expect((await callB('GET', '/api/user', token)).status).toBe(200);
    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = 'disattiva@accesso.test'`.execute(t.connection.db)).rows[0]!.id;
    const version = (await t.call('GET', `/api/utente/${id}`, { token: admin })).body.data.version;
    const off = await t.call('PUT', `/api/utente/${id}`, { token: admin, body: { attivo: false, version } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await expect.poll(async () => (await callB('GET', '/api/user', token)).status, { timeout: 1000, interval: 10 }).toBe(401);
  });
});

describe('two-step verification (TOTP)', () => {
  const email = 'totp@accesso.test';
  const password = 'user-password-1234';
  const code = (secret: string, step: number) => generateSync({ secret, epoch: step * 30 });
  const nowStep = () => Math.floor(Date.now() / 30_000);

  async function passwordStep(): Promise<string> {
    const res = await t.call('POST', '/api/login', { body: { email, password } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ mfa_richiesta: true, token_mfa: expect.any(String) });
    return res.body.token_mfa as string;
  }

  it('enrols with password and a first code, then logs in with a code once, with a recovery code once; a replayed code is refused', async () => {
    const token = await userWithRoles(t, admin, { email, roles: ['staff'] });
    expect((await t.call('POST', '/api/account/mfa/attiva', { token, body: { password: 'sbagliata-12345' } })).status).toBe(422);
    const start = await t.call('POST', '/api/account/mfa/attiva', { token, body: { password } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const { secret, otpauth_url: url, qr } = start.body as { secret: string; otpauth_url: string; qr: string };
    expect(url).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(url).toContain(encodeURIComponent(email));
    expect(Buffer.from(qr.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');
    // Not on until confirmed: the password alone still opens a session.
    expect((await t.call('POST', '/api/login', { body: { email, password } })).body.token).toEqual(expect.any(String));
    expect((await t.call('POST', '/api/account/mfa/conferma', { token, body: { codice: '000000' === code(secret, nowStep()) ? '111111' : '000000' } })).status).toBe(422);
    const confirmed = await t.call('POST', '/api/account/mfa/conferma', { token, body: { codice: code(secret, nowStep() - 1) } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const recovery = confirmed.body.codici_recupero as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    // Stored hashed: no code in clear in the database.
    const stored = JSON.stringify((await sql`SELECT codici_recupero FROM auth_mfa`.execute(t.connection.db)).rows);
    for (const c of recovery) expect(stored).not.toContain(c.replace('-', ''));

    // Password then code: the usual login payload.
    let challenge = await passwordStep();
    const current = code(secret, nowStep());
    const login = await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: current } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body).toMatchObject({ token: expect.any(String), user: { email } });
    expect((await t.call('GET', '/api/user', { token: login.body.token })).status).toBe(200);
    // The challenge is spent, and the same code is not accepted twice (nor an earlier one).
    expect((await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: current } })).status).toBe(401);
    challenge = await passwordStep();
    const replay = await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: current } });
    expect(replay.status).toBe(422);
    expect(replay.body.errors.codice).toEqual(['Codice non valido.']);
    expect((await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: code(secret, nowStep() - 1) } })).status).toBe(422);

    // A recovery code works once, in any spelling.
    const viaRecovery = await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: recovery[0]!.toLowerCase() } });
    expect(viaRecovery.status, JSON.stringify(viaRecovery.body)).toBe(200);
    challenge = await passwordStep();
    expect((await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: recovery[0] } })).status).toBe(422);

    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = ${email}`.execute(t.connection.db)).rows[0]!.id;
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${id}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    expect(events.slice(0, 6)).toEqual(['mfa_fallito', 'login', 'codice_recupero_usato', 'mfa_fallito', 'mfa_fallito', 'login']);
    expect(events).toContain('mfa_attivata');
  });

  it('wrong codes count in the login throttle: after 5 the pair is refused, the right code too', async () => {
    // The previous test's refused codes are still counted: start from none.
    await sql`DELETE FROM auth_login_failure`.execute(t.connection.db);
    const challenge = await passwordStep();
    for (let i = 0; i < 5; i++) {
      expect((await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: String(100000 + i) } })).status).toBe(422);
    }
    const refused = await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: '123456' } });
    expect(refused.status).toBe(429);
    // The password step is refused as well: one counter for both.
    expect((await t.call('POST', '/api/login', { body: { email, password } })).status).toBe(429);
    await sql`DELETE FROM auth_login_failure`.execute(t.connection.db);
  });

  it('turning it off needs the password and a code; a super_admin resets it (sessions end, recorded); bad input is refused', async () => {
    const secret = (await sql<{ secret: string }>`SELECT secret FROM auth_mfa a JOIN utente u ON u.id = a.user_id WHERE u.email = ${email}`.execute(t.connection.db)).rows[0]!.secret;
    let challenge = await passwordStep();
    // A fresh step: the last accepted one may be the current.
    const later = (s: number) => code(secret, s);
    const lastStep = Number((await sql<{ p: string }>`SELECT ultimo_passo::text AS p FROM auth_mfa`.execute(t.connection.db)).rows[0]!.p);
    let step = Math.max(nowStep() - 1, lastStep + 1);
    const session = await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: later(step++) } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const token = session.body.token as string;
    expect((await t.call('DELETE', '/api/account/mfa', { token, body: { password, codice: '12' } })).status).toBe(422);
    expect((await t.call('DELETE', '/api/account/mfa', { token, body: { password: 'sbagliata-1234', codice: later(step) } })).status).toBe(422);
    expect((await t.call('DELETE', '/api/account/mfa', { token, body: null })).status).toBe(422);
    await sql`DELETE FROM auth_login_failure`.execute(t.connection.db);

    // A staff user cannot reset another's verification; a super_admin can.
    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = ${email}`.execute(t.connection.db)).rows[0]!.id;
    expect((await t.call('DELETE', `/api/utente/${id}/mfa`, { token })).status).toBe(403);
    expect((await t.call('DELETE', '/api/utente/abc/mfa', { token: admin })).status).toBe(422);
    expect((await t.call('DELETE', '/api/utente/999999/mfa', { token: admin })).status).toBe(404);
    const reset = await t.call('DELETE', `/api/utente/${id}/mfa`, { token: admin });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await t.call('GET', '/api/user', { token })).status).toBe(401);
    const again = await t.call('POST', '/api/login', { body: { email, password } });
    expect(again.body.token).toEqual(expect.any(String));
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${id}&azione=accesso`, { token: admin })).body.data;
    expect(events[1]).toMatchObject({ evento: 'mfa_reimpostata', utente: { name: 'Amministratore' } });

    // Enrol again, then turn it off with the password and a code.
    const own = again.body.token as string;
    const fresh = (await t.call('POST', '/api/account/mfa/attiva', { token: own, body: { password } })).body.secret as string;
    expect((await t.call('POST', '/api/account/mfa/conferma', { token: own, body: { codice: code(fresh, nowStep() - 1) } })).status).toBe(200);
    const off = await t.call('DELETE', '/api/account/mfa', { token: own, body: { password, codice: code(fresh, nowStep()) } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await t.call('POST', '/api/login', { body: { email, password } })).body.token).toEqual(expect.any(String));
    challenge = 'scaduta';
    expect((await t.call('POST', '/api/login/mfa', { body: { token_mfa: challenge, codice: '123456' } })).status).toBe(401);
    expect((await t.call('POST', '/api/login/mfa', { body: null })).status).toBe(422);
  });
});

describe('verification required by the role', () => {
  const password = 'user-password-1234';
  const code = (secret: string, step: number) => generateSync({ secret, epoch: step * 30 });
  const nowStep = () => Math.floor(Date.now() / 30_000);
  const REQUIRED = 'Attiva la verifica in due passaggi per continuare.';

  async function createUser(email: string, roles: string[]): Promise<number> {
    const res = await t.call('POST', '/api/utente', { token: admin, body: { email, name: 'Nuovo Utente', password, ruoli: roles } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.model.id as number;
  }

  it('a staff user without it gets a session that can only enrol; once enrolled the same session reaches everything', async () => {
    const email = 'obbligo@accesso.test';
    const id = await createUser(email, ['staff']);
    const login = await t.call('POST', '/api/login', { body: { email, password } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ token: expect.any(String), mfa_da_attivare: true });
    const token = login.body.token as string;
    for (const url of ['/api/cliente', '/api/account/sessioni', '/api/storico', '/api/dashboard']) {
      const refused = await t.call('GET', url, { token });
      expect(refused.status, url).toBe(403);
      expect(refused.body).toMatchObject({ code: 'MFA_REQUIRED', message: REQUIRED });
    }
    expect((await t.call('PUT', '/api/account', { token, body: { name: 'Altro Nome' } })).body.code).toBe('MFA_REQUIRED');
    expect((await t.call('GET', '/api/user', { token })).body.mfa_da_attivare).toBe(true);
    expect((await t.call('GET', '/api/account/mfa', { token })).body).toEqual({ attiva: false, richiesta: true, esente: false });
    // The same requirement on a second instance.
    expect((await callB('GET', '/api/cliente', token)).body.code).toBe('MFA_REQUIRED');

    const start = await t.call('POST', '/api/account/mfa/attiva', { token, body: { password } });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const confirmed = await t.call('POST', '/api/account/mfa/conferma', { token, body: { codice: code(start.body.secret, nowStep()) } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await t.call('GET', '/api/cliente', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/user', { token })).body.mfa_da_attivare).toBe(false);
    expect((await t.call('GET', '/api/account/mfa', { token })).body).toEqual({ attiva: true, richiesta: true, esente: false });
    // The other instance learns it from the notification.
    let other = 0;
    for (let i = 0; i < 40 && other !== 200; i++, await pause(50)) other = (await callB('GET', '/api/cliente', token)).status;
    expect(other).toBe(200);
    // Its role keeps it on: the user cannot turn it off.
    const off = await t.call('DELETE', '/api/account/mfa', { token, body: { password, codice: code(start.body.secret, nowStep() + 1) } });
    expect(off.status).toBe(422);
    expect(off.body.errors.codice).toEqual(['Il tuo ruolo richiede la verifica in due passaggi: non può essere disattivata.']);
    expect((await t.call('GET', `/api/utente/${id}/mfa`, { token: admin })).body).toEqual({ attiva: true, richiesta: true, esenzione: null });
  });

  it('a role without the requirement (collaboratore) logs in as before', async () => {
    const email = 'libero@accesso.test';
    await createUser(email, ['collaboratore']);
    const login = await t.call('POST', '/api/login', { body: { email, password } });
    expect(login.body.mfa_da_attivare).toBe(false);
    expect((await t.call('GET', '/api/account/sessioni', { token: login.body.token })).status).toBe(200);
  });

  it('a super_admin grants and revokes an exemption with its reason, shown to them and recorded; nobody else can', async () => {
    const email = 'esente@accesso.test';
    const id = await createUser(email, ['staff']);
    const token = await t.login(email, password);
    expect((await t.call('GET', '/api/cliente', { token })).status).toBe(403);
    expect((await t.call('GET', `/api/utente/${id}/mfa`, { token: admin })).body).toEqual({ attiva: false, richiesta: true, esenzione: null });
    expect((await t.call('PUT', `/api/utente/${id}/mfa/esenzione`, { token: admin, body: { motivo: ' ' } })).status).toBe(422);
    expect((await t.call('PUT', `/api/utente/${id}/mfa/esenzione`, { token: admin, body: null })).status).toBe(422);
    expect((await t.call('PUT', '/api/utente/abc/mfa/esenzione', { token: admin, body: { motivo: 'Postazione condivisa' } })).status).toBe(422);
    expect((await t.call('PUT', '/api/utente/999999/mfa/esenzione', { token: admin, body: { motivo: 'Postazione condivisa' } })).status).toBe(404);
    const staff = await userWithRoles(t, admin, { email: 'altro-staff@accesso.test', roles: ['staff'] });
    expect((await t.call('PUT', `/api/utente/${id}/mfa/esenzione`, { token: staff, body: { motivo: 'Postazione condivisa' } })).status).toBe(403);
    expect((await t.call('GET', `/api/utente/${id}/mfa`, { token: staff })).status).toBe(403);

    const granted = await t.call('PUT', `/api/utente/${id}/mfa/esenzione`, { token: admin, body: { motivo: 'Postazione condivisa' } });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect((await t.call('GET', '/api/cliente', { token })).status).toBe(200);
    expect((await t.call('GET', `/api/utente/${id}/mfa`, { token: admin })).body).toEqual({
      attiva: false, richiesta: true, esenzione: { motivo: 'Postazione condivisa', concessa_da: 'Amministratore', concessa_il: expect.any(String) },
    });
    const revoked = await t.call('DELETE', `/api/utente/${id}/mfa/esenzione`, { token: admin });
    expect(revoked.status).toBe(200);
    expect((await t.call('GET', '/api/cliente', { token })).body.code).toBe('MFA_REQUIRED');
    expect((await t.call('DELETE', `/api/utente/${id}/mfa/esenzione`, { token: admin })).status).toBe(422);
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${id}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    expect(events).toEqual(expect.arrayContaining(['mfa_esenzione_concessa', 'mfa_esenzione_revocata', 'login']));
  });

  it('the first admin of a test install is exempt, with the recorded reason', async () => {
    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = ${ADMIN.email}`.execute(t.connection.db)).rows[0]!.id;
    const state = await t.call('GET', `/api/utente/${id}/mfa`, { token: admin });
    expect(state.body).toMatchObject({ richiesta: true, esenzione: { concessa_da: 'avvio', motivo: expect.stringContaining('ADMIN_MFA_ESENTE') } });
  });
});

describe('password reset', () => {
  const email = 'dimenticata@accesso.test';
  const SENT = "Se l'indirizzo appartiene a un utente attivo, riceverà un'e-mail con il link per reimpostare la password (valido 30 minuti).";
  const INVALID = 'Il link per reimpostare la password non è valido o è scaduto: richiedine uno nuovo.';

  async function linkToken(): Promise<string> {
    const mail = (await sql<{ corpo: string }>`SELECT corpo FROM email_outbox WHERE destinatario = ${email} ORDER BY id DESC LIMIT 1`.execute(t.connection.db)).rows[0]!;
    return /reimposta-password\?token=([\w-]+)/.exec(mail.corpo)![1]!;
  }

  it('answers the same whether the address exists or not; the e-mailed link works once, ends every session and is recorded', async () => {
    const session = await userWithRoles(t, admin, { email, roles: ['collaboratore'] });
    const unknown = await t.call('POST', '/api/password/dimenticata', { body: { email: 'nessuno@accesso.test' } });
    const known = await t.call('POST', '/api/password/dimenticata', { body: { email: email.toUpperCase() } });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({ message: SENT });
    expect((await sql`SELECT 1 FROM email_outbox WHERE destinatario = 'nessuno@accesso.test'`.execute(t.connection.db)).rows).toHaveLength(0);
    const token = await linkToken();
    // The token is stored hashed only.
    expect(JSON.stringify((await sql`SELECT * FROM auth_password_reset`.execute(t.connection.db)).rows)).not.toContain(token);

    const tooShort = await t.call('POST', '/api/password/reimposta', { body: { token, password: 'corta' } });
    expect(tooShort.status).toBe(422);
    expect(tooShort.body.errors.password).toEqual(['La password deve contenere almeno 12 caratteri.']);
    const common = await t.call('POST', '/api/password/reimposta', { body: { token, password: 'Qwerty123456' } });
    expect(common.status).toBe(422);
    expect(common.body.errors.password).toEqual(["Questa password è tra le più diffuse e facili da indovinare: scegline un'altra."]);
    const wrong = await t.call('POST', '/api/password/reimposta', { body: { token: 'x' + token.slice(1), password: 'Nuova-password-2026' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.token).toEqual([INVALID]);

    const reset = await t.call('POST', '/api/password/reimposta', { body: { token, password: 'Nuova-password-2026' } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await t.call('GET', '/api/user', { token: session })).status).toBe(401);
    expect((await t.call('POST', '/api/login', { body: { email, password: 'user-password-1234' } })).status).toBe(422);
    await t.login(email, 'Nuova-password-2026');
    // Single use.
    const again = await t.call('POST', '/api/password/reimposta', { body: { token, password: 'Altra-password-2026' } });
    expect(again.status).toBe(422);
    expect(again.body.errors.token).toEqual([INVALID]);

    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = ${email}`.execute(t.connection.db)).rows[0]!.id;
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${id}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    expect(events).toEqual(expect.arrayContaining(['reset_password_richiesto', 'reset_password']));
  });

  it('a link older than 30 minutes is refused; a newer request voids the earlier link; bad input is refused, not a 500', async () => {
    await t.call('POST', '/api/password/dimenticata', { body: { email } });
    const first = await linkToken();
    await t.call('POST', '/api/password/dimenticata', { body: { email } });
    const second = await linkToken();
    expect(second).not.toBe(first);
    expect((await t.call('POST', '/api/password/reimposta', { body: { token: first, password: 'Nuova-password-2027' } })).status).toBe(422);
    await sql`UPDATE auth_password_reset SET expires_at = now() - interval '1 second'`.execute(t.connection.db);
    expect((await t.call('POST', '/api/password/reimposta', { body: { token: second, password: 'Nuova-password-2027' } })).body.errors.token).toEqual([INVALID]);
    for (const body of [null, {}, { email: '' }, { email: { a: { b: {} } } }]) {
      expect((await t.call('POST', '/api/password/dimenticata', { body })).status, JSON.stringify(body)).toBe(422);
    }
    for (const body of [null, {}, { token: 'x' }, { token: ['a'], password: 'Nuova-password-2027' }]) {
      expect((await t.call('POST', '/api/password/reimposta', { body })).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('a new password of the own account or of a new user is refused when among the most common', async () => {
    const token = await userWithRoles(t, admin, { email: 'comune@accesso.test', roles: ['collaboratore'] });
    const own = await t.call('PUT', '/api/account', { token, body: { password_attuale: 'user-password-1234', password: 'passwordpassword' } });
    expect(own.status).toBe(422);
    expect(own.body.errors.password).toEqual(["Questa password è tra le più diffuse e facili da indovinare: scegline un'altra."]);
    const created = await t.call('POST', '/api/utente', { token: admin, body: { email: 'comune2@accesso.test', name: 'Comune Due', password: '1q2w3e4r5t6y', ruoli: ['collaboratore'] } });
    expect(created.status).toBe(422);
    expect(created.body.errors.password).toEqual(["Questa password è tra le più diffuse e facili da indovinare: scegline un'altra."]);
  });
});

// Single sign-on (issue 32): authorization code with PKCE against a real OpenID provider on 127.0.0.1; the user is
// matched by verified e-mail to an active local user, an unknown or unverified e-mail is refused, all recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';
import { loginAtProvider, startProvider, type TestProvider } from './support/oidc-provider.ts';

const REDIRECT = 'http://127.0.0.1:3999/api/sso/ritorno';
let provider: TestProvider;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  provider = await startProvider([REDIRECT]);
  t = await createTestApp({
    config: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_REDIRECT_URL: REDIRECT, OIDC_NOME: 'Provider di prova' },
  });
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** From the login button to the provider and back: where the app then sends the browser. */
async function roundTrip(login: string): Promise<string> {
  const start = await t.call('GET', '/api/sso/inizio');
  expect(start.status).toBe(302);
  const authorization = new URL(String(start.headers.location));
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  const back = new URL(await loginAtProvider(authorization.href, login, REDIRECT));
  const done = await t.call('GET', `${back.pathname}${back.search}`);
  expect(done.status).toBe(302);
  return String(done.headers.location);
}

describe('single sign-on', () => {
  it('the login page learns the provider name', async () => {
    expect((await t.call('GET', '/api/sso')).body).toEqual({ nome: 'Provider di prova' });
  });

  it('a verified e-mail of an active user opens a session (no second step asked), once per ticket; recorded', async () => {
    const created = await t.call('POST', '/api/utente', { token: admin, body: { email: 'sso.staff@accesso.test', name: 'Sso Staff', password: 'user-password-1234', ruoli: ['staff'] } });
    expect(created.status).toBe(201);
    const where = await roundTrip('SSO.Staff@accesso.test');
    const ticket = /^\/login#sso=([\w-]+)$/.exec(where)?.[1];
    expect(ticket, where).toBeTruthy();
    const session = await t.call('POST', '/api/sso/sessione', { body: { biglietto: ticket } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    expect(session.body).toMatchObject({ token: expect.any(String), user: { email: 'sso.staff@accesso.test' }, mfa_da_attivare: false });
    // Staff requires verification, and the provider's counts as the second step: the session reaches everything.
    expect((await t.call('GET', '/api/cliente', { token: session.body.token })).status).toBe(200);
    expect((await t.call('POST', '/api/sso/sessione', { body: { biglietto: ticket } })).status).toBe(401);
    const id = created.body.data.model.id as number;
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${id}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    expect(events).toContain('login_sso');
  });

  it('an e-mail no active user has, or one the provider has not verified, is refused; no account is created', async () => {
    expect(await roundTrip('sconosciuto@accesso.test')).toBe('/login?sso=sconosciuto');
    expect(await roundTrip('nonverificato@accesso.test')).toBe('/login?sso=errore');
    const users = await t.call('GET', '/api/utente?per_page=100', { token: admin });
    expect(JSON.stringify(users.body)).not.toContain('sconosciuto@accesso.test');
    // A state the app did not issue, or one already spent, is refused the same way.
    expect((await t.call('GET', '/api/sso/ritorno?code=abc&state=inventato')).headers.location).toBe('/login?sso=errore');
    for (const body of [null, {}, { biglietto: 'x' }, { biglietto: { a: 1 } }]) {
      expect([401, 422]).toContain((await t.call('POST', '/api/sso/sessione', { body })).status);
    }
  });
});

describe('single sign-on not configured', () => {
  it('answers 404 and an empty name', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.call('GET', '/api/sso')).body).toEqual({ nome: null });
      expect((await plain.call('GET', '/api/sso/inizio')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

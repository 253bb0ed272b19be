// Login throttling per account and address, security headers, blank passwords, redacted query strings in logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { redactUrl } from '../../src/server/http/logging.ts';

let t: TestApp;
let admin: string;

const login = (email: string, password: string, address: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: address, payload: { email, password } });

beforeAll(async () => {
  t = await createTestApp({ config: { LOGIN_SLOW_BASE_MS: 300 } });
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

describe('login throttling', () => {
  it('five wrong passwords from one address do not stop the owner logging in from another', async () => {
    await userWithRoles(t, admin, { email: 'owner@test.it', roles: ['staff'] });
    for (let i = 0; i < 5; i++) expect((await login('owner@test.it', `wrong-${i}-password`, '203.0.113.9')).statusCode).toBe(422);
    const stranger = await login('owner@test.it', 'user-password-1234', '203.0.113.9');
    expect(stranger.statusCode).toBe(429);
    expect(JSON.parse(stranger.body).message).toContain('Troppi tentativi');
    const owner = await login('owner@test.it', 'user-password-1234', '198.51.100.7');
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('many failures from many addresses slow the account down, without refusing its owner', async () => {
    await userWithRoles(t, admin, { email: 'sprayed@test.it', roles: ['staff'] });
    for (let i = 0; i < 11; i++) expect((await login('sprayed@test.it', `wrong-${i}-password`, `192.0.2.${i + 1}`)).statusCode).toBe(422);
    const started = Date.now();
    const owner = await login('sprayed@test.it', 'user-password-1234', '198.51.100.50');
    expect(owner.statusCode, owner.body).toBe(200);
    // 11 failures: one past the limit of 10, so 2 × the base delay (300 ms in this test).
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('passwords', () => {
  it('a password of only spaces is refused on users and on the own account', async () => {
    const res = await t.call('POST', '/api/utente', { token: admin, body: { email: 'blank@test.it', name: 'Blank', password: ' '.repeat(14), ruoli: ['staff'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toEqual(['La password non può essere composta solo da spazi.']);
    const account = await t.call('PUT', '/api/account', { token: admin, body: { password_attuale: ADMIN.password, password: ' '.repeat(14) } });
    expect(account.status).toBe(422);
    expect(account.body.errors.password).toEqual(['La password non può essere composta solo da spazi.']);
  });
});

describe('security headers', () => {
  it('every answer carries CSP, frame-ancestors, nosniff and Referrer-Policy', async () => {
    for (const url of ['/api/health', '/api/cliente', '/api/nope']) {
      const res = await t.call('GET', url, { token: admin });
      // Scripts only from the app's files: never inline.
      expect(/script-src ([^;]*);/.exec(String(res.headers['content-security-policy']))?.[1]).not.toContain('unsafe-inline');
      // Nor eval: the forms' validators come compiled from the server.
      expect(/script-src ([^;]*);/.exec(String(res.headers['content-security-policy']))?.[1]).toBe("'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('logs', () => {
  it('redacts token-like and search values in query strings', () => {
    expect(redactUrl('/api/cliente?page=2&search=rossi%20mario&token=abc&filter%5Bcf%5D=RSSMRA&per_page=10'))
      .toBe('/api/cliente?page=2&search=[REDACTED]&token=[REDACTED]&filter%5Bcf%5D=[REDACTED]&per_page=10');
    expect(redactUrl('/api/cliente/3')).toBe('/api/cliente/3');
  });
});

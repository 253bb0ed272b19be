// The forms' validators compiled by the server (POST /api/validators, GET /api/validators/{key}.js): the browser
// imports them, so the Content-Security-Policy needs no 'unsafe-eval'. No login (the public link has forms too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let cliente: Record<string, unknown>;

beforeAll(async () => {
  t = await createTestApp();
  cliente = t.app.ctx.definitions.resources.get('cliente')!.schema as Record<string, unknown>;
});
afterAll(() => t?.close());

describe('form validators', () => {
  it('compiles a form schema into an immutable module any instance serves from the database', async () => {
    const posted = await t.call('POST', '/api/validators', { body: { schema: cliente } });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body.url).toMatch(/^\/api\/validators\/[0-9a-f]{32}\.js$/);
    // The same schema, the same address (the address is the code's hash).
    expect((await t.call('POST', '/api/validators', { body: { schema: cliente } })).body.url).toBe(posted.body.url);
    const module = await t.call('GET', posted.body.url);
    expect(module.status).toBe(200);
    expect(String(module.headers['content-type'])).toMatch(/^text\/javascript/);
    expect(module.headers['cache-control']).toContain('immutable');
    expect(String(module.body)).toMatch(/^export default function \(require\)/);
    // Without eval, nothing may build code at run time in the module either.
    expect(String(module.body)).not.toMatch(/new Function|eval\(/);
    const stored = await t.connection.db.selectFrom('validator_module' as never).select('key' as never).execute();
    expect(stored.map((r) => (r as { key: string }).key)).toContain(posted.body.url.slice('/api/validators/'.length, -3));
  });

  it('refuses what the definitions do not declare, at the field, in Italian', async () => {
    const cases = [
      { schema: { type: 'object', properties: { a: { $ref: 'http://example.com/x.json' } } } },
      { schema: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } } },
      { schema: { type: 'object', patternProperties: { '^(a|a)*$': { type: 'string' } } } },
      { schema: { type: 5 } },
    ];
    for (const body of cases) {
      const res = await t.call('POST', '/api/validators', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.schema[0]).toMatch(/non|Schema/);
    }
    expect((await t.call('POST', '/api/validators', { body: {} })).status).toBe(422);
    expect((await t.call('POST', '/api/validators', { body: { schema: 'x' } })).status).toBe(422);
  });

  it('compiles a pattern the definitions do not declare yet for whoever manages them (the studio\'s preview), for no one else', async () => {
    const draft = { schema: { type: 'object', properties: { codice_rete: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' } } } };
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const staff = await userWithRoles(t, admin, { email: 'validatori.staff@example.it', roles: ['staff'] });
    expect((await t.call('POST', '/api/validators', { body: draft })).status).toBe(422);
    expect((await t.call('POST', '/api/validators', { body: draft, token: staff })).status).toBe(422);
    expect((await t.call('POST', '/api/validators', { body: draft, token: 'not-a-token' })).status).toBe(422);
    const analyst = await t.call('POST', '/api/validators', { body: draft, token: admin });
    expect(analyst.status, JSON.stringify(analyst.body)).toBe(200);
    // The other limits hold for them too.
    expect((await t.call('POST', '/api/validators', { body: { schema: { type: 'object', properties: { a: { $ref: 'http://example.com/x.json' } } } }, token: admin })).status).toBe(422);
  });

  it('answers 404 for a module never compiled and for a malformed key', async () => {
    const missing = await t.call('GET', `/api/validators/${'0'.repeat(32)}.js`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Codice di validazione non trovato.');
    expect((await t.call('GET', '/api/validators/..%2Fetc.js')).status).toBeGreaterThanOrEqual(400);
    expect((await t.call('GET', '/api/validators/..%2Fetc.js')).status).toBeLessThan(500);
  });

  it('the policy the app runs under has no eval', async () => {
    const res = await t.call('GET', '/api/health');
    expect(/script-src ([^;]*);/.exec(String(res.headers['content-security-policy']))?.[1]).toBe("'self'");
  });
});

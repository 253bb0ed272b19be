// Every refusal carries a stable code beside its Italian message; the OpenAPI error schema names them.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { buildApp } from '../../src/server/app.ts';
import { domains } from '../../src/server/domains/index.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { ERROR_CODES } from '../../src/shared/error-codes.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

const cliente = { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi' };

describe('error codes', () => {
  it('names the refusal: unauthenticated, forbidden, not found, validation, bad request', async () => {
    const anonymous = await t.call('GET', '/api/cliente');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const approver = await userWithRoles(t, admin, { email: 'approvatore@test.it', roles: ['approvatore'] });
    const forbidden = await t.call('GET', '/api/utente', { token: approver });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await t.call('GET', '/api/cliente/987654', { token: admin });
    expect([missing.status, missing.body.code]).toEqual([404, 'NOT_FOUND']);
    const invalid = await t.call('POST', '/api/cliente', { token: admin, body: { ...cliente, email: 'non-una-email' } });
    expect([invalid.status, invalid.body.code, Object.keys(invalid.body.errors)]).toEqual([422, 'VALIDATION', ['email']]);
    const unreadable = await t.call('POST', '/api/cliente', { token: admin, body: '{"nome":', headers: { 'content-type': 'application/json' } });
    expect([unreadable.status, unreadable.body.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('a stale version is STALE_VERSION with the current record', async () => {
    const { id } = (await t.call('POST', '/api/cliente', { token: admin, body: cliente })).body.data.model;
    expect((await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Primo', version: 1 } })).status).toBe(200);
    const stale = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Secondo', version: 1 } });
    expect([stale.status, stale.body.code, stale.body.current.version]).toEqual([409, 'STALE_VERSION', 2]);
  });

  it('maintenance is MAINTENANCE, told apart from any other 503', async () => {
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const closed = await buildApp({ domains, db: t.connection.db, definitions, config: { MAINTENANCE: true } });
    try {
      const res = await closed.inject({ method: 'GET', url: '/api/cliente', headers: { authorization: `Bearer ${admin}` } });
      expect([res.statusCode, res.json().code]).toEqual([503, 'MAINTENANCE']);
    } finally {
      await closed.close();
    }
  });

  it('the OpenAPI error schema lists the codes', async () => {
    const spec = (await t.call('GET', '/api/openapi.json')).body;
    const error = spec.components.schemas.Error ?? Object.values(spec.components.schemas).find((s: any) => s.title === 'Error');
    expect(error.required).toContain('code');
    expect(error.properties.code.enum).toEqual([...ERROR_CODES]);
  });
});

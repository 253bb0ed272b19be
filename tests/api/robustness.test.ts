// Bad input through the API (issue 10): every reproduction answers 4xx with an Italian message and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collab: string;
let collabId: number;
let otherId: number;
let verde: number;

const count = async (table: string) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(t.connection.db)).rows[0]!.n);

function expect4xx(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  expect(typeof res.body.message).toBe('string');
  // Italian, never Fastify's English text.
  expect(res.body.message).not.toMatch(/must|should|body\/|querystring/i);
}

function quotazione(extra: Record<string, unknown> = {}) {
  return {
    persona: 'f', nome: 'Giovanni', cognome: 'Esposito', email: 'giovanni.esposito@example.it', provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'RM100001' }],
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collabId = await mk('ROSSI', 'rossi.r@example.it');
  otherId = await mk('VERDI', 'verdi.r@example.it');
  collab = await userWithRoles(t, admin, { email: 'collab.r@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  verde = (await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } })).body.data.model.id;
});
afterAll(() => t?.close());

describe('bad input answers 4xx, never 500', () => {
  it('a NUL character in a text field or a query value', async () => {
    const before = await count('cliente');
    expect4xx(await t.call('POST', '/api/cliente', { token: admin, body: { persona: 'f', nome: 'Ma\u0000rio', cognome: 'Rossi' } }));
    expect(await count('cliente')).toBe(before);
    expect4xx(await t.call('GET', '/api/cliente?search=ab%00c', { token: admin }));
    expect4xx(await t.call('GET', '/api/cliente?filter[cognome]=ab%00c', { token: admin }));
  });

  it('integers above 2^31 in integer and reference fields and in filter[id]', async () => {
    const big = 2 ** 31 + 5;
    const res = await t.call('POST', '/api/quotazioni', { token: admin, body: quotazione({ cliente_id: big }) });
    expect4xx(res);
    expect(res.body.errors).toHaveProperty('cliente_id');
    expect4xx(await t.call('POST', '/api/quotazioni', { token: admin, body: quotazione({ quotidiano: 1e12 }) }));
    expect4xx(await t.call('GET', `/api/cliente?filter[id]=${big}`, { token: admin }));
    expect4xx(await t.call('GET', '/api/cliente?filter[id]=99999999999999999999', { token: admin }));
  });

  it('impossible or malformed dates in filters', async () => {
    for (const value of ['2026-02-30', 'notadate', '2026-13-01']) {
      const res = await t.call('GET', `/api/cliente?filter[created_at][from]=${value}`, { token: admin });
      expect4xx(res);
      expect(res.status).toBe(422);
    }
  });

  it('filter keys __proto__ and constructor', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect4xx(await t.call('GET', `/api/cliente?filter[${key}]=1`, { token: admin }));
      expect4xx(await t.call('GET', `/api/cliente?filter[${key}][from]=1`, { token: admin }));
    }
  });

  it('a preference body that is not an object', async () => {
    for (const body of ['"text"', '[1,2]', '42', 'null']) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/preferences/griglia', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, payload: body });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
  });

  it('arrays or objects where /calcolo expects numbers', async () => {
    for (const extra of [{ competenze: [1, 2] }, { competenze: { a: 1 } }, { minoreAnni: [true] }, { provincia_codice: ['RM'] }, { veicoli_storici: 'x' }, { id: [1] }, { id: { x: 1 } }]) {
      const res = await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: quotazione(extra) });
      expect4xx(res);
    }
  });

  it('an empty POST to /api/email_outbox', async () => {
    const before = await count('email_outbox');
    const res = await t.call('POST', '/api/email_outbox', { token: admin, body: {} });
    expect4xx(res);
    expect(res.status).toBe(422);
    expect(await count('email_outbox')).toBe(before);
    const empty = await t.app.inject({ method: 'POST', url: '/api/email_outbox', headers: { authorization: `Bearer ${admin}` } });
    expect(empty.statusCode, empty.body).toBeGreaterThanOrEqual(400);
    expect(empty.statusCode, empty.body).toBeLessThan(500);
  });

  it("Fastify's own validation answers the Italian 422 with the real field name", async () => {
    const res = await t.call('POST', '/api/login', { body: { email: 'x'.repeat(300), password: 'a' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('email');
    expect(res.body.errors).not.toHaveProperty('_');
    expect(res.body.message).toBe('I dati inseriti non sono validi.');
  });
});

describe('the calculation is a validated write bound to its inputs', () => {
  const quote = async () => {
    const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione() })).body.data.model;
    const calc = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    return calc.body.data.model as { id: number; version: number; colore: string };
  };

  it('refuses inputs a PUT refuses, storing nothing', async () => {
    const q = await quote();
    for (const bad of [{ competenze: -500 }, { provincia_codice: 'X'.repeat(318) }, { minoreAnni: 'yes' }, { competenze: 1e15 }]) {
      const res = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id, version: q.version, ...bad } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)[0]).toBe(Object.keys(bad)[0]);
    }
    const after = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data;
    expect(after.version).toBe(q.version);
    // Still editable.
    expect((await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { note: 'ok', version: q.version } })).status).toBe(200);
  });

  it('changing inputs needs the version, and a stale version changes nothing', async () => {
    const q = await quote();
    expect((await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id, competenze: 30 } })).status).toBe(428);
    expect((await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id, competenze: 30, version: q.version - 1 } })).status).toBe(409);
    const ok = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id, competenze: 30, version: q.version } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.model.competenze).toBe(30);
  });

  it('a Ferrari 250 GTO swapped in after a green calculation cannot be confirmed without derogation', async () => {
    const q = await quote();
    // Green is read by approvers and super_admin only (spec 001 §6): the collaborator reads null.
    expect(q.colore).toBeNull();
    expect((await t.call('GET', `/api/quotazioni/${q.id}`, { token: admin })).body.data.colore).toBe('v');
    const ferrari = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { version: q.version,
      veicoli_storici: [{ marca: 'Ferrari', modello: '250 GTO', anno: 1962, tipologia_ania: 'A', targa: 'RM250GT', valore: 40_000_000, colore: 'v' }] } });
    expect(ferrari.status, JSON.stringify(ferrari.body)).toBe(200);
    expect(ferrari.body.data.model).toMatchObject({ colore: null, premio: null, preventivi: null });
    // The read-only colour sent inside the vehicle is not stored.
    expect(ferrari.body.data.model.veicoli_storici[0].colore).toBeUndefined();
    const direct = await t.call('POST', `/api/quotazioni/confermaDiretta/${q.id}`, { token: collab });
    expect(direct.status).toBe(409);
    expect(direct.body.message).toMatch(/ricalcola il premio/);
    expect(direct.body.code).toBe('STALE_CALCULATION');
    expect((await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab })).status).toBe(409);
    expect((await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data.stato_quotazione_id).toBe(1);
    // Recalculated: red, so the derogation path.
    const again = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    expect(again.body.data.model.colore).toBe('r');
    expect((await t.call('POST', `/api/quotazioni/confermaDiretta/${q.id}`, { token: collab })).status).toBe(409);
  });

  it('vehicles sent back with the same priced data keep the calculation', async () => {
    const q = await quote();
    const record = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data;
    const vehicles = record.veicoli_storici.map((v: Record<string, unknown>) => ({ ...v, cilindrata: 499 }));
    const res = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { version: record.version, veicoli_storici: vehicles, note: 'x' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: admin })).body.data;
    expect(stored).toMatchObject({ colore: 'v' });
    // A detail the price does not depend on is stored; the colour the calculation gave stays.
    expect(stored.veicoli_storici[0]).toMatchObject({ colore: 'v', cilindrata: 499 });
  });

  it('a change of the fees alone recomputes the totals in the same write', async () => {
    const q = await quote();
    const before = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data;
    const res = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { competenze: 50, version: before.version } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const base = before.preventivi[0].premio_base;
    expect(res.body.data.model).toMatchObject({ premio: Math.round((base + 50) * 100) / 100 });
    expect((await t.call('GET', `/api/quotazioni/${q.id}`, { token: admin })).body.data.colore).toBe('v');
    expect(res.body.data.model.preventivi[0]).toMatchObject({ competenze: 50, premio_totale: Math.round((base + 50) * 100) / 100 });
    expect((await t.call('POST', `/api/quotazioni/confermaDiretta/${q.id}`, { token: collab })).status).toBe(200);
  });

  it('flags accept 0 and 1', async () => {
    const res = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ minoreAnni: 1, doppia_circolazione: 0 }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.model).toMatchObject({ minoreAnni: true, doppia_circolazione: false });
  });
});

describe('row scope covers references', () => {
  it('a collaborator cannot push their own customer out of sight', async () => {
    const mine = (await t.call('POST', '/api/cliente', { token: collab, body: { tipo: 'RETAIL', sesso: 'M', nome: 'Luca', cognome: 'Bianchi' } })).body.data.model;
    expect(mine.collaboratore_id).toBe(collabId);
    const res = await t.call('PUT', `/api/cliente/${mine.id}`, { token: collab, body: { collaboratore_id: null, version: mine.version } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('collaboratore_id');
    const moved = await t.call('PUT', `/api/cliente/${mine.id}`, { token: collab, body: { collaboratore_id: otherId, version: mine.version } });
    expect(moved.status).toBe(422);
    const still = await t.call('GET', `/api/cliente/${mine.id}`, { token: collab });
    expect(still.body.data).toMatchObject({ collaboratore_id: collabId, version: mine.version });
  });

  it("a collaborator cannot point a quotation at another collaborator's customer", async () => {
    const theirs = (await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'RETAIL', sesso: 'F', nome: 'Sara', cognome: 'Gialli', collaboratore_id: otherId } })).body.data.model;
    const mine = (await t.call('POST', '/api/cliente', { token: collab, body: { tipo: 'RETAIL', sesso: 'M', nome: 'Paolo', cognome: 'Neri' } })).body.data.model;
    const before = await count('quotazione');
    const res = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ cliente_id: theirs.id }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ cliente_id: ['Il record collegato non esiste.'] });
    expect(await count('quotazione')).toBe(before);
    const ok = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ cliente_id: mine.id }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const put = await t.call('PUT', `/api/quotazioni/${ok.body.data.model.id}`, { token: collab, body: { cliente_id: theirs.id, version: ok.body.data.model.version } });
    expect(put.status).toBe(422);
    // Staff who see every customer may.
    expect((await t.call('POST', '/api/quotazioni', { token: admin, body: quotazione({ cliente_id: theirs.id }) })).status).toBe(201);
  });
});

// Customers through the generic API: CRUD, validation per field, permissions, row scope and optimistic locking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

const base = { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

describe('CRUD', () => {
  it('creates, reads, lists, updates and deletes a customer', async () => {
    const created = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cf: 'rssmra85t10a562s', residenzaIndirizzo: 'via roma' } });
    expect(created.status).toBe(201);
    const model = created.body.data.model;
    expect(model.id).toBeTypeOf('number');
    // Upper-casing declared in the schema is applied by the server.
    expect(model).toMatchObject({ nome: 'MARIO', cognome: 'ROSSI', cf: 'RSSMRA85T10A562S', residenzaIndirizzo: 'VIA ROMA', attivo: true, version: 1 });

    const read = await t.call('GET', `/api/cliente/${model.id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.data.cf).toBe('RSSMRA85T10A562S');
    expect(read.headers.etag).toBe('"1"');

    const list = await t.call('GET', '/api/cliente?search=rossi', { token: admin });
    expect(list.body).toMatchObject({ current_page: 1, last_page: 1, total: 1 });
    expect(list.body.data[0].id).toBe(model.id);

    const updated = await t.call('PUT', `/api/cliente/${model.id}`, { token: admin, body: { nome: 'Luigi', version: 1 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.model).toMatchObject({ nome: 'LUIGI', cognome: 'ROSSI', version: 2 });

    const removed = await t.call('DELETE', `/api/cliente/${model.id}`, { token: admin });
    expect(removed.status).toBe(200);
    expect((await t.call('GET', `/api/cliente/${model.id}`, { token: admin })).status).toBe(404);
  });

  it('answers 404 as JSON for a missing record', async () => {
    const res = await t.call('GET', '/api/cliente/999999', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/non trovat/);
    expect((await t.call('PUT', '/api/cliente/999999', { token: admin, body: { nome: 'X', version: 1 } })).status).toBe(404);
    expect((await t.call('DELETE', '/api/cliente/abc', { token: admin })).status).toBe(404);
  });

  it('paginates, sorts and filters', async () => {
    for (const [i, cognome] of ['ALFA', 'BETA', 'GAMMA', 'DELTA', 'EPSILON'].entries()) {
      const res = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome, tipo: i % 2 ? 'CORPORATE' : 'RETAIL', attivo: i !== 4 } });
      expect(res.status).toBe(201);
    }
    const page = await t.call('GET', '/api/cliente?page=2&per_page=2&sort=cognome', { token: admin });
    expect(page.body).toMatchObject({ current_page: 2, last_page: 3, per_page: 2, total: 5 });
    expect(page.body.data.map((r: { cognome: string }) => r.cognome)).toEqual(['DELTA', 'EPSILON']);
    const desc = await t.call('GET', '/api/cliente?sort=-cognome&per_page=1', { token: admin });
    expect(desc.body.data[0].cognome).toBe('GAMMA');
    const corporate = await t.call('GET', '/api/cliente?filter[tipo]=CORPORATE', { token: admin });
    expect(corporate.body.total).toBe(2);
    const inactive = await t.call('GET', '/api/cliente?filter[attivo]=false', { token: admin });
    expect(inactive.body.data.map((r: { cognome: string }) => r.cognome)).toEqual(['EPSILON']);
    const text = await t.call('GET', '/api/cliente?filter[cognome]=mm', { token: admin });
    expect(text.body.data.map((r: { cognome: string }) => r.cognome)).toEqual(['GAMMA']);
    const all = await t.call('GET', '/api/cliente?per_page=-1', { token: admin });
    expect(all.body.data.length).toBe(all.body.total);
    expect((await t.call('GET', '/api/cliente?sort=password', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/cliente?filter[nonEsiste]=1', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/cliente?filter[id]=abc', { token: admin })).status).toBe(422);
  });
});

describe('validation (422 with Italian messages per field)', () => {
  const cases: Array<[string, unknown, unknown, string]> = [
    ['cf', 'RSSMRA85T10A562S', 'RSSMRA85T10A562X', 'Codice fiscale non valido'],
    ['cf', 'MRTMTT25D09F205Z', 'MRTMTT25D09F205A', 'Codice fiscale non valido'],
    ['piva', '00905811006', '00905811007', 'Partita IVA non valida'],
    ['IBAN', 'IT60X0542811101000000123456', 'IT61X0542811101000000123456', 'IBAN non valido'],
    ['cell', '+39 333 1234567', '3331234567', 'Il numero di telefono deve avere un prefisso internazionale valido'],
    ['tel', '+39 06 5551234', '06 5551234', 'Il numero di telefono deve avere un prefisso internazionale valido'],
    ['residenzaCap', '00184', '0018', 'Il CAP deve essere di 5 cifre'],
    ['dataNascita', '1985-12-10', '1922-12-31', 'La data di nascita deve essere compresa tra il 01/01/1923'],
    ['dataNascita', `${new Date().getFullYear() - 17}-12-31`, `${new Date().getFullYear() - 16}-01-01`, 'La data di nascita deve essere compresa'],
    ['email', 'mario.rossi@example.it', 'mario.rossi', 'Indirizzo email non valido'],
    ['tipo', 'CORPORATE', 'PRIVATO', 'Valore non ammesso'],
  ];
  it.each(cases)('%s: accepts %s, refuses %s', async (field, good, bad, message) => {
    const ok = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, [field]: good } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const ko = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, [field]: bad } });
    expect(ko.status).toBe(422);
    expect(ko.body.errors[field].join(' ')).toContain(message);
    expect(Object.keys(ko.body.errors)).toEqual([field]);
  });

  it('requires fields with "Campo Obbligatorio." and applies the sesso A rule', async () => {
    const res = await t.call('POST', '/api/cliente', { token: admin, body: { sesso: 'M' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({ tipo: ['Campo Obbligatorio.'], nome: ['Campo Obbligatorio.'], cognome: ['Campo Obbligatorio.'] });
    const azienda = await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'CORPORATE', sesso: 'A', nome: 'Acme Srl' } });
    expect(azienda.body.errors).toEqual({ piva: ['Campo Obbligatorio.'] });
    const empty = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, nome: '   ' } });
    expect(empty.body.errors.nome).toEqual(['Campo Obbligatorio.']);
  });

  it('refuses server-owned and unknown fields', async () => {
    const owned = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, id: 77, created_at: '2020-01-01T00:00:00Z' } });
    expect(owned.status).toBe(422);
    expect(owned.body.errors).toEqual({ id: ['Campo non modificabile.'], created_at: ['Campo non modificabile.'] });
    const unknown = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, hacker: true } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ hacker: ['Campo non consentito.'] });
  });

  it('a refused request changes nothing', async () => {
    const before = (await t.call('GET', '/api/cliente', { token: admin })).body.total;
    await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cf: 'BAD' } });
    const created = (await t.call('POST', '/api/cliente', { token: admin, body: base })).body.data.model;
    const refused = await t.call('PUT', `/api/cliente/${created.id}`, { token: admin, body: { nome: 'Nuovo', cf: 'BAD', version: 1 } });
    expect(refused.status).toBe(422);
    const after = await t.call('GET', `/api/cliente/${created.id}`, { token: admin });
    expect(after.body.data).toMatchObject({ nome: 'MARIO', version: 1 });
    expect((await t.call('GET', '/api/cliente', { token: admin })).body.total).toBe(before + 1);
  });
});

describe('optimistic locking', () => {
  it('refuses a stale PUT with 409 and lets the fresh one land', async () => {
    const { id } = (await t.call('POST', '/api/cliente', { token: admin, body: base })).body.data.model;
    const first = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Primo', version: 1 } });
    expect(first.status).toBe(200);
    const stale = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Secondo', version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('modificato da un altro utente');
    expect(stale.body.code).toBe('STALE_VERSION');
    expect(stale.body.current).toMatchObject({ nome: 'PRIMO', version: 2 });
    const viaHeader = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Terzo' }, headers: { 'if-match': '"2"' } });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.data.model).toMatchObject({ nome: 'TERZO', version: 3 });
    const missing = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Quarto' } });
    expect([missing.status, missing.body.code]).toEqual([428, 'PRECONDITION_REQUIRED']);
    expect((await t.call('GET', `/api/cliente/${id}`, { token: admin })).body.data.nome).toBe('TERZO');
  });

  it('of two concurrent writers with the same version exactly one wins', async () => {
    const { id } = (await t.call('POST', '/api/cliente', { token: admin, body: base })).body.data.model;
    const results = await Promise.all(['Uno', 'Due', 'Tre'].map((nome) => t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome, version: 1 } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe('authentication, permissions and row scope', () => {
  it('answers 401 Unauthenticated. without or with a bad token', async () => {
    for (const token of [undefined, 'nonsense', 'undefined']) {
      const res = await t.call('GET', '/api/cliente', { token });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Unauthenticated.');
    }
  });

  it('answers 403 with a message without the permission', async () => {
    const token = await userWithRoles(t, admin, { email: 'collab-403@test.it', roles: ['collaboratore'] });
    const res = await t.call('GET', '/api/utente', { token });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/permess/);
    // A collaborator may not delete customers either (elimina_clienti).
    const mine = await t.call('GET', '/api/cliente', { token });
    expect(mine.status).toBe(200);
  });

  it('keeps each collaborator to their own customers', async () => {
    const collab = async (cognome: string) =>
      (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE' } })).body.data.model.id as number;
    const c1 = await collab('UNO');
    const c2 = await collab('DUE');
    const t1 = await userWithRoles(t, admin, { email: 'c1@test.it', roles: ['collaboratore'], collaboratore_id: c1 });
    const t2 = await userWithRoles(t, admin, { email: 'c2@test.it', roles: ['collaboratore'], collaboratore_id: c2 });

    const own = await t.call('POST', '/api/cliente', { token: t1, body: { ...base, cognome: 'DIUNO' } });
    expect(own.status).toBe(201);
    expect(own.body.data.model.collaboratore_id).toBe(c1);
    const foreign = await t.call('POST', '/api/cliente', { token: t1, body: { ...base, collaboratore_id: c2 } });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['collaboratore_id']);
    const id = own.body.data.model.id;

    expect((await t.call('GET', `/api/cliente/${id}`, { token: t2 })).status).toBe(404);
    expect((await t.call('PUT', `/api/cliente/${id}`, { token: t2, body: { nome: 'X', version: 1 } })).status).toBe(404);
    const list2 = await t.call('GET', '/api/cliente', { token: t2 });
    expect(list2.body.data.every((r: { collaboratore_id: number }) => r.collaboratore_id === c2)).toBe(true);
    const list1 = await t.call('GET', '/api/cliente', { token: t1 });
    expect(list1.body.data.map((r: { id: number }) => r.id)).toContain(id);
    const moved = await t.call('PUT', `/api/cliente/${id}`, { token: t1, body: { collaboratore_id: c2, version: 1 } });
    expect(moved.status).toBe(422);
    // Staff see everyone's customers.
    const staff = await userWithRoles(t, admin, { email: 'staff@test.it', roles: ['staff'] });
    expect((await t.call('GET', `/api/cliente/${id}`, { token: staff })).status).toBe(200);
  });

  it('refuses to delete a collaborator that customers still point at (409)', async () => {
    const collab = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'F', nome: 'Anna', cognome: 'Bianchi', tipo: 'AGENTE' } })).body.data.model;
    await t.call('POST', '/api/cliente', { token: admin, body: { ...base, collaboratore_id: collab.id } });
    const res = await t.call('DELETE', `/api/collaboratore/${collab.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Impossibile eliminare: ci sono ancora dati collegati in Clienti.');
    expect(res.body.code).toBe('IN_USE');
    expect((await t.call('GET', `/api/collaboratore/${collab.id}`, { token: admin })).status).toBe(200);
    const dangling = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, collaboratore_id: 987654 } });
    expect(dangling.status).toBe(422);
    expect(Object.keys(dangling.body.errors)).toEqual(['collaboratore_id']);
  });
});

// Conditional and computed fields declared in JSON are enforced by the API: hidden fields hold no data, a computed
// field is stored by the server and a client value that disagrees is refused at that field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, ROOT, createTestApp, type TestApp } from './helpers.ts';

let dir: string;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  // The analyst's example of a computed field, added to a copy of the definitions.
  dir = await mkdtemp(path.join(os.tmpdir(), 'rules-'));
  await cp(path.join(ROOT, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
  await cp(path.join(ROOT, 'workflows'), path.join(dir, 'workflows'), { recursive: true });
  const file = path.join(dir, 'schemas', 'cliente', 'entity.schema.json');
  const doc = JSON.parse(await readFile(file, 'utf8'));
  Object.assign(doc.properties, {
    premio_base: { type: 'number', title: 'Premio base', 'x-money': true },
    competenze: { type: 'number', title: 'Competenze', 'x-money': true },
    premio_totale: { type: 'number', title: 'Premio totale', 'x-money': true, 'x-computed': 'premio_base + competenze' },
  });
  await writeFile(file, JSON.stringify(doc));
  t = await createTestApp({ schemasDir: path.join(dir, 'schemas') });
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const person = { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', dataNascita: '1980-04-02' };

describe('conditional fields', () => {
  it('a company customer keeps no natural-person data, also when a person becomes a company', async () => {
    const company = await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'CORPORATE', sesso: 'A', nome: 'Acme Srl', piva: '01234567897', cognome: 'Rossi', dataNascita: '1980-01-01' } });
    expect(company.status, JSON.stringify(company.body)).toBe(201);
    expect(company.body.data.model).toMatchObject({ nome: 'ACME SRL', cognome: null, dataNascita: null });

    const anna = (await t.call('POST', '/api/cliente', { token: admin, body: person })).body.data.model;
    expect(anna.cognome).toBe('NERI');
    const missingVat = await t.call('PUT', `/api/cliente/${anna.id}`, { token: admin, body: { sesso: 'A', version: anna.version } });
    expect(missingVat.status).toBe(422);
    expect(missingVat.body.errors).toEqual({ piva: ['Campo Obbligatorio.'] });
    const moved = await t.call('PUT', `/api/cliente/${anna.id}`, { token: admin, body: { sesso: 'A', piva: '01234567897', version: anna.version } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.model).toMatchObject({ cognome: null, dataNascita: null });
  });

  it('a quotation: company data only for persona g, birth place only for country 1, quintali only for type C', async () => {
    const vehicle = { marca: 'OM', modello: 'Leoncino', anno: 1955 };
    const body = {
      persona: 'f', nome: 'Giovanni', cognome: 'Esposito', rsoc: 'Non serve', email: 'g.esposito@example.it', telefono: '+39 333 7654321',
      nazione_nascita_id: 'Z112', provincia_nascita_codice: 'RM', comune_nascita_id: '058091',
      veicoli_storici: [{ ...vehicle, tipologia_ania: 'C', quintali: 30 }, { ...vehicle, modello: 'Ardita', tipologia_ania: 'A', quintali: 9 }],
    };
    const res = await t.call('POST', '/api/quotazioni', { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const q = res.body.data.model;
    expect(q).toMatchObject({ rsoc: null, provincia_nascita_codice: null, comune_nascita_id: null, nazione_nascita_id: 'Z112' });
    expect(q.veicoli_storici.map((v: any) => v.quintali)).toEqual([30, undefined]);

    const italian = await t.call('POST', '/api/quotazioni', { token: admin, body: { ...body, nazione_nascita_id: '1' } });
    expect(italian.body.data.model).toMatchObject({ provincia_nascita_codice: 'RM', comune_nascita_id: '058091' });

    const company = await t.call('POST', '/api/quotazioni', { token: admin, body: { ...body, persona: 'g' } });
    expect(company.status).toBe(422);
    expect(company.body.errors).toEqual({ piva: ['Campo Obbligatorio.'] });

    // A hidden field's well-formed value is dropped (above); a malformed one is refused at its field, and nothing is stored.
    const before = (await t.call('GET', '/api/quotazioni?per_page=1', { token: admin })).body.total;
    const malformed = await t.call('POST', '/api/quotazioni', { token: admin, body: { ...body, provincia_nascita_codice: '+8' } });
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.errors)).toEqual(['provincia_nascita_codice']);
    expect((await t.call('GET', '/api/quotazioni?per_page=1', { token: admin })).body.total).toBe(before);
  });
});

describe('computed fields', () => {
  it('stores the value the expression gives, in cents', async () => {
    const res = await t.call('POST', '/api/cliente', { token: admin, body: { ...person, premio_base: 180.1, competenze: 20.2 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.model.premio_totale).toBe(200.3);
    const changed = await t.call('PUT', `/api/cliente/${res.body.data.model.id}`, { token: admin, body: { competenze: 0.05, version: 1 } });
    expect(changed.body.data.model.premio_totale).toBe(180.15);
  });

  it('accepts an agreeing client value and refuses one that disagrees', async () => {
    const agree = await t.call('POST', '/api/cliente', { token: admin, body: { ...person, premio_base: 10, competenze: 2.5, premio_totale: 12.5 } });
    expect(agree.status).toBe(201);
    const disagree = await t.call('POST', '/api/cliente', { token: admin, body: { ...person, premio_base: 10, competenze: 2.5, premio_totale: 13 } });
    expect(disagree.status).toBe(422);
    expect(disagree.body.errors).toEqual({ premio_totale: ['Il valore calcolato è 12,50\u00a0€'] });
  });
});

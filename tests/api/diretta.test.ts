// The direct quotation's calls (spec 001 §7) are aliases over the same records, row scope and machine as /api/quotazioni.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collab: string;
let other: string;
let verde: number;

async function diretta(): Promise<number> {
  const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: {
    persona: 'f', nome: 'Paolo', cognome: 'Gialli', email: 'paolo.gialli@example.it', provincia_codice: 'MI', competenze: 10,
    veicoli_storici: [{ id: 'v-1', auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'MI100001' }],
  } })).body.data.model;
  await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
  const res = await t.call('POST', `/api/quotazioni/confermaDiretta/${q.id}`, { token: collab });
  expect(res.body.data.model.stato_quotazione_id, JSON.stringify(res.body)).toBe(12);
  return q.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collab = await userWithRoles(t, admin, { email: 'collab.dir@test.it', roles: ['collaboratore'], collaboratore_id: await mk('NERI', 'neri.dir@example.it') });
  other = await userWithRoles(t, admin, { email: 'other.dir@test.it', roles: ['collaboratore'], collaboratore_id: await mk('BLU', 'blu.dir@example.it') });
  verde = (await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } })).body.data.model.id;
});
afterAll(() => t?.close());

describe('direct quotation calls', () => {
  it('edit answers the record with the English names; PUT saves the whole quotation (gender A is a company)', async () => {
    const id = await diretta();
    const edit = await t.call('GET', `/api/v1/goold/quotations/${id}/edit`, { token: collab });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ id, status_id: 12, stato_quotazione: { nome: 'In attesa compilazione diretta' }, first_name: 'PAOLO', last_name: 'GIALLI', nome: 'PAOLO', state_code: 'MI' });
    expect((await t.call('GET', `/api/v1/goold/quotations/${id}/edit`, { token: other })).status).toBe(404);

    // The screen sends back what it read, changed.
    const sent = { ...edit.body.data, gender: 'A', company_name: 'Auto d\'epoca srl', vat_number: '01234567897', first_name: null, last_name: null, nome: null, cognome: null, phone: '+393401234567', daily_use: 2, version: undefined };
    const put = await t.call('PUT', `/api/v1/goold/quotations/${id}`, { token: collab, body: sent });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.code).toBe(201);
    const stored = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    expect(stored).toMatchObject({ persona: 'g', sesso: 'A', rsoc: "AUTO D'EPOCA SRL", piva: '01234567897', telefono: '+393401234567', quotidiano: 2, stato_quotazione_id: 12 });
    const bad = await t.call('PUT', `/api/v1/goold/quotations/${id}`, { token: collab, body: { daily_use: 11 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.quotidiano).toBeDefined();
  });

  it('a company (gender A): the screen\'s save through /api/quotazioni, with the issue date, then emit', async () => {
    const id = await diretta();
    const { version } = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    // What the direct screen sends after choosing 'Azienda': the gender, the person type it implies, company name and VAT, issue date.
    const saved = await t.call('PUT', `/api/quotazioni/${id}`, { token: collab, body: {
      version, sesso: 'A', persona: 'g', rsoc: 'Scuderia Gialli srl', piva: '12345678903', decorrenza: '2027-03-01',
    } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.model).toMatchObject({ persona: 'g', sesso: 'A', rsoc: 'SCUDERIA GIALLI SRL', nome: null, cognome: null, dataNascita: null, decorrenza: '2027-03-01', stato_quotazione_id: 12 });
    const edit = (await t.call('GET', `/api/v1/goold/quotations/${id}/edit`, { token: collab })).body.data;
    expect(edit).toMatchObject({ gender: 'A', company_name: 'SCUDERIA GIALLI SRL', vat_number: '12345678903', effective_date: '2027-03-01', first_name: null });
    // Saved, the calculation still holds (no priced input changed): the emission goes through.
    const emitted = await t.call('GET', `/api/v1/goold/quotations/${id}/emit`, { token: collab });
    expect(emitted.status, JSON.stringify(emitted.body)).toBe(200);
    expect(emitted.body.data.model).toMatchObject({ status_id: 7, persona: 'g', sesso: 'A', piva: '12345678903' });
  });

  it('vehicles: GET and POST {historic, modern}; PUT one vehicle by its row id', async () => {
    const id = await diretta();
    const got = await t.call('GET', `/api/v1/goold/quotations/${id}/vehicles`, { token: collab });
    expect(got.body.data.historic).toHaveLength(1);
    expect(got.body.data.modern).toEqual([]);
    const posted = await t.call('POST', `/api/v1/goold/quotations/${id}/vehicles`, { token: collab, body: {
      historic: got.body.data.historic, modern: [{ brand: 'Fiat', model: 'Panda', year: '2020', plate_number: 'ab123cd', relation: 'Contraente' }],
    } });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.data.modern).toEqual([{ marca: 'Fiat', modello: 'Panda', anno: '2020', targa: 'AB123CD', grado_parentela: 'Contraente' }]);
    const badYear = await t.call('POST', `/api/v1/goold/quotations/${id}/vehicles`, { token: collab, body: { modern: [{ brand: 'Fiat', model: 'Panda', year: '20', plate_number: 'X' }] } });
    expect(badYear.body.errors['veicoli_moderni.0.anno']).toEqual(["L'anno deve essere di 4 cifre"]);

    // Each quotation's rows have ids of their own: the one sent at creation is kept while no other quotation has it.
    const rowId = got.body.data.historic[0].id as string;
    const vehicle = await t.call('PUT', `/api/v1/goold/vehicles/${rowId}`, { token: collab, body: { vehicle: { plate_number: ' mi999999 ', ania_type: 'C', quintals: 12 } } });
    expect(vehicle.status, JSON.stringify(vehicle.body)).toBe(200);
    expect(vehicle.body.data.vehicle).toMatchObject({ id: rowId, targa: 'MI999999', tipologia_ania: 'C', quintali: 12, marca: 'Fiat' });
    expect((await t.call('PUT', `/api/v1/goold/vehicles/${rowId}`, { token: other, body: { vehicle: { targa: 'X' } } })).status).toBe(404);
    expect((await t.call('PUT', '/api/v1/goold/vehicles/nessuno', { token: collab, body: { vehicle: { targa: 'X' } } })).status).toBe(404);
  });

  it('emit moves status 12 to awaiting issue through the machine, with history; then the direct edits are refused', async () => {
    const id = await diretta();
    // Not without the policyholder's tax code, which the issue sends to the insurer: refused at the field, nothing changed.
    const missing = await t.call('GET', `/api/v1/goold/quotations/${id}/emit`, { token: collab });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ cfisc: ['Campo Obbligatorio.'] });
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data.stato_quotazione_id).toBe(12);
    expect((await t.call('PUT', `/api/v1/goold/quotations/${id}`, { token: collab, body: { tax_code: 'RSSMRA80A01H501U' } })).status).toBe(200);
    const emitted = await t.call('GET', `/api/v1/goold/quotations/${id}/emit`, { token: collab });
    expect(emitted.status, JSON.stringify(emitted.body)).toBe(200);
    expect(emitted.body.message).toBe('Quotazione in stato "In attesa di emissione".');
    const history = (await t.call('GET', `/api/quotazioni/${id}/workflow`, { token: collab })).body.data.storico;
    expect(history.at(-1)).toMatchObject({ event: 'EMETTI_DIRETTA', from_status: 12, to_status: 7 });
    expect((await t.call('GET', `/api/v1/goold/quotations/${id}/emit`, { token: collab })).status).toBe(409);
    expect((await t.call('PUT', `/api/v1/goold/quotations/${id}`, { token: collab, body: { club: 'ASI' } })).status).toBe(409);
    expect((await t.call('GET', `/api/v1/goold/quotations/${id}/media`, { token: collab })).status).toBe(200);
  });
});

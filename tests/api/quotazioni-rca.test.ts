// Motor-liability fast quotation through the API (spec 002 §7.2, §7.3, §8): rules before pricing, sandbox cases, row scope, proposal once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { computeCodiceFiscale } from '../../src/shared/validators/codiceFiscale.ts';
import { oggiIso as todayIso } from '../../src/shared/dates.ts';

let t: TestApp;
let admin: string;
let collab: string;
let otherCollab: string;
let staff: string;
let collabId: number;
let clienteId: number;

const count = async (table: string) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(t.connection.db)).rows[0]!.n);
const cf = computeCodiceFiscale({ cognome: 'Bianchi', nome: 'Carla', dataNascita: '1980-04-12', sesso: 'F', codiceCatastale: 'H501' });

function richiesta(extra: { plate?: string; category?: string; coverages?: unknown[]; person?: Record<string, unknown>; data?: Record<string, unknown> } = {}) {
  return {
    fastFlowData: {
      vehicleCategory: extra.category ?? 'Auto', plate: extra.plate ?? 'gb 123 cd', birthdate: '1980-04-12', convention: 'QP_STANDARD',
      effectDate: todayIso(), bonusMalus: 5, insuranceSituation: 'AlreadyInsuredATR',
      personData: extra.person ?? { gender: 'Female', name: 'carla', surname: 'bianchi', birthDate: '1980-04-12', maritalStatus: 'Single', fiscalCode: cf },
      ...extra.data,
    },
    coverages: extra.coverages ?? [{ code: 'P01', description: 'Responsabilità Civile', selected: true, value: 6000000, coInsurance: true, PackageCode: 'P94' }],
    addresses: [{ addressType: 'PermanentResidency', streetType: 'Via', streetName: 'del corso', number: '12', cityIstat: 58091, zipCode: '00186' }],
    contacts: [{ type: 'Email', isPrincipal: true, value_contact: 'carla.bianchi@example.it' }],
    privacyData: { question1: true, question2: true, question3: true },
  };
}
const cov = (...codes: string[]) => [
  { code: 'P01', selected: true, value: 6000000, coInsurance: true },
  ...codes.map((code) => ({ code, selected: true })),
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collabId = await mk('ROSSI', 'rossi.rca@example.it');
  const otherId = await mk('VERDI', 'verdi.rca@example.it');
  collab = await userWithRoles(t, admin, { email: 'collab.rca@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  otherCollab = await userWithRoles(t, admin, { email: 'other.rca@test.it', roles: ['collaboratore'], collaboratore_id: otherId });
  staff = await userWithRoles(t, admin, { email: 'staff.rca@test.it', roles: ['staff'] });
  const c = await t.call('POST', '/api/cliente', { token: collab, body: {
    tipo: 'RETAIL', sesso: 'F', nome: 'Carla', cognome: 'Bianchi', dataNascita: '1980-04-12', cf, email: 'carla.bianchi@example.it',
    residenzaIndirizzo: 'Via del Corso', residenzaCivico: '12', residenza_comune_id: '058091', residenzaCap: '00186', residenzaProv: 'RM',
  } });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  clienteId = c.body.data.model.id;
  const q = await t.call('POST', '/api/quotazioni', { token: collab, body: {
    persona: 'f', nome: 'Carla', cognome: 'Bianchi', cliente_id: clienteId, quotidiano: 1,
    veicoli_moderni: [{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'gb123cd' }],
  } });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
});
afterAll(() => t?.close());

describe('customer search and step-2 prefill', () => {
  it('finds the customer with their daily-use vehicles, within the customer row scope', async () => {
    const res = await t.call('GET', '/api/search/cliente?filter[cognome_nome]=bianchi%20carla', { token: collab });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.per_page).toBe(10);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ cliente_id: clienteId, nome: 'CARLA', cognome: 'BIANCHI', codice_fiscale: cf, data_nascita: '1980-04-12', veicoli_count: 1 });
    expect(res.body.data[0].veicoli_moderni[0]).toMatchObject({ targa: 'GB123CD', marca: 'Fiat', modello: 'Panda', anno: '2019' });
    const other = await t.call('GET', '/api/search/cliente?filter[cognome_nome]=bianchi', { token: otherCollab });
    expect(other.body.data).toEqual([]);
  });

  it('builds the request of step 2 from customer and vehicle', async () => {
    const search = await t.call('GET', '/api/search/cliente?filter[cognome_nome]=bianchi', { token: collab });
    const veicolo = search.body.data[0].veicoli_moderni[0].veicolo_id;
    const res = await t.call('POST', '/api/adapter/quixa/clienteVeicolo/FastQuotationFlow', { token: collab, body: { cliente_id: clienteId, veicolo_id: veicolo } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body.data.quotation_request;
    expect(r.fastFlowData).toMatchObject({ vehicleCategory: 'Auto', plate: 'GB123CD', birthdate: '1980-04-12', convention: 'QP_STANDARD' });
    expect(r.fastFlowData.personData).toMatchObject({ gender: 'Female', name: 'CARLA', surname: 'BIANCHI', fiscalCode: cf });
    expect(r.addresses[0]).toMatchObject({ addressType: 'PermanentResidency', streetType: 'Via', streetName: 'DEL CORSO', number: '12', cityIstat: '058091', zipCode: '00186' });
    expect(r.coverages).toEqual([{ code: 'P01', description: 'Responsabilità Civile', selected: true, value: 6000000, coInsurance: true, PackageCode: 'P94' }]);
    const foreign = await t.call('POST', '/api/adapter/quixa/clienteVeicolo/FastQuotationFlow', { token: otherCollab, body: { cliente_id: clienteId, veicolo_id: veicolo } });
    expect(foreign.status).toBe(404);
    const wrongVehicle = await t.call('POST', '/api/adapter/quixa/clienteVeicolo/FastQuotationFlow', { token: collab, body: { cliente_id: clienteId, veicolo_id: '999.1' } });
    expect(wrongVehicle.status).toBe(422);
    expect(wrongVehicle.body.errors.veicolo_id).toBeDefined();
  });
});

describe('quotation', () => {
  let id: number;
  let simulation: string;

  it('prices P05 (with P03 and P04) and P14 for an existing customer and stores request and response', async () => {
    const res = await t.call('POST', `/api/quixa/FastQuotationFlow?cliente_id=${clienteId}`, { token: collab, body: richiesta({ coverages: cov('P03', 'P04', 'P05', 'P14') }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    id = data.id;
    const q = data.quotation_response.simulation;
    simulation = q.commonData.simulationNumber;
    expect(simulation).toMatch(/^SIM\d{10}$/);
    expect(q.commonData).toMatchObject({ quotationType: 'FastQuotation', validityDate: todayIso() });
    expect(q.quotation.quotationStatus).toBe('Quoted');
    expect(q.quotation.coverages.map((c: { code: string }) => c.code)).toEqual(['P01', 'P03', 'P04', 'P05', 'P14']);
    const sum = q.quotation.coverages.reduce((s: number, c: { price: number }) => s + Math.round(c.price * 100), 0);
    expect(Math.round(q.quotation.totalPrice * 100)).toBe(sum);
    const p03 = q.quotation.coverages.find((c: { code: string }) => c.code === 'P03');
    expect(p03).toMatchObject({ packCode: 'P93', packDescription: 'Incendio, Furto e Cristalli' });
    expect(data).toMatchObject({ cliente_id: clienteId, collaboratore_id: collabId, targa: 'GB123CD', cliente_label: 'BIANCHI CARLA', collaboratore_label: 'ROSSI AGENTE', simulation_number: simulation, quotation_status: 'Quoted' });
    expect(data.quotation_request.contacts[0]).toEqual({ type: 'Email', isPrincipal: true, value: 'carla.bianchi@example.it' });
    expect(data.quotation_request.addresses[0].cityIstat).toBe('058091');
    expect(data.quotation_request.fastFlowData.personData.surname).toBe('BIANCHI');
  });

  it('prices deterministically: same request, same premium; the promotion lowers it only with a risk certificate', async () => {
    const a = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta() });
    const b = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta() });
    expect(a.body.data.total_price).toBe(b.body.data.total_price);
    const promo = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ data: { convention: 'QP_PROMO_20' } }) });
    expect(promo.body.data.total_price).toBeCloseTo(a.body.data.total_price * 0.8, 1);
    expect(promo.body.data.quotation_response.simulation.quotation.promoApplied).toBe(true);
    const nuovo = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ data: { convention: 'QP_PROMO_20', insuranceSituation: 'NewCustomer' } }) });
    expect(nuovo.body.data.quotation_response.simulation.quotation.promoApplied).toBe(false);
  });

  it.each([
    [cov('P05'), 'La garanzia P05 Cristalli richiede P03 Incendio.'],
    [cov('P03', 'P04', 'P14', 'P51'), 'La garanzia P14 Kasko esclude P51 Collisione.'],
    [cov('P52', 'P53'), 'La garanzia P52 Soccorso Stradale Base esclude P53 Soccorso Stradale Top.'],
    [cov('P30'), 'La garanzia P30 Infortuni Conducente non è disponibile per la categoria Auto.'],
    [[{ code: 'P01', value: 7000000 }], 'Massimale non ammesso per la garanzia P01 Responsabilità Civile'],
  ])('refuses a rule-breaking selection before pricing (%#)', async (coverages, message) => {
    const before = await count('quotazioni_rca');
    const res = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ coverages }) });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(message);
    expect(res.body.errors.coverages.join(' ')).toContain(message);
    expect(await count('quotazioni_rca')).toBe(before);
  });

  it('refuses a coverage not available for motorbikes', async () => {
    const res = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ category: 'MotoMore50cc', coverages: cov('P03', 'P04', 'P05') }) });
    expect(res.status).toBe(422);
    expect(res.body.errors.coverages).toEqual(['La garanzia P05 Cristalli non è disponibile per la categoria MotoMore50cc.']);
  });

  it('refuses bad step-2 data at the field: category, past effect date, address type of the person kind', async () => {
    const res = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ data: { vehicleCategory: 'Camion', effectDate: '2020-01-01' } }) });
    expect(res.status).toBe(422);
    expect(res.body.errors['fastFlowData.vehicleCategory']).toBeDefined();
    expect(res.body.errors['fastFlowData.effectDate']).toEqual(['La data è già passata.']);
    const juridic = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ person: { gender: 'Juridic', name: 'Acme srl', vatNumber: '01234567897' } }) });
    expect(juridic.status).toBe(422);
    expect(juridic.body.errors['addresses.0.addressType']).toEqual(['Per una persona giuridica indica la sede.']);
    const noCf = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ person: { gender: 'Male', name: 'Mario' } }) });
    expect(Object.keys(noCf.body.errors).sort()).toEqual(['fastFlowData.personData.birthDate', 'fastFlowData.personData.fiscalCode', 'fastFlowData.personData.surname']);
  });

  it("answers 'Quotazione non disponibile' when the tariff does not apply, and stores it", async () => {
    const res = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ plate: 'ND000ND' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Quotazione non disponibile');
    expect(res.body.data.quotation_response.simulation.quotation).toMatchObject({ quotationStatus: 'NotAvailable', totalPrice: null, coverages: [] });
    const young = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ data: { birthdate: '2015-01-01' } }) });
    expect(young.body.message).toBe('Quotazione non disponibile');
    const proposal = await t.call('POST', '/api/quixa/Proposal', { token: collab, body: { proposalData: { quotationNumber: res.body.data.simulation_number } } });
    expect(proposal.status).toBe(422);
  });

  it('shows an insurer error as its message with details, storing nothing', async () => {
    const before = await count('quotazioni_rca');
    const res = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ plate: 'ER000ER' }) });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Errore della compagnia: impossibile completare la quotazione.');
    expect(res.body.errors.compagnia).toContain('VEH-404: targa non presente nella banca dati ANIA.');
    const timeout = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ plate: 'TO000TO' }) });
    expect(timeout.status).toBe(504);
    expect(await count('quotazioni_rca')).toBe(before);
  });

  it('reads and updates within the row scope', async () => {
    const got = await t.call('GET', `/api/quixa/FastQuotationFlow/${id}`, { token: collab });
    expect(got.status).toBe(200);
    expect(got.body.data.simulation_number).toBe(simulation);
    expect((await t.call('GET', `/api/quixa/FastQuotationFlow/${id}`, { token: otherCollab })).status).toBe(404);
    expect((await t.call('GET', `/api/quixa/FastQuotationFlow/${id}`, { token: staff })).status).toBe(200);
    expect((await t.call('PUT', `/api/quixa/FastQuotationFlow/${id}`, { token: otherCollab, body: richiesta() })).status).toBe(404);
    const before = got.body.data.total_price;
    const res = await t.call('PUT', `/api/quixa/FastQuotationFlow/${id}?cliente_id=${clienteId}`, { token: collab, body: richiesta({ coverages: cov('P03', 'P04', 'P05', 'P14', 'P13') }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.simulation_number).not.toBe(simulation);
    expect(res.body.data.total_price).toBeGreaterThan(before);
    expect(res.body.data.version).toBe(got.body.data.version + 1);
    const broken = await t.call('PUT', `/api/quixa/FastQuotationFlow/${id}`, { token: collab, body: richiesta({ coverages: cov('P14', 'P51') }) });
    expect(broken.status).toBe(422);
    expect((await t.call('GET', `/api/quixa/FastQuotationFlow/${id}`, { token: collab })).body.data.simulation_number).toBe(res.body.data.simulation_number);
    simulation = res.body.data.simulation_number;
  });

  it("refuses a second submit while the user's first is running", async () => {
    const me = (await t.call('GET', '/api/user', { token: collab })).body;
    const userId = me.user?.id ?? me.id;
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`quotazioni_rca:user:${userId}`]);
      const res = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta() });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe("Attendere la fine dell'operaione in corso");
    } finally {
      await client.end();
    }
  });

  it('sends the proposal once for an existing customer', async () => {
    const res = await t.call('POST', '/api/quixa/Proposal', { token: collab, body: { proposalData: { quotationNumber: simulation } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ quotationNumber: simulation, status: 'Sent', mailSent: false, cliente_id: clienteId });
    const again = await t.call('POST', '/api/quixa/Proposal', { token: collab, body: { proposalData: { quotationNumber: simulation, sendMailToClient: true } } });
    expect(again.body.data.proposalNumber).toBe(res.body.data.proposalNumber);
    expect(again.body.message).toBe('Proposta già inviata.');
    const foreign = await t.call('POST', '/api/quixa/Proposal', { token: otherCollab, body: { proposalData: { quotationNumber: simulation } } });
    expect(foreign.status).toBe(404);
    const unknown = await t.call('POST', '/api/quixa/Proposal', { token: collab, body: { proposalData: { quotationNumber: 'SIM0000000000' } } });
    expect(unknown).toMatchObject({ status: 404, body: { message: foreign.body.message } });
    const empty = await t.call('POST', '/api/quixa/Proposal', { token: collab, body: { proposalData: {} } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors['proposalData.quotationNumber']).toEqual(['Campo Obbligatorio.']);
    expect((await t.call('PUT', `/api/quixa/FastQuotationFlow/${id}`, { token: collab, body: richiesta() })).status).toBe(409);
  });
});

describe('new client of step 2', () => {
  const person = { gender: 'Male', name: 'Dario', surname: 'Neri', birthDate: '1975-06-30', fiscalCode: computeCodiceFiscale({ cognome: 'Neri', nome: 'Dario', dataNascita: '1975-06-30', sesso: 'M', codiceCatastale: 'F205' }) };

  it('becomes a customer only on confirmation, once, even when confirmed twice at the same time', async () => {
    const clienti = await count('cliente');
    const q = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: richiesta({ person, plate: 'FA456GH', data: { birthdate: '1975-06-30' } }) });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body.data).toMatchObject({ cliente_id: null, cliente_label: 'NERI DARIO' });
    expect(await count('cliente')).toBe(clienti);
    const body = { proposalData: { quotationNumber: q.body.data.simulation_number, sendMailToClient: false } };
    const [a, b] = await Promise.all([
      t.call('POST', '/api/quixa/Proposal', { token: collab, body }),
      t.call('POST', '/api/quixa/Proposal', { token: collab, body }),
    ]);
    const ok = [a, b].filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    expect(await count('cliente')).toBe(clienti + 1);
    const stored = await t.call('GET', `/api/quixa/FastQuotationFlow/${q.body.data.id}`, { token: collab });
    expect(stored.body.data.cliente_id).toBe(ok[0]!.body.data.cliente_id);
    const cliente = await t.call('GET', `/api/cliente/${stored.body.data.cliente_id}`, { token: collab });
    expect(cliente.body.data).toMatchObject({ nome: 'DARIO', cognome: 'NERI', sesso: 'M', collaboratore_id: collabId, residenza_comune_id: '058091', residenzaProv: 'RM', email: 'carla.bianchi@example.it' });
  });
});

describe('list /api/quotazioni_rca', () => {
  it('lists 100 a page within the row scope, filters by client and deletes with the spec message', async () => {
    const mine = await t.call('GET', '/api/quotazioni_rca', { token: collab });
    expect(mine.status).toBe(200);
    expect(mine.body.per_page).toBe(100);
    expect(mine.body.total).toBeGreaterThan(3);
    expect(mine.body.data[0]).toHaveProperty('simulation_end_date');
    expect((await t.call('GET', '/api/quotazioni_rca', { token: otherCollab })).body.total).toBe(0);
    const filtered = await t.call('GET', '/api/quotazioni_rca?filter[cognome_nome]=neri%20dario', { token: collab });
    expect(filtered.body.data.map((r: { cliente_label: string }) => r.cliente_label)).toEqual(['NERI DARIO']);
    const bySim = await t.call('GET', `/api/quotazioni_rca?filter[simulation_number]=${filtered.body.data[0].simulation_number}`, { token: collab });
    expect(bySim.body.total).toBe(1);
    const day = filtered.body.data[0].created_at.slice(0, 10);
    const sameDay = await t.call('GET', `/api/quotazioni_rca?filter[created_at][from]=${day}&filter[created_at][to]=${day}`, { token: collab });
    expect(sameDay.body.total).toBe(mine.body.total);
    const validity = await t.call('GET', `/api/quotazioni_rca?filter[validity_date][from]=${todayIso()}&filter[simulation_end_date][to]=2000-01-01`, { token: collab });
    expect(validity.body.total).toBe(0);
    const byCollab = await t.call('GET', `/api/quotazioni_rca?filter[collaboratore_id]=${collabId}`, { token: staff });
    expect(byCollab.body.total).toBe(mine.body.total);
    expect((await t.call('POST', '/api/quotazioni_rca', { token: admin, body: { quotation_request: richiesta() } })).status).toBe(404);
    const id = filtered.body.data[0].id;
    expect((await t.call('DELETE', `/api/quotazioni_rca/${id}`, { token: otherCollab })).status).toBe(404);
    const del = await t.call('DELETE', `/api/quotazioni_rca/${id}`, { token: collab });
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Quotazione eliminata con successo');
  });

  it('refuses malformed parameters in Italian at the field', async () => {
    const q = await t.call('POST', '/api/quixa/FastQuotationFlow?cliente_id=abc', { token: collab, body: richiesta() });
    expect(q).toMatchObject({ status: 422, body: { errors: { cliente_id: ['Deve essere un numero intero'] } } });
    const id = await t.call('GET', '/api/quixa/FastQuotationFlow/abc', { token: collab });
    expect(id).toMatchObject({ status: 422, body: { errors: { id: ['Identificativo non valido.'] } } });
    const noBody = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: [1, 2] });
    expect(noBody.status).toBe(422);
    const other = await t.call('POST', `/api/quixa/FastQuotationFlow?cliente_id=${clienteId}`, { token: otherCollab, body: richiesta() });
    expect(other).toMatchObject({ status: 422, body: { errors: { cliente_id: ['Il cliente indicato non esiste.'] } } });
  });

  it('answers 401 without a token and 403 without the permission', async () => {
    expect((await t.call('POST', '/api/quixa/FastQuotationFlow', { body: richiesta() })).status).toBe(401);
    const approver = await userWithRoles(t, admin, { email: 'approver.rca@test.it', roles: ['approvatore'] });
    expect((await t.call('POST', '/api/quixa/FastQuotationFlow', { token: approver, body: richiesta() })).status).toBe(403);
    expect((await t.call('GET', '/api/quotazioni_rca', { token: approver })).status).toBe(200);
  });
});

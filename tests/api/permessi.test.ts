// Issue 29: what a collaborator reads of a quotation (insurer premium, colours), who registers payments, consents that
// outlive their quotation, one customer per codice fiscale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { oggiIso as todayIso } from '../../src/shared/dates.ts';

let t: TestApp;
let admin: string;
let collab: string;
let approver: string;
let collabId: number;
let giallo: number;
let rosso: number;
let verde: number;

function quotazione(model: number, extra: Record<string, unknown> = {}) {
  return {
    persona: 'f', nome: 'Giovanni', cognome: 'Permessi', email: 'giovanni.permessi@example.it', telefono: '+39 333 7654321',
    provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: model, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa: 'AB123CD' }],
    ...extra,
  };
}

async function calculated(token: string, model: number): Promise<number> {
  const q = await t.call('POST', '/api/quotazioni', { token, body: quotazione(model) });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const calc = await t.call('POST', '/api/quotazioni/calcolo', { token, body: { id: q.body.data.model.id } });
  expect(calc.status, JSON.stringify(calc.body)).toBe(200);
  return q.body.data.model.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  collabId = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome: 'PERMESSI', tipo: 'AGENTE', email: 'agente.permessi@example.it' } })).body.data.model.id;
  collab = await userWithRoles(t, admin, { email: 'collab.permessi@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  approver = await userWithRoles(t, admin, { email: 'approver.permessi@test.it', roles: ['approvatore'] });
  const model = async (body: Record<string, unknown>) => (await t.call('POST', '/api/autostoriche', { token: admin, body })).body.data.model.id as number;
  giallo = await model({ marca: 'ALFA ROMEO', modello: 'GIULIA SUPER', anno: 1968, valore_b: 18000, colore: 'giallo', tipologia: 'A' });
  verde = await model({ marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' });
  rosso = await model({ marca: 'LANCIA', modello: 'FLAMINIA', anno: 1965, valore_b: 20000, colore: 'rosso', tipologia: 'A' });
});
afterAll(() => t?.close());

describe('field read permissions of a quotation (spec 000 §2.9, 001 §6)', () => {
  it('a collaborator reads neither the insurer premium, nor the broker rights, nor a yellow colour: get, list, export, stream, calculation', async () => {
    const id = await calculated(collab, giallo);
    const one = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    expect(one).toMatchObject({ colore: null, premio_verti: null, premio: 190.52 });
    expect(one.preventivi[0]).toMatchObject({ premio_compagnia: null, diritti_del_broker: null, premio_base: 170.52, premio_totale: 190.52 });
    expect(one.veicoli_storici[0].colore).toBeNull();

    for (const url of ['/api/quotazioni?filter[cognome]=PERMESSI', '/api/quotazioni?filter[cognome]=PERMESSI&per_page=-1']) {
      const list = await t.call('GET', url, { token: collab });
      expect(list.status, url).toBe(200);
      const row = list.body.data.find((r: { id: number }) => r.id === id);
      expect(row, url).toMatchObject({ colore: null, premio_verti: null });
      expect(row.preventivi[0].premio_compagnia).toBeNull();
      expect(row.veicoli_storici[0].colore).toBeNull();
    }
    const csv = await t.call('GET', `/api/quotazioni/export?format=csv&filter[cognome]=PERMESSI&columns=id,colore,premio`, { token: collab });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).not.toMatch(/Giallo|;g;|;g\r/);

    // The calculation answers like the record.
    const calc = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: quotazione(giallo) });
    expect(calc.status).toBe(200);
    expect(calc.body).toMatchObject({ colore: null, premio_verti: null });
    expect(calc.body.preventivi[0]).toMatchObject({ premio_compagnia: null, diritti_del_broker: null });

    // Nor can the colour be probed by a filter or a sort.
    expect((await t.call('GET', '/api/quotazioni?filter[colore]=g', { token: collab })).status).toBe(422);
    expect((await t.call('GET', '/api/quotazioni?sort=colore', { token: collab })).status).toBe(422);
  });

  it('super_admin reads everything; an approver reads the colours but not the insurer premium', async () => {
    const id = await calculated(collab, giallo);
    const full = (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data;
    expect(full).toMatchObject({ colore: 'g', premio_verti: 140.52 });
    expect(full.preventivi[0]).toMatchObject({ premio_compagnia: 140.52, diritti_del_broker: 30 });
    expect(full.veicoli_storici[0].colore).toBe('g');
    const approved = (await t.call('GET', `/api/quotazioni/${id}`, { token: approver })).body.data;
    expect(approved).toMatchObject({ colore: 'g', premio_verti: null });
    expect(approved.preventivi[0].premio_compagnia).toBeNull();
    const rows = (await t.call('GET', '/api/quotazioni?filter[cognome]=PERMESSI&per_page=-1', { token: admin })).body.data;
    expect(rows.find((r: { id: number }) => r.id === id)).toMatchObject({ colore: 'g', premio_verti: 140.52 });
  });

  it('a red colour stays visible to the collaborator, and a hidden yellow still calls for a derogation', async () => {
    const red = await calculated(collab, rosso);
    const one = (await t.call('GET', `/api/quotazioni/${red}`, { token: collab })).body.data;
    expect(one.colore).toBe('r');
    expect(one.veicoli_storici[0].colore).toBe('r');
    const yellow = await calculated(collab, giallo);
    const wf = await t.call('GET', `/api/quotazioni/${yellow}/workflow`, { token: collab });
    expect(wf.body.data.avvisi).toEqual(['Attenzione! Deroga necessaria.']);
    // The client cannot tell yellow from green: the answer names CONFERMA's real target, for the version it judged.
    const conferma = wf.body.data.eventi.find((e: { type: string }) => e.type === 'CONFERMA');
    expect(conferma.target.key).toBe('in_attesa_di_deroga');
    const shown = (await t.call('GET', `/api/quotazioni/${yellow}`, { token: collab })).body.data;
    expect(shown.colore).toBeNull();
    expect(wf.body.data.version).toBe(shown.version);
    const confirmed = await t.call('POST', `/api/quotazioni/conferma/${yellow}`, { token: collab });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data.model).toMatchObject({ stato_quotazione_id: 2, colore: null });
  });

  it('the definitions tell the client which fields and parts are guarded', async () => {
    const schema = (await t.call('GET', '/api/definitions', { token: collab })).body.resources.find((r: { name: string }) => r.name === 'quotazione').schema;
    expect(schema.properties.premio_verti['x-read-permission']).toBe('super_admin');
    expect(schema.properties.preventivi.items.properties.premio_compagnia['x-read-permission']).toBe('super_admin');
  });
});

describe('registering payments (ruoli.json: gestione_incassi)', () => {
  it('a collaborator may not pay his own titles by any route; a cashier may', async () => {
    const post = async (url: string, body: Record<string, unknown>) => {
      const res = await t.call('POST', url, { token: admin, body });
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
      return res.body.data.model.id as number;
    };
    const fornitore = await post('/api/compagnia', { ragioneSociale: 'Pagamenti Spa', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5 });
    const contrattuale = await post('/api/compagnia_contrattuale', { nome: 'Compagnia Pagamenti' });
    const prodotto = await post('/api/categoria_prodotto', {
      nome: 'Incendio', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12,
    });
    const cliente = await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Pagante', collaboratore_id: collabId });
    const polizza = await post('/api/polizza', {
      collaboratore_id: collabId, cliente_id: cliente, compagnia_contrattuale_id: contrattuale, fornitore_id: fornitore,
      mandato_prodotto_id: prodotto, polizza_numero: 'PAG-1', data_entrata_in_effetto: '2026-01-15', data_scadenza: '2027-01-15',
      frazionamento_slug: 'TRIMESTRALE', tacito_rinnovo: true, totale_premio_imponibile: 1000, totale_premio_imposte: 220, diritti: 10, spese: 5, competenze: 20,
    });
    const titoli = (await t.call('GET', `/api/titolo?filter[polizza_id]=${polizza}&sort=numero_rata`, { token: collab })).body.data as Array<{ id: number; premio: number }>;
    expect(titoli.length).toBe(4);
    const [first, second] = titoli as [{ id: number; premio: number }, { id: number; premio: number }];
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    const payment = (x: { premio: number }) => ({ data_pagamento: today, importo: x.premio, tipo_pagamento: 'BONIFICO' });

    for (const url of [`/api/titolo/${first.id}/pagamento`, `/api/titoli/${first.id}/pagamento`]) {
      const refused = await t.call('POST', url, { token: collab, body: payment(first) });
      expect(refused.status, url).toBe(403);
      expect(refused.body.message).toBe('Non hai i permessi per registrare pagamenti.');
    }
    for (const url of ['/api/titolo/pagamenti', '/api/titoli/pagamenti', '/api/gestione_incassi/pagamenti']) {
      const refused = await t.call('POST', url, { token: collab, body: { titoli: [first.id], data_pagamento: today, importo: first.premio, tipo_pagamento: 'BONIFICO' } });
      expect(refused.status, url).toBe(403);
      expect(refused.body.message).toBe('Non hai i permessi per registrare pagamenti.');
    }
    const unpaid = (await t.call('GET', `/api/titolo/${first.id}`, { token: admin })).body.data;
    expect(unpaid).toMatchObject({ saldato: false, stato: 'GIACENZA' });

    const cashier = await userWithRoles(t, admin, { email: 'cassiere.permessi@test.it', roles: ['cassiere'] });
    const paid = await t.call('POST', `/api/titolo/${first.id}/pagamento`, { token: admin, body: payment(first) });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const desk = await t.call('POST', '/api/gestione_incassi/pagamenti', { token: cashier, body: { titoli: [second.id], data_pagamento: today, importo: second.premio, tipo_pagamento: 'BONIFICO' } });
    expect(desk.status, JSON.stringify(desk.body)).toBe(200);
  });
});

// The customer's public link up to the documents step (status 5): personal data, consents, questionnaire.
const CF = 'RSSMRA80A01H501U';
const personali = (uuid: string) => ({
  uuid, persona: 'f', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cfisc: CF, email: 'mario.rossi@example.it',
  telefono: '+393331234567', attivita_lavorativa: 'LAVORATORE_AUTONOMO', dataNascita: '1980-01-01', nazione_nascita_id: '1',
  provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via Roma', residenzaCivico: '1',
  residenzaCap: '00100', residenza_comune_id: '058091', provincia_codice: 'RM',
});
const consensi = { consenso_trattamento: 'ok', radio1: 'ko', radio2: 'ok', radio3: 'ok', consenso_allegati: 'ok', consenso_otp: 'ok' };
const questionario = {
  radio0: 'ok', copertura: 'ko', ...Object.fromEntries([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((n) => [`radio${n}`, 'ok'])),
  patenti: 2, quotidiano: 1,
  veicoli_storici: [{ targa: 'AB123CD', tipologia_ania: 'A', anno: 1968 }],
  veicoli_moderni: [{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'ab123cd', grado_parentela: 'Contraente' }],
};

async function linkToDocuments(): Promise<{ id: number; clienteId: number }> {
  const id = await calculated(collab, verde);
  const conferma = await t.call('POST', `/api/quotazioni/conferma/${id}`, { token: collab });
  expect(conferma.body.data?.model?.stato_quotazione_id, JSON.stringify(conferma.body)).toBe(4);
  const uuid = (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data.uuid as string;
  const dati = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid) });
  expect(dati.status, JSON.stringify(dati.body)).toBe(201);
  expect((await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 3, ...consensi } })).status).toBe(201);
  const q = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, ...questionario } });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  expect((await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data.stato_quotazione_id).toBe(5);
  return { id, clienteId: dati.body.data.model.id };
}

const consentRows = async (quotazioneId: number) =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM quotazione_consenso WHERE quotazione_id = ${quotazioneId}`.execute(t.connection.db)).rows[0]!.n;

describe('consents outlive their quotation (GDPR art. 7(1))', () => {
  it('deleting the quotation keeps its consent records, with the customer; the table refuses deletes and changes', async () => {
    const { id, clienteId } = await linkToDocuments();
    const before = await consentRows(id);
    expect(before).toBe(6);
    const del = await t.call('DELETE', `/api/quotazioni/${id}`, { token: collab });
    expect(del.status, JSON.stringify(del.body)).toBeLessThan(300);
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).status).toBe(404);
    expect(await consentRows(id)).toBe(before);
    const kept = await t.call('GET', `/api/cliente/${clienteId}/consensi`, { token: collab });
    expect(kept.status).toBe(200);
    expect(kept.body.data.filter((r: { quotazione_id: number }) => r.quotazione_id === id).map((r: { consenso: string }) => r.consenso))
      .toEqual(['consenso_trattamento', 'radio1', 'radio2', 'radio3', 'consenso_allegati', 'consenso_otp']);
    await expect(sql`DELETE FROM quotazione_consenso WHERE quotazione_id = ${id}`.execute(t.connection.db)).rejects.toThrow(/append-only/);
    await expect(sql`UPDATE quotazione_consenso SET cliente_id = NULL WHERE quotazione_id = ${id}`.execute(t.connection.db)).rejects.toThrow(/append-only/);
    expect(await consentRows(id)).toBe(before);
  });
});

describe('one customer per codice fiscale', () => {
  it('the public link and the RCA stepper reuse the customer on file; the generic form refuses a second one at cf', async () => {
    const first = await linkToDocuments();
    const second = await linkToDocuments();
    expect(second.clienteId).toBe(first.clienteId);

    const rca = await t.call('POST', '/api/quixa/FastQuotationFlow', { token: collab, body: {
      fastFlowData: {
        vehicleCategory: 'Auto', plate: 'FA456GH', birthdate: '1980-01-01', convention: 'QP_STANDARD', effectDate: todayIso(), bonusMalus: 5,
        insuranceSituation: 'AlreadyInsuredATR',
        personData: { gender: 'Male', name: 'mario', surname: 'rossi', birthDate: '1980-01-01', maritalStatus: 'Single', fiscalCode: CF },
      },
      coverages: [{ code: 'P01', description: 'Responsabilità Civile', selected: true, value: 6000000, coInsurance: true, PackageCode: 'P94' }],
      addresses: [{ addressType: 'PermanentResidency', streetType: 'Via', streetName: 'roma', number: '1', cityIstat: 58091, zipCode: '00100' }],
      contacts: [{ type: 'Email', isPrincipal: true, value_contact: 'mario.rossi@example.it' }],
      privacyData: { question1: true, question2: true, question3: true },
    } });
    expect(rca.status, JSON.stringify(rca.body)).toBe(200);
    const proposal = await t.call('POST', '/api/quixa/Proposal', { token: collab, body: { proposalData: { quotationNumber: rca.body.data.simulation_number, sendMailToClient: false } } });
    expect(proposal.status, JSON.stringify(proposal.body)).toBe(200);
    expect(proposal.body.data.cliente_id).toBe(first.clienteId);

    const holders = await sql<{ n: number }>`SELECT count(*)::int AS n FROM cliente WHERE cf = ${CF}`.execute(t.connection.db);
    expect(holders.rows[0]!.n).toBe(1);

    const body = { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cf: CF.toLowerCase() };
    const dup = await t.call('POST', '/api/cliente', { token: collab, body });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ cf: ['Esiste già un cliente con questo codice fiscale.'] });
    // Another collaborator learns only that the code is taken.
    const otherId = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'F', nome: 'Altra', cognome: 'AGENTE', tipo: 'AGENTE', email: 'altra.permessi@example.it' } })).body.data.model.id;
    const other = await userWithRoles(t, admin, { email: 'other.permessi@test.it', roles: ['collaboratore'], collaboratore_id: otherId });
    const foreign = await t.call('POST', '/api/cliente', { token: other, body });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ cf: ['Esiste già un cliente con questo codice fiscale.'] });
    expect(JSON.stringify(foreign.body)).not.toContain(String(first.clienteId));
  });
});

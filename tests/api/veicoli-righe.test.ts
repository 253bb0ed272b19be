// Historic vehicle rows (issue 29): registry data refreshed one vehicle at a time stay on each row through every later
// write (staff PUT, the public link), whatever the writer sends; a copied quotation (renewal) has row ids of its own;
// the exclusion calculation takes the spec's body {date, vehicle} (spec 001 §7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collab: string;
let collabId: number;
let fiat: number;

type Row = Record<string, any>;
const OGGI = oggiIso();
const IERI = giornoIso(-1);
const TRA_UN_MESE = giornoIso(30);
const REGISTRO = ['json', 'alert', 'errore_registro', 'sivi_tax_code', 'sivi_registration_date', 'sivi_vehicle_weight', 'atrc_beneficiary_tax_code', 'atrc_beneficiary_first_name', 'atrc_beneficiary_last_name'];

/** A row as the screen holds it: without the registry fields it does not keep. */
const comeSulloSchermo = (v: Row) => Object.fromEntries(Object.entries(v).filter(([k]) => !REGISTRO.includes(k) && k !== 'colore'));
const get = async (id: number) => (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data as Row;
const put = (id: number, body: Row, token = collab) => t.call('PUT', `/api/quotazioni/${id}`, { token, body });
const aggiorna = (rowId: string, targa: string, token = collab) => t.call('POST', `/api/veicolo_update_dati_ania/${rowId}/${targa}/A`, { token });

async function treVeicoli(): Promise<Row> {
  const res = await t.call('POST', '/api/quotazioni', { token: collab, body: {
    persona: 'f', nome: 'Mario', cognome: 'Rossi', cfisc: 'RSSMRA70A01H501S', email: 'mario.rossi@example.it', telefono: '+39 333 7654321', provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [1968, 1969, 1970].map((anno) => ({ auto_storica_id: fiat, marca: 'Fiat', modello: '500 F', anno, tipologia_ania: 'A' })),
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model;
}

/** The screen's flow: type a plate, 'Aggiorna dati Ania' saves the form (without the registry fields) and refreshes. */
async function aggiornaUnoAllaVolta(q: Row, targhe: string[]): Promise<{ screen: Row; letti: Row[] }> {
  let screen = q;
  const letti: Row[] = [];
  for (const [i, targa] of targhe.entries()) {
    const rows = (screen.veicoli_storici as Row[]).map(comeSulloSchermo);
    rows[i] = { ...rows[i], targa };
    const saved = await put(q.id, { veicoli_storici: rows, version: screen.version });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const res = await aggiorna(rows[i]!.id, targa);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    letti.push(res.body.data);
    screen = res.body.model;
  }
  return { screen, letti };
}

function tieneIDati(rows: Row[], letti: Row[]) {
  for (const [i, letto] of letti.entries()) {
    expect(rows[i]!.json, `veicolo ${i}`).toEqual(letto.json);
    expect(rows[i]!.alert ?? null, `veicolo ${i}`).toEqual(letto.alert ?? null);
    expect(rows[i]!.errore_registro ?? null, `veicolo ${i}`).toEqual(letto.errore_registro ?? null);
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  collabId = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome: 'ROSSI', tipo: 'AGENTE', email: 'rossi.righe@example.it' } })).body.data.model.id;
  collab = await userWithRoles(t, admin, { email: 'collab.righe@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  staff = await userWithRoles(t, admin, { email: 'staff.righe@test.it', roles: ['staff'] });
  fiat = (await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } })).body.data.model.id;
});
afterAll(() => t?.close());

describe('registry data of each vehicle', () => {
  it('three vehicles refreshed in turn, the form saved before each refresh: each keeps its own json and alert', async () => {
    const q = await treVeicoli();
    const { letti } = await aggiornaUnoAllaVolta(q, ['ZD111AA', 'ZE222BB', 'ZS333CC']);
    expect(letti.map((l) => l.json?.result)).toEqual([expect.any(Number), 2, expect.any(Number)]);
    tieneIDati((await get(q.id)).veicoli_storici, letti);
  });

  it('a staff PUT that omits, forges, clears or reorders the registry fields changes none of them', async () => {
    const q = await treVeicoli();
    const { screen, letti } = await aggiornaUnoAllaVolta(q, ['ZD111AA', 'ZE222BB', 'ZS333CC']);
    const rows = screen.veicoli_storici as Row[];
    const forged = [
      { ...rows[2], furto: true, json: { result: 0, falso: true }, alert: 'falso', errore_registro: null },
      { ...rows[0], json: null, alert: null, sivi_tax_code: 'XXXXXX00X00X000X' },
      comeSulloSchermo(rows[1]!),
    ];
    const saved = await put(q.id, { veicoli_storici: forged, version: screen.version }, staff);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const stored = (await get(q.id)).veicoli_storici as Row[];
    expect(stored.map((v) => v.targa)).toEqual(['ZS333CC', 'ZD111AA', 'ZE222BB']);
    tieneIDati(stored, [letti[2]!, letti[0]!, letti[1]!]);
    expect(stored[1]!.sivi_tax_code).toBe(rows[0]!.sivi_tax_code ?? undefined);
    expect(stored[0]!.furto).toBe(true);

    // A new row cannot bring registry data; a row whose plate changes loses the data read for the old plate.
    const again = await get(q.id);
    const next = (again.veicoli_storici as Row[]).map((v, i) => (i === 2 ? { ...v, targa: 'AB123CD' } : v));
    next.push({ auto_storica_id: fiat, marca: 'Fiat', modello: '500 F', anno: 1971, tipologia_ania: 'A', targa: 'ZA444DD', json: { result: 0 }, alert: 'falso' });
    expect((await put(q.id, { veicoli_storici: next, version: again.version })).status).toBe(200);
    const last = (await get(q.id)).veicoli_storici as Row[];
    tieneIDati(last.slice(0, 2), [letti[2]!, letti[0]!]);
    expect([last[2]!.json, last[2]!.alert, last[3]!.json, last[3]!.alert]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('the calculation and the public link keep them, whatever the customer sends', async () => {
    const q = await treVeicoli();
    const { letti } = await aggiornaUnoAllaVolta(q, ['ZD111AA', 'ZA222BB', 'ZS333CC']);
    // A calculation that sends the vehicles as the screen holds them.
    const calc = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id, version: (await get(q.id)).version, veicoli_storici: (await get(q.id)).veicoli_storici.map(comeSulloSchermo) } });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    tieneIDati((await get(q.id)).veicoli_storici, letti);
    expect((await get(q.id)).veicoli_storici.map((v: Row) => v.colore)).toEqual(['v', 'v', 'v']);

    const confirmed = await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
    expect(confirmed.body.data.model.stato_quotazione_id, JSON.stringify(confirmed.body)).toBe(4);
    const mail = (await sql<{ corpo: string }>`SELECT corpo FROM email_outbox WHERE record_id = ${q.id} AND evento = 'CONFERMA'`.execute(t.connection.db)).rows[0]!;
    const uuid = /\/quotazione\/cliente\/([0-9a-f-]{36})/.exec(mail.corpo)![1]!;
    const personali = await t.call('POST', '/api/cliente/quotazione', { body: {
      uuid, persona: 'f', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cfisc: 'RSSMRA70A01H501S', email: 'mario.rossi@example.it',
      telefono: '+393331234567', attivita_lavorativa: 'LAVORATORE_AUTONOMO', dataNascita: '1970-01-01', nazione_nascita_id: '1',
      provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via Roma', residenzaCivico: '1',
      residenzaCap: '00100', residenza_comune_id: '058091', provincia_codice: 'RM',
    } });
    expect(personali.status, JSON.stringify(personali.body)).toBe(201);
    const consensi = await t.call('PUT', `/api/cliente/quotazione/${q.id}`, { body: { uuid, passo: 3, consenso_trattamento: 'ok', radio1: 'ko', radio2: 'ok', radio3: 'ok', consenso_allegati: 'ok', consenso_otp: 'ok' } });
    expect(consensi.status, JSON.stringify(consensi.body)).toBe(201);
    const done = await t.call('PUT', `/api/cliente/quotazione/${q.id}`, { body: {
      uuid, passo: 4, radio0: 'ok', copertura: 'ko', ...Object.fromEntries([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((n) => [`radio${n}`, 'ok'])),
      patenti: 2, quotidiano: 1,
      veicoli_storici: [
        { targa: ' zd111aa ', tipologia_ania: 'A', anno: 1968, json: { result: 0, falso: true }, alert: 'falso' },
        { targa: 'ZA222BB', tipologia_ania: 'A', anno: 1969, json: null, alert: null },
        { targa: 'ZS333CC', tipologia_ania: 'A', anno: 1970 },
      ],
      veicoli_moderni: [{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'AB123CD', grado_parentela: 'Contraente' }],
    } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const after = await get(q.id);
    expect(after.stato_quotazione_id).toBe(5);
    tieneIDati(after.veicoli_storici, letti);
  });
});

describe('row ids', () => {
  it('a row id sent that names another quotation\'s vehicle, or repeats in the list, becomes a new one', async () => {
    const a = await treVeicoli();
    const b = await treVeicoli();
    const rows = (b.veicoli_storici as Row[]).map((v, i) => (i === 0 ? { ...v, id: a.veicoli_storici[0].id } : i === 2 ? { ...v, id: b.veicoli_storici[1].id } : v));
    expect((await put(b.id, { veicoli_storici: rows, version: b.version })).status).toBe(200);
    const ids = ((await get(b.id)).veicoli_storici as Row[]).map((v) => v.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).not.toBe(a.veicoli_storici[0].id);
    expect(ids[1]).toBe(b.veicoli_storici[1].id);
    const res = await aggiorna(a.veicoli_storici[0].id, 'ZD111AA');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.model.id).toBe(a.id);
  });

  it('a renewal has row ids of its own, and "Aggiorna dati Ania" on it updates the renewal', async () => {
    const created = await t.call('POST', '/api/quotazioni', { token: admin, body: {
      persona: 'f', nome: 'Mario', cognome: 'Rossi', email: 'mario.rossi@example.it', telefono: '+39 333 1234567', cfisc: 'RSSMRA80A01H501U',
      provincia_codice: 'RM', competenze: 20, collaboratore_id: collabId,
      veicoli_storici: ['RN111AA', 'RN222BB'].map((targa) => ({ auto_storica_id: fiat, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa })),
    } });
    const id = created.body.data.model.id as number;
    expect((await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } })).status).toBe(200);
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 7 } })).status).toBe(200);
    expect((await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: IERI } })).status).toBe(200);
    const issued = await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const originale = await get(id);

    const res = await t.call('POST', `/api/quotazioni/rinnovo-polizza/${id}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rinnovo = res.body.data.model as Row;
    const idsOriginale = (originale.veicoli_storici as Row[]).map((v) => v.id);
    const idsRinnovo = (rinnovo.veicoli_storici as Row[]).map((v) => v.id);
    expect(rinnovo.veicoli_storici.map((v: Row) => v.targa)).toEqual(['RN111AA', 'RN222BB']);
    expect(idsRinnovo.filter((x) => typeof x === 'string')).toHaveLength(2);
    expect(idsRinnovo.some((x) => idsOriginale.includes(x))).toBe(false);

    const rinnovata = await get(id);
    const refreshed = await t.call('POST', `/api/veicolo_update_dati_ania/${idsRinnovo[1]}/ZD222BB/A`, { token: admin });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.model.id).toBe(rinnovo.id);
    expect((await get(rinnovo.id)).veicoli_storici[1]).toMatchObject({ targa: 'ZD222BB', json: { result: expect.any(Number) } });
    const dopo = await get(id);
    expect([dopo.version, dopo.veicoli_storici[1].targa]).toEqual([rinnovata.version, 'RN222BB']);
  });
});

describe('exclusion calculate with the spec body {date, vehicle}', () => {
  it('names the vehicle by its row or its plate; an unknown one is refused at vehicle', async () => {
    const created = await t.call('POST', '/api/quotazioni', { token: admin, body: {
      persona: 'f', nome: 'Mario', cognome: 'Rossi', email: 'mario.rossi@example.it', telefono: '+39 333 1234567', cfisc: 'RSSMRA80A01H501U',
      provincia_codice: 'RM', competenze: 20, collaboratore_id: collabId,
      veicoli_storici: ['EX111AA', 'EX222BB'].map((targa) => ({ auto_storica_id: fiat, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa })),
    } });
    const id = created.body.data.model.id as number;
    expect((await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } })).status).toBe(200);
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 7 } })).status).toBe(200);
    expect((await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: IERI } })).status).toBe(200);
    expect((await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: staff, body: {} })).status).toBe(200);
    const veicoli = (await get(id)).veicoli_storici as Row[];
    const url = `/api/v1/goold/quotations/exclusion/calculate/${id}`;

    const byRow = await t.call('POST', url, { token: staff, body: { date: TRA_UN_MESE, vehicle: veicoli[1] } });
    expect(byRow.status, JSON.stringify(byRow.body)).toBe(200);
    expect(byRow.body.data.premio).toBeGreaterThan(0);
    expect(byRow.body.data.appendice).toMatchObject({ targa: 'EX222BB', veicolo_id: veicoli[1]!.id });

    const byPlate = await t.call('POST', url, { token: staff, body: { date: TRA_UN_MESE, vehicle: { plate_number: 'ex111aa' } } });
    expect(byPlate.status, JSON.stringify(byPlate.body)).toBe(200);
    expect(byPlate.body.data.appendice).toMatchObject({ targa: 'EX111AA', veicolo_id: veicoli[0]!.id });

    const unknown = await t.call('POST', url, { token: staff, body: { date: TRA_UN_MESE, vehicle: { targa: 'ZZ999ZZ' } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ vehicle: ['Il veicolo ZZ999ZZ non è tra quelli della polizza.'] });
    const missing = await t.call('POST', url, { token: staff, body: { date: TRA_UN_MESE, vehicle: {} } });
    expect(missing.body.errors).toEqual({ vehicle: ['Campo Obbligatorio.'] });
  });
});

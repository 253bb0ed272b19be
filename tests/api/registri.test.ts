// Registry data through the API (spec 001 §7): refresh of a stored vehicle for each sandbox case, enrichment of an
// unsaved vehicle, the plate rule, row scope, and nothing stored when the registry does not answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { MESSAGGI_REGISTRI as M } from '../../src/shared/registri.ts';

let t: TestApp;
let admin: string;
let collab: string;
let otherCollab: string;
const CF = 'RSSMRA70A01H501S';

async function quotazione(token: string, veicoli: Array<Record<string, unknown>>) {
  const res = await t.call('POST', '/api/quotazioni', { token, body: {
    persona: 'f', nome: 'Mario', cognome: 'Rossi', cfisc: CF, email: 'mario.rossi@example.it', telefono: '+39 333 7654321', provincia_codice: 'RM',
    veicoli_storici: veicoli.map((v) => ({ marca: 'Fiat', modello: '500 F', anno: 1968, ...v })),
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model as { id: number; version: number; veicoli_storici: Array<Record<string, any>> };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collab = await userWithRoles(t, admin, { email: 'collab.r@test.it', roles: ['collaboratore'], collaboratore_id: await mk('ROSSI', 'rossi.r@example.it') });
  otherCollab = await userWithRoles(t, admin, { email: 'other.r@test.it', roles: ['collaboratore'], collaboratore_id: await mk('VERDI', 'verdi.r@example.it') });
});
afterAll(() => t?.close());

describe('POST /api/veicolo_update_dati_ania/{id}/{plate}/{type}', () => {
  it('gives every historic vehicle a row id', async () => {
    const q = await quotazione(collab, [{ targa: 'AB123CD' }, { targa: 'ZS123AB' }]);
    expect(q.veicoli_storici.map((v) => typeof v.id)).toEqual(['string', 'string']);
  });

  it.each([
    ['AB123CD', 'A', { alert: `${M.siviCoincide} - ${M.contraenteAventeDiritto}`, avente_diritto_codice_fiscale_iva: CF, avente_diritto_cognome: 'ROSSI', errore_registro: null }],
    ['ZS123AB', 'A', { alert: `${M.siviAssente} - ${M.contraenteAventeDiritto}`, sivi_tax_code: null }],
    ['ZA123AB', 'A', { alert: `${M.siviCoincide} - ${M.atrcAssente}`, atrc_beneficiary_tax_code: null }],
    ['ZD123AB', 'A', { alert: `${M.siviDiverso} - ${M.atrcCoincideSivi}`, avente_diritto_codice_fiscale_iva: 'BNCLGU60C12F205K', avente_diritto_cognome: 'BIANCHI' }],
    ['ZB123AB', 'A', { alert: `${M.siviDiverso} - ${M.atrcDaAttestato}`, avente_diritto_cognome: 'VERDI' }],
    ['ZE123AB', 'A', { errore_registro: 'Targa ZE123AB non presente nella banca dati ANIA', alert: null }],
  ])('stores the registry answer for %s', async (targa, tipo, expected) => {
    const q = await quotazione(collab, [{ targa: 'ZZ999ZZ' }, { targa: 'XX000XX', note_veicolo: 'resta' }]);
    const id = q.veicoli_storici[0]!.id;
    const res = await t.call('POST', `/api/veicolo_update_dati_ania/${id}/${targa.toLowerCase()}/${tipo}`, { token: collab });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id, targa, tipologia_ania: tipo, ...expected });
    const stored = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data;
    expect(stored.veicoli_storici[0]).toMatchObject({ targa, ...expected, json: { result: expect.any(Number) } });
    // The other vehicle is untouched, and the write took a new version.
    expect(stored.veicoli_storici[1]).toMatchObject({ targa: 'XX000XX', note_veicolo: 'resta' });
    expect(stored.veicoli_storici[1].json).toBeUndefined();
    expect(stored.version).toBe(q.version + 1);
  });

  it('claims in several years are stored by year', async () => {
    const q = await quotazione(collab, [{ targa: 'ZC123AB' }]);
    const res = await t.call('POST', `/api/veicolo_update_dati_ania/${q.veicoli_storici[0]!.id}/ZC123AB/A`, { token: collab });
    const righe = res.body.data.json.ResponseAnia.claims as Array<{ claimsType: string; years: Array<{ Year: number; ClaimNumber: string }> }>;
    const anni = righe.find((r) => r.claimsType === '01')!.years.filter((y) => y.ClaimNumber === '01').map((y) => y.Year);
    expect(anni).toHaveLength(2);
  });

  it('takes the weight in quintals from SIVI for type C', async () => {
    const q = await quotazione(collab, [{ targa: 'AB123CD' }]);
    const res = await t.call('POST', `/api/veicolo_update_dati_ania/${q.veicoli_storici[0]!.id}/AB123CD/C`, { token: collab });
    expect(res.body.data.quintali).toBeGreaterThan(0);
    expect(res.body.data.sivi_vehicle_weight).toBe(res.body.data.quintali);
  });

  it('needs a plate longer than 5 characters and a known type', async () => {
    const q = await quotazione(collab, [{ targa: 'AB123CD' }]);
    const id = q.veicoli_storici[0]!.id;
    const short = await t.call('POST', `/api/veicolo_update_dati_ania/${id}/AB12/A`, { token: collab });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({ targa: ['Devi compilare la targa per aggiornare i dati ania'] });
    expect((await t.call('POST', `/api/veicolo_update_dati_ania/${id}/AB123CD/X`, { token: collab })).status).toBe(422);
  });

  it('answers 503 and stores nothing when the registry does not answer', async () => {
    const q = await quotazione(collab, [{ targa: 'AB123CD' }]);
    const res = await t.call('POST', `/api/veicolo_update_dati_ania/${q.veicoli_storici[0]!.id}/ZT123AB/A`, { token: collab });
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('non risponde');
    const stored = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data;
    expect(stored.version).toBe(q.version);
    expect(stored.veicoli_storici[0].json).toBeUndefined();
  });

  it("another collaborator's vehicle answers 404, an unknown vehicle 404", async () => {
    const q = await quotazione(collab, [{ targa: 'AB123CD' }]);
    expect((await t.call('POST', `/api/veicolo_update_dati_ania/${q.veicoli_storici[0]!.id}/AB123CD/A`, { token: otherCollab })).status).toBe(404);
    expect((await t.call('POST', '/api/veicolo_update_dati_ania/nessuno/AB123CD/A', { token: collab })).status).toBe(404);
  });

  it('registry fields are the server\'s: a client cannot write them', async () => {
    const res = await t.call('POST', '/api/quotazioni', { token: collab, body: {
      persona: 'f', nome: 'Mario', cognome: 'Rossi', veicoli_storici: [{ marca: 'Fiat', modello: '500', anno: 1968, alert: 'x', sivi_tax_code: 'X' }],
    } });
    // Either refused or ignored; never stored as sent.
    if (res.status === 201) expect(res.body.data.model.veicoli_storici[0].alert).toBeUndefined();
    else expect(res.status).toBe(422);
  });
});

describe('POST /api/ciccio/{plate}/{type}', () => {
  it('merges registry data into an unsaved vehicle and stores nothing', async () => {
    const res = await t.call('POST', '/api/ciccio/ZD123AB/A', { token: collab, body: { marca: 'Lancia', modello: 'Fulvia', anno: 1970, contraente: { nome: 'MARIO', cognome: 'ROSSI', codice_fiscale: CF } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ marca: 'Lancia', targa: 'ZD123AB', tipologia_ania: 'A', alert: `${M.siviDiverso} - ${M.atrcCoincideSivi}` });
  });
  it('takes the contractor from a quotation in scope only', async () => {
    const q = await quotazione(collab, [{ targa: 'AB123CD' }]);
    const mine = await t.call('POST', '/api/ciccio/AB123CD/A', { token: collab, body: { quotazione_id: q.id } });
    expect(mine.body.data.avente_diritto_codice_fiscale_iva).toBe(CF);
    expect((await t.call('POST', '/api/ciccio/AB123CD/A', { token: otherCollab, body: { quotazione_id: q.id } })).status).toBe(404);
  });
  it('refuses a short plate', async () => {
    const res = await t.call('POST', '/api/ciccio/AB1/A', { token: collab, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors.targa).toEqual(['Devi compilare la targa per aggiornare i dati ania']);
  });
});

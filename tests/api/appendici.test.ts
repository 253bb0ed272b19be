// Inclusion and exclusion appendices on an issued historic-car policy: calculation into a draft that survives a reload,
// amounts in cents, super_admin-only overrides, preview, issue exactly once under concurrency and faults, refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';
import { appendiciEmesseSandbox, impostaGuastiAppendiciSandbox } from '../../src/server/adapters/auto-storiche/appendici-sandbox.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collab: string;
let otherCollab: string;
let collabId: number;
let fiat: number;
let lancia: number;

const OGGI = oggiIso();
const IERI = giornoIso(-1);
const TRA_UN_MESE = giornoIso(30);

const appendici = async (id: number) =>
  (await sql<{ operazione: string; stato: string; numero_appendice: string | null; importo: number }>`SELECT operazione, stato, numero_appendice, importo FROM appendice WHERE quotazione_id = ${id} ORDER BY id`.execute(t.connection.db)).rows;
const storico = async (id: number) =>
  (await sql<{ event: string; note: string }>`SELECT event, note FROM workflow_history WHERE resource = 'quotazione' AND record_id = ${id} ORDER BY id`.execute(t.connection.db)).rows;
const record = async (id: number) => (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data;

/** A quotation in 'In attesa di emissione' with its receipt day saved. */
async function daEmettere(targhe: string[]): Promise<number> {
  const created = await t.call('POST', '/api/quotazioni', { token: admin, body: {
    persona: 'f', nome: 'Mario', cognome: 'Rossi', email: 'mario.rossi@example.it', telefono: '+39 333 1234567', cfisc: 'RSSMRA80A01H501U',
    provincia_codice: 'RM', competenze: 20, collaboratore_id: collabId,
    veicoli_storici: targhe.map((targa) => ({ auto_storica_id: fiat, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa })),
  } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.model.id as number;
  expect((await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } })).status).toBe(200);
  expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 7 } })).status).toBe(200);
  expect((await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: IERI } })).status).toBe(200);
  return id;
}

/** A quotation with an issued policy (status 9), as the issue flow leaves it. */
async function emessa(targhe: string[] = ['AB123CD']): Promise<number> {
  const id = await daEmettere(targhe);
  const issued = await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: staff, body: {} });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  expect((await record(id)).stato_quotazione_id).toBe(9);
  return id;
}

const inclusione = (id: number, extra: Record<string, unknown> = {}) => ({
  auto_storica: { id: lancia },
  veicolo: { quotazione_id: id, auto_storica_id: lancia, tipologia: 'S' },
  appendice: { quotazione_id: id, operazione: 'inclusione', data_effetto: TRA_UN_MESE, ...extra },
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collabId = await mk('BIANCHI', 'bianchi.app@example.it');
  staff = await userWithRoles(t, admin, { email: 'staff.app@test.it', roles: ['staff'] });
  collab = await userWithRoles(t, admin, { email: 'collab.app@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  otherCollab = await userWithRoles(t, admin, { email: 'other.app@test.it', roles: ['collaboratore'], collaboratore_id: await mk('NERI', 'neri.app@example.it') });
  const model = async (body: Record<string, unknown>) => (await t.call('POST', '/api/autostoriche', { token: admin, body })).body.data.model.id as number;
  fiat = await model({ marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' });
  lancia = await model({ marca: 'LANCIA', modello: 'FULVIA COUPE', anno: 1970, valore_b: 15000, colore: 'verde', tipologia: 'A' });
});
afterAll(() => t?.close());

describe('inclusion', () => {
  it('calculates into a draft that a reload finds, then previews and issues once', async () => {
    const id = await emessa();
    const missing = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: staff, body: { historic: { auto_storica_id: lancia, targa: 'CD456EF' } } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ data_effetto: ['data di decorrenza obbligatoria'] });

    const calc = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: staff, body: { date: TRA_UN_MESE, historic: { auto_storica_id: lancia, targa: 'cd456ef', tipologia_ania: 'A' }, competenze: 10 } });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    const { nuovo_premio_annuale, appendice } = calc.body.data;
    // The insurer's amount is the super_admin's (spec 001 §6): staff get null, in the answer and in the draft.
    expect(calc.body.data.premio_verti).toBeNull();
    expect(appendice.premio_verti).toBeNull();
    const { premio_verti } = (await t.call('GET', `/api/quotazioni/${id}/appendici`, { token: admin })).body.bozze.inclusione;
    expect(premio_verti).toBeGreaterThan(0);
    expect(nuovo_premio_annuale).toBeGreaterThan(premio_verti);
    // Total = competenze + issue fee (15 €) + insurer premium, in cents.
    expect(Math.round(appendice.appendice_totale * 100)).toBe(1000 + 1500 + Math.round(premio_verti * 100));
    expect(appendice).toMatchObject({ stato: 'bozza', targa: 'CD456EF', spese_emissione: 15, competenze: 10 });

    const reloaded = await t.call('GET', `/api/quotazioni/${id}/appendici`, { token: staff });
    expect(reloaded.body.bozze.inclusione).toMatchObject({ targa: 'CD456EF', premio_verti: null });

    const preview = await t.call('POST', '/api/preview_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id) });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ result: 0, verti_response: expect.any(String) });

    // Only a super_admin changes the insurer premium or the fee; a wrong total is refused.
    const forced = await t.call('POST', '/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id, { premio_verti: 1, importo: 26 }) });
    expect(forced.status).toBe(422);
    expect(forced.body.errors['appendice.premio_verti']).toEqual(['Solo un super_admin può modificare questo importo.']);
    const noAmount = await t.call('POST', '/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id) });
    expect(noAmount.body.errors).toEqual({ 'appendice.importo': ['Campo Obbligatorio.'] });
    const wrongTotal = await t.call('POST', '/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id, { appendice_totale: 1, importo: appendice.appendice_totale }) });
    expect(Object.keys(wrongTotal.body.errors)).toEqual(['appendice.appendice_totale']);
    expect((await appendici(id)).map((a) => a.stato)).toEqual(['bozza']);

    // Ten concurrent issues: one appendix, one vehicle added, one history row.
    const answers = await Promise.all(Array.from({ length: 10 }, () =>
      t.call('POST', '/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id, { importo: appendice.appendice_totale }) })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok[0]!.body.message).toBe('Inclusione Emessa Correttamente');
    for (const a of answers.filter((x) => x.status !== 200)) expect([409, 422]).toContain(a.status);
    const rows = await appendici(id);
    expect(rows.filter((a) => a.stato === 'emessa')).toHaveLength(1);
    expect(await appendiciEmesseSandbox(t.connection.db, `Q${id}`)).toEqual([rows[0]!.numero_appendice]);
    const after = await record(id);
    expect(after.veicoli_storici.map((v: { targa: string; operazione?: string }) => [v.targa, v.operazione ?? null])).toEqual([['AB123CD', null], ['CD456EF', 'inclusione']]);
    expect((await storico(id)).filter((h) => h.event === 'APPENDICE').map((h) => h.note)).toEqual([expect.stringContaining('Inclusione del veicolo CD456EF')]);
    expect(after.stato_quotazione_id).toBe(9);
  });

  it('a timeout after the insurer committed is reconciled: still one appendix', async () => {
    const id = await emessa(['GH789IJ']);
    const calc = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: staff, body: { date: TRA_UN_MESE, historic: { auto_storica_id: lancia, targa: 'TM111AA' } } });
    impostaGuastiAppendiciSandbox('TM111AA', ['timeout_dopo_commit']);
    const res = await t.call('POST', '/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id, { importo: calc.body.data.appendice.appendice_totale }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await appendiciEmesseSandbox(t.connection.db, `Q${id}`)).toHaveLength(1);
    expect((await appendici(id)).filter((a) => a.stato === 'emessa')).toHaveLength(1);
  });

  it('refuses a date outside the policy, an insurer error keeps the draft, and the wrong status or scope', async () => {
    const id = await emessa(['KL012MN']);
    const outside = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: staff, body: { date: '2000-01-01', historic: { auto_storica_id: lancia, targa: 'ZZ999ZZ' } } });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.data_effetto[0]).toContain('periodo della polizza');
    const calc = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: staff, body: { date: TRA_UN_MESE, historic: { auto_storica_id: lancia, targa: 'ERR0001' } } });
    const refused = await t.call('POST', '/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { token: staff, body: inclusione(id, { importo: calc.body.data.appendice.appendice_totale }) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.appendice[0]).toContain('non assicurabile');
    expect((await appendici(id)).map((a) => a.stato)).toEqual(['bozza']);
    // A collaborator outside the scope sees nothing; a user without the issue permission is refused by the machine.
    expect((await t.call('GET', `/api/quotazioni/${id}/appendici`, { token: otherCollab })).status).toBe(404);
    expect((await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: collab, body: { date: TRA_UN_MESE, historic: { auto_storica_id: lancia, targa: 'ZZ999ZZ' } } })).status).toBe(409);
    // Before issue (draft status) no appendix is possible.
    const draft = (await t.call('POST', '/api/quotazioni', { token: admin, body: { persona: 'f', nome: 'A', cognome: 'B' } })).body.data.model.id;
    expect((await t.call('POST', `/api/v1/goold/quotations/exclusion/calculate/${draft}`, { token: staff, body: { date: TRA_UN_MESE, targa: 'X' } })).status).toBe(409);
  });
});

describe('exclusion', () => {
  it('calculates the amount returned, only a super_admin forces it, and a vehicle is excluded once', async () => {
    const id = await emessa(['EX111AA', 'EX222BB']);
    const noDate = await t.call('POST', `/api/v1/goold/quotations/exclusion/calculate/${id}`, { token: staff, body: { targa: 'EX111AA' } });
    expect(noDate.body.errors).toEqual({ data_effetto: ['data di decorrenza obbligatoria'] });
    const calc = await t.call('POST', `/api/v1/goold/quotations/exclusion/calculate/${id}`, { token: staff, body: { date: TRA_UN_MESE, targa: 'EX111AA' } });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    const premio = calc.body.data.premio as number;
    expect(premio).toBeGreaterThan(0);

    const forcedByStaff = await t.call('POST', `/api/emissione_appendice_esclusione/${id}/EX111AA`, { token: staff, body: { data_effetto: TRA_UN_MESE, importo: premio + 1 } });
    expect(forcedByStaff.body.errors).toEqual({ importo: ['Solo un super_admin può modificare questo importo.'] });
    const preview = await t.call('POST', `/api/preview_appendice_esclusione/${id}/EX111AA`, { token: staff, body: { data_effetto: TRA_UN_MESE } });
    expect(preview.body.result).toBe(0);

    const answers = await Promise.all(Array.from({ length: 5 }, () =>
      t.call('POST', `/api/emissione_appendice_esclusione/${id}/EX111AA`, { token: admin, body: { data_effetto: TRA_UN_MESE, importo: premio - 1 } })));
    expect(answers.filter((a) => a.status === 200).map((a) => a.body.message)).toEqual(['Esclusione avvenuta con successo']);
    const rows = await appendici(id);
    expect(rows).toEqual([expect.objectContaining({ operazione: 'esclusione', stato: 'emessa', importo: Number((premio - 1).toFixed(2)) })]);
    const after = await record(id);
    expect(after.veicoli_storici.find((v: { targa: string }) => v.targa === 'EX111AA').operazione).toBe('esclusione');

    const again = await t.call('POST', `/api/v1/goold/quotations/exclusion/calculate/${id}`, { token: staff, body: { date: TRA_UN_MESE, targa: 'EX111AA' } });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ targa: ['Veicolo già escluso'] });
    const reissue = await t.call('POST', `/api/emissione_appendice_esclusione/${id}/EX111AA`, { token: admin, body: { data_effetto: TRA_UN_MESE, importo: premio } });
    expect(reissue.status).toBe(422);
    expect(reissue.body.errors).toEqual({ targa: ['Veicolo già escluso'] });
  });
});

describe('registry eligibility of the issue (spec 001 §9)', () => {
  it('fills in missing registry data before issuing and stores it on the vehicles', async () => {
    const id = await emessa(['RG100AA']);
    const [v] = (await record(id)).veicoli_storici;
    expect(v.json).toMatchObject({ result: 0 });
    expect(v.alert).toContain("Il contraente è l'avente diritto");
  });

  it('refuses preview and issue for claims in the last five years or a registry error, with the reason; a super_admin may switch the check off', async () => {
    const claims = await daEmettere(['ZC100AA']);
    const preview = await t.call('POST', `/api/preview_quotazione_per_emissione/${claims}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(preview.status).toBe(422);
    expect(preview.body.errors.veicoli_storici[0]).toMatch(/ZC100AA ha sinistri negli ultimi cinque anni/);
    const issue = await t.call('POST', `/api/quotazioni/emetti/${claims}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(issue.status).toBe(422);
    expect((await record(claims)).stato_quotazione_id).toBe(7);
    const forced = await t.call('POST', `/api/quotazioni/emetti/${claims}?decorrenza=${OGGI}`, { token: admin, body: { options: { check_atrc_contract_expiration_date: false } } });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect((await storico(claims)).at(-1)!.note).toContain('senza controllo');

    const error = await daEmettere(['ZE100AA']);
    const refused = await t.call('POST', `/api/quotazioni/emetti/${error}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.veicoli_storici[0]).toMatch(/Errore Verti per la targa ZE100AA/);
  });

  it('a registry that does not answer stops the issue with 503 and nothing sent', async () => {
    const id = await daEmettere(['ZT100AA']);
    const res = await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(res.status).toBe(503);
    expect((await sql`SELECT 1 FROM chiamata_esterna WHERE record_id = ${id}`.execute(t.connection.db)).rows).toHaveLength(0);
  });
});

describe('who reads what of an appendix', () => {
  it('answers the insurer amount to the super_admin only (spec 001 §6), on every route that shows an appendix', async () => {
    const id = await emessa(['EF789GH']);
    const calc = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: staff, body: { date: TRA_UN_MESE, historic: { auto_storica_id: lancia, targa: 'GH012IJ', tipologia_ania: 'A' }, competenze: 10 } });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    expect(calc.body.data.premio_verti).toBeNull();
    expect(calc.body.data.appendice.premio_verti).toBeNull();
    const own = await t.call('GET', `/api/quotazioni/${id}/appendici`, { token: collab });
    expect(own.status).toBe(200);
    expect(own.body.bozze.inclusione).toMatchObject({ targa: 'GH012IJ', premio_verti: null });
    expect(own.body.data.map((a: { premio_verti: unknown }) => a.premio_verti)).toEqual([null]);
    const draftId = own.body.bozze.inclusione.id as number;
    const resource = await t.call('GET', `/api/appendici/${draftId}`, { token: staff });
    if (resource.status === 200) expect(resource.body.data.premio_verti).toBeNull();
    // The super_admin reads it everywhere.
    expect((await t.call('GET', `/api/quotazioni/${id}/appendici`, { token: admin })).body.bozze.inclusione.premio_verti).toBeGreaterThan(0);
    expect((await t.call('GET', `/api/appendici/${draftId}`, { token: admin })).body.data.premio_verti).toBeGreaterThan(0);
  });
});

describe('numeric ids in the paths of the domain routes', () => {
  it('answers only the plain decimal id: 0N, +N, " N" name no record (404), never record N', async () => {
    const id = await emessa(['LM345NO']);
    const routes = [`/api/quotazioni/{id}/appendici`, `/api/quotazioni/{id}/consensi`, `/api/quotazioni/{id}/media`, `/api/quotazioni/{id}/chiamate-esterne`];
    for (const route of routes) {
      expect((await t.call('GET', route.replace('{id}', String(id)), { token: admin })).status, route).toBe(200);
      for (const spelling of [`0${id}`, `+${id}`, ` ${id}`, `${id}.0`]) {
        const res = await t.call('GET', route.replace('{id}', encodeURIComponent(spelling)), { token: admin });
        expect(res.status, `${route} ${JSON.stringify(spelling)}`).toBe(404);
      }
    }
    // A well-formed id of no record: 404 as well.
    expect((await t.call('GET', '/api/quotazioni/2147483647/appendici', { token: admin })).status).toBe(404);
  });
});

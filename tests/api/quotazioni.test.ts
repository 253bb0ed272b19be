// Historic-car quotations through the API: calculation, workflow action routes, history and outbox in one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collab: string;
let otherCollab: string;
let approver: string;
let staff: string;
let collabId: number;
let giallo: number;
let verde: number;

const count = async (table: string) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(t.connection.db)).rows[0]!.n);

async function model(body: Record<string, unknown>): Promise<number> {
  const res = await t.call('POST', '/api/autostoriche', { token: admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model.id;
}

function quotazione(extra: Record<string, unknown> = {}) {
  return {
    persona: 'f', nome: 'Giovanni', cognome: 'Esposito', email: 'giovanni.esposito@example.it', telefono: '+39 333 7654321',
    provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: giallo, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa: ' ab123cd ' }],
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collabId = await mk('ROSSI', 'rossi.agente@example.it');
  const otherId = await mk('VERDI', 'verdi.agente@example.it');
  collab = await userWithRoles(t, admin, { email: 'collab.q@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  otherCollab = await userWithRoles(t, admin, { email: 'other.q@test.it', roles: ['collaboratore'], collaboratore_id: otherId });
  approver = await userWithRoles(t, admin, { email: 'approver.q@test.it', roles: ['approvatore'] });
  staff = await userWithRoles(t, admin, { email: 'staff.q@test.it', roles: ['staff'] });
  giallo = await model({ marca: 'ALFA ROMEO', modello: 'GIULIA SUPER', anno: 1968, valore_b: 18000, colore: 'giallo', tipologia: 'A' });
  verde = await model({ marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A', nome_tipologia: 'UTILITARIA' });
});
afterAll(() => t?.close());

describe('creation and calculation', () => {
  it('creates a draft with a customer link code, both field sets accepted', async () => {
    const res = await t.call('POST', '/api/quotazioni', { token: collab, body: {
      persona: 'f', first_name: 'Anna', last_name: 'Neri', state_code: 'MI',
      historic: [{ brand: 'Fiat', model: '500 F', year: 1968, plate_number: 'mi123456', ania_type: 'A' }],
    } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const q = res.body.data.model;
    expect(q).toMatchObject({ stato_quotazione_id: 1, nome: 'ANNA', cognome: 'NERI', provincia_codice: 'MI', collaboratore_id: collabId });
    expect(q.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(q.veicoli_storici[0]).toMatchObject({ marca: 'Fiat', targa: 'MI123456', tipologia_ania: 'A', anno: 1968 });
    const server = await t.call('POST', '/api/quotazioni', { token: collab, body: { ...quotazione(), stato_quotazione_id: 7 } });
    expect(server.body.errors).toEqual({ stato_quotazione_id: ['Campo non modificabile.'] });
  });

  it('prices with the sandbox tariff in cents and takes the worst colour of the models', async () => {
    // super_admin: the only one who reads the insurer's premium and the broker's rights (spec 001 §6).
    const res = await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: quotazione({
      veicoli_storici: [
        { auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'RM100001' },
        { auto_storica_id: giallo, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa: 'RM100002' },
      ],
    }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.colore).toBe('g');
    const [p] = res.body.preventivi;
    // Giulia: class 2 (18 000 €) base 120 × age 0.85 × zone RM 1.12 = 114.24; Fiat 500: class 1 base 95 × 0.85 × 1.12 = 90.44.
    // (114.24 + 90.44) × 1.23 tax = 251.7564 → 251.76; + 30 broker rights = 281.76; + 20 competenze = 301.76.
    expect(p).toMatchObject({ premio_compagnia: 251.76, diritti_del_broker: 30, premio_base: 281.76, competenze: 20, premio_totale: 301.76, zona: 3, prodotto: 'auto_storica_itas' });
    expect(res.body.premio).toBe(301.76);
  });

  it('refuses what cannot be quoted, with the reason at the field', async () => {
    const none = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { veicoli_storici: [] } });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ veicoli_storici: ['Inserisci almeno un veicolo storico.'], provincia_codice: ['Campo Obbligatorio.'] });
    const young = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: quotazione({
      veicoli_storici: [{ auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: new Date().getFullYear() - 25, tipologia_ania: 'A', targa: 'AA000AA' }],
    }) });
    expect(young.status).toBe(422);
    expect(young.body.errors['veicoli_storici.0.anno'][0]).toMatch(/ha 25 anni, per le utilitarie ne servono almeno 30/);
    const moto = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: quotazione({
      veicoli_storici: [{ marca: 'Ducati', modello: 'Scrambler', anno: new Date().getFullYear() - 22, tipologia_ania: 'M', valore: 5000, targa: 'AA00000' }],
    }) });
    expect(moto.body.errors['veicoli_storici.0.anno'][0]).toMatch(/per i motocicli ne servono almeno 25/);
  });

  it('stores the calculation on the quotation and empties the forced premium', async () => {
    const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ premio_forzato: 50 }) })).body.data.model;
    const res = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The collaborator reads neither the insurer's premium nor a yellow colour (spec 001 §6); super_admin reads both.
    expect(res.body.data.model).toMatchObject({ colore: null, premio: 190.52, premio_verti: null, premio_forzato: null, version: 2 });
    expect(res.body.data.model.veicoli_storici[0]).toMatchObject({ colore: null, valore: 18000 });
    const stored = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: admin })).body.data;
    expect(stored).toMatchObject({ colore: 'g', premio: 190.52, premio_verti: 140.52 });
    expect(stored.veicoli_storici[0]).toMatchObject({ colore: 'g', valore: 18000 });
    const low = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { premio_forzato: 150, version: 2 } });
    expect(low.body.warnings).toEqual({ premio_forzato: ['Il premio forzato è inferiore al premio calcolato.'] });
    const byAdmin = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: admin, body: { premio_forzato: 140, version: 3 } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.warnings).toBeUndefined();
  });
});

describe('workflow action routes', () => {
  it('derogation, approval and confirmation: status, history and outbox', async () => {
    const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione() })).body.data.model;
    await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    const wf = await t.call('GET', `/api/quotazioni/${q.id}/workflow`, { token: collab });
    expect(wf.body.data.avvisi).toEqual(['Attenzione! Deroga necessaria.']);
    expect(wf.body.data.eventi.find((e: { type: string }) => e.type === 'CONFERMA').target.id).toBe(2);
    const outboxBefore = await count('email_outbox');

    const deroga = await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
    expect(deroga.status, JSON.stringify(deroga.body)).toBe(200);
    expect(deroga.body.data.model.stato_quotazione_id).toBe(2);
    expect(await count('email_outbox')).toBe(outboxBefore);

    const notAllowed = await t.call('POST', `/api/quotazioni/approva/${q.id}`, { token: collab });
    expect(notAllowed.status).toBe(409);
    expect(notAllowed.body.message).toBe('Azione "Approva" non consentita nello stato "In attesa di deroga".');

    const approved = await t.call('POST', `/api/quotazioni/approva/${q.id}`, { token: approver });
    expect(approved.body.data.model.stato_quotazione_id).toBe(3);
    const confirmed = await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
    expect(confirmed.body.data.model.stato_quotazione_id).toBe(4);
    expect((await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab })).status).toBe(409);

    const mails = await sql<{ destinatario: string; oggetto: string; corpo: string; evento: string }>`
      SELECT destinatario, oggetto, corpo, evento FROM email_outbox WHERE record_id = ${q.id} ORDER BY id`.execute(t.connection.db);
    expect(mails.rows.map((m) => [m.destinatario, m.evento])).toEqual([['rossi.agente@example.it', 'APPROVA'], ['giovanni.esposito@example.it', 'CONFERMA']]);
    expect(mails.rows[1]!.corpo).toContain(`/quotazione/cliente/${q.uuid}`);
    const history = (await t.call('GET', `/api/quotazioni/${q.id}/workflow`, { token: collab })).body.data.storico;
    expect(history.map((h: { event: string; from_status: number; to_status: number }) => [h.event, h.from_status, h.to_status])).toEqual([['CONFERMA', 1, 2], ['APPROVA', 2, 3], ['CONFERMA', 3, 4]]);
    expect(history[1].user_name).toBe('Approver Q');
  });

  it('commits nothing when the transition cannot complete (no customer e-mail to send to)', async () => {
    const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ email: null,
      veicoli_storici: [{ auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'RM200001' }] }) })).body.data.model;
    await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    const [outbox, history] = [await count('email_outbox'), await count('workflow_history')];
    const res = await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: ['Serve un indirizzo email per inviare la comunicazione.'] });
    expect((await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data.stato_quotazione_id).toBe(1);
    expect([await count('email_outbox'), await count('workflow_history')]).toEqual([outbox, history]);
  });

  it('cannot confirm before calculating, and a rejection needs a note', async () => {
    const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione() })).body.data.model;
    expect((await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab })).status).toBe(409);
    await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
    const noNote = await t.call('POST', `/api/quotazioni/rifiuta/${q.id}`, { token: approver });
    expect(noNote.status).toBe(422);
    expect(noNote.body.errors).toEqual({ nota: ['Campo Obbligatorio.'] });
    const rejected = await t.call('POST', `/api/quotazioni/rifiuta/${q.id}`, { token: approver, body: { nota: 'Valore del veicolo da verificare' } });
    expect(rejected.body.data.model.stato_quotazione_id).toBe(1);
  });

  it('edits, deletes and premium changes follow the machine; permissions and row scope hold', async () => {
    const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione() })).body.data.model;
    expect((await t.call('GET', `/api/quotazioni/${q.id}`, { token: otherCollab })).status).toBe(404);
    expect((await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: otherCollab })).status).toBe(404);
    expect((await t.call('POST', '/api/quotazioni', { token: approver, body: quotazione() })).status).toBe(403);
    await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } });
    await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
    const current = (await t.call('GET', `/api/quotazioni/${q.id}`, { token: collab })).body.data;
    const edit = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { note: 'x', version: current.version } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('Operazione non consentita nello stato "In attesa di deroga": aggiorna.');
    // In derogation only an approver may still change the premium, and nothing else.
    expect((await t.call('PUT', `/api/quotazioni/${q.id}`, { token: collab, body: { premio_forzato: 250, version: current.version } })).status).toBe(409);
    expect((await t.call('PUT', `/api/quotazioni/${q.id}`, { token: approver, body: { premio_forzato: 250, note: 'x', version: current.version } })).status).toBe(409);
    const premium = await t.call('PUT', `/api/quotazioni/${q.id}`, { token: approver, body: { premio_forzato: 250, version: current.version } });
    expect(premium.status, JSON.stringify(premium.body)).toBe(200);
    expect(premium.body.data.model.premio_forzato).toBe(250);

    const toSigned = await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: `id=${q.id}&stato_quotazione_id=9`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(toSigned.status, JSON.stringify(toSigned.body)).toBe(200);
    expect(toSigned.body.data.model.stato_quotazione_id).toBe(9);
    const back = await t.call('POST', '/api/quotazioni/cambioStato', { token: collab, body: { id: q.id, stato_quotazione_id: 1 } });
    expect([back.status, back.body.code]).toEqual([409, 'WORKFLOW_REFUSED']);
    const del = await t.call('DELETE', `/api/quotazioni/${q.id}`, { token: staff });
    expect([del.status, del.body.code]).toEqual([409, 'WORKFLOW_REFUSED']);
    expect(del.body.message).toContain('In attesa di firma');
    await t.call('POST', `/api/quotazioni/cambioStato/${q.id}`, { token: staff, body: { stato: 11 } });
    expect((await t.call('DELETE', `/api/quotazioni/${q.id}`, { token: staff })).status).toBe(200);
  });

  it('counts quotations per status within the row scope', async () => {
    const mine = (await t.call('GET', '/api/stati_quotazione', { token: collab })).body.data;
    expect(mine).toHaveLength(13);
    const total = mine.reduce((s: number, r: { count: number }) => s + r.count, 0);
    expect(total).toBe((await t.call('GET', '/api/quotazioni', { token: collab })).body.total);
    const others = (await t.call('GET', '/api/stati_quotazione', { token: otherCollab })).body.data;
    expect(others.every((r: { count: number }) => r.count === 0)).toBe(true);
    const filtered = await t.call('GET', '/api/quotazioni?filter[stato_quotazione_id]=1', { token: collab });
    expect(filtered.body.total).toBe(mine.find((r: { id: number }) => r.id === 1).count);
  });
});

describe('validation rules of spec 001 §5', () => {
  it('needs plate and ANIA type of every historic vehicle before pricing', async () => {
    const res = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: quotazione({
      veicoli_storici: [
        { auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, targa: 'RM000001' },
        { auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A' },
      ],
    }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'veicoli_storici.0.tipologia_ania': ['non hai compilato la tipologia di veicolo per la targa RM000001'],
      'veicoli_storici.1.targa': ['Campo Obbligatorio.'],
    });
  });

  it('warns when the phone lacks +39, refuses more daily-use vehicles than declared, checks modern vehicle years', async () => {
    const foreign = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ telefono: '+41 79 1234567' }) });
    expect(foreign.status).toBe(201);
    expect(foreign.body.warnings).toEqual({ telefono: ['Il numero di telefono non ha il prefisso internazionale +39.'] });
    const italian = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione() });
    expect(italian.body.warnings).toBeUndefined();
    const moderni = [{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'FX123AB', grado_parentela: 'Contraente' }, { brand: 'VW', model: 'Golf', year: '2020', plate_number: 'GA456CD', relation: 'Coniuge' }];
    const tooMany = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ quotidiano: 1, veicoli_moderni: moderni }) });
    expect(tooMany.status).toBe(422);
    expect(Object.keys(tooMany.body.errors)).toEqual(['veicoli_moderni']);
    const ok = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ quotidiano: 2, veicoli_moderni: moderni }) });
    expect(ok.status).toBe(201);
    expect(ok.body.data.model.veicoli_moderni[1]).toEqual({ marca: 'VW', modello: 'Golf', anno: '2020', targa: 'GA456CD', grado_parentela: 'Coniuge' });
    const badYear = await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ veicoli_moderni: [{ ...moderni[0], anno: '19' }] }) });
    expect(badYear.body.errors).toEqual({ 'veicoli_moderni.0.anno': ["L'anno deve essere di 4 cifre"] });
  });
});

describe('list filters of spec 001 §2', () => {
  it('finds quotations by a plate fragment and by cover expiring next month', async () => {
    const plate = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ veicoli_storici: [{ auto_storica_id: giallo, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa: 'ZZ987XY' }] }) })).body.data.model;
    const found = await t.call('GET', '/api/quotazioni?filter[targa]=987x', { token: collab });
    expect(found.body.data.map((q: { id: number }) => q.id)).toEqual([plate.id]);
    const now = new Date();
    const nextMonthLastYear = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth() + 1, 15)).toISOString().slice(0, 10);
    const expiring = (await t.call('POST', '/api/quotazioni', { token: collab, body: quotazione({ decorrenza: nextMonthLastYear }) })).body.data.model;
    const res = await t.call('GET', '/api/quotazioni?filter[scade_il_mese_prossimo]=1', { token: collab });
    expect(res.body.data.map((q: { id: number }) => q.id)).toEqual([expiring.id]);
    expect((await t.call('GET', '/api/quotazioni?filter[targa]=987x', { token: otherCollab })).body.total).toBe(0);
  });
});

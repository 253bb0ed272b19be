// The customer's personal link on the staff side: read while the customer may use it, e-mailed again through the outbox
// (machine event REINVIA_LINK); drafts keep their daily-use rows blank until the direct issue needs them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collab: string;
let other: string;
let approver: string;
let cashier: string;
let verde: number;

async function draft(fields: Record<string, unknown> = {}): Promise<number> {
  const created = await t.call('POST', '/api/quotazioni', { token: collab, body: {
    persona: 'f', nome: 'Lucia', cognome: 'Marroni', email: 'lucia.marroni@example.it', provincia_codice: 'MI',
    veicoli_storici: [{ auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'MI100002' }],
    ...fields,
  } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.model.id as number;
  const priced = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id } });
  expect(priced.status, JSON.stringify(priced.body)).toBe(200);
  return id;
}

async function confirmed(): Promise<number> {
  const id = await draft();
  const res = await t.call('POST', `/api/quotazioni/conferma/${id}`, { token: collab });
  expect(res.body.data.model.stato_quotazione_id, JSON.stringify(res.body)).toBe(4);
  return id;
}

const mails = async (id: number) =>
  (await sql<{ destinatario: string; oggetto: string; corpo: string; evento: string }>`
    SELECT destinatario, oggetto, corpo, evento FROM email_outbox WHERE risorsa = 'quotazione' AND record_id = ${id} ORDER BY id`.execute(t.connection.db)).rows;
const history = async (id: number) =>
  (await sql<{ event: string; from_status: number; to_status: number; user_name: string }>`
    SELECT event, from_status, to_status, user_name FROM workflow_history WHERE resource = 'quotazione' AND record_id = ${id} ORDER BY id`.execute(t.connection.db)).rows;
const stored = async (id: number) => (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data as Record<string, unknown>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collab = await userWithRoles(t, admin, { email: 'collab.link@test.it', roles: ['collaboratore'], collaboratore_id: await mk('VIOLA', 'viola.link@example.it') });
  other = await userWithRoles(t, admin, { email: 'other.link@test.it', roles: ['collaboratore'], collaboratore_id: await mk('ARANCIO', 'arancio.link@example.it') });
  approver = await userWithRoles(t, admin, { email: 'approver.link@test.it', roles: ['approvatore'] });
  cashier = await userWithRoles(t, admin, { email: 'cashier.link@test.it', roles: ['cassiere'] });
  verde = (await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } })).body.data.model.id;
});
afterAll(() => t?.close());

describe("the customer's link for staff", () => {
  it('is given while the customer may act (the e-mail\'s own link), to those who read the quotation', async () => {
    const id = await draft();
    const closed = await t.call('GET', `/api/quotazioni/${id}/linkCliente`, { token: collab });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toEqual({ url: null, fase: null, email: 'lucia.marroni@example.it' });

    await t.call('POST', `/api/quotazioni/conferma/${id}`, { token: collab });
    const open = await t.call('GET', `/api/quotazioni/${id}/linkCliente`, { token: collab });
    expect(open.status).toBe(200);
    const { uuid } = await stored(id);
    expect(open.body.data).toMatchObject({ fase: 'form', url: expect.stringMatching(new RegExp(`/quotazione/cliente/${String(uuid)}$`)) });
    expect((await mails(id))[0]!.corpo).toContain(`${open.body.data.url}?parameter1=conferma_cliente`);

    // Row scope, permission, ids that are no ids: 404/403, never a 500.
    expect((await t.call('GET', `/api/quotazioni/${id}/linkCliente`, { token: other })).status).toBe(404);
    expect((await t.call('GET', `/api/quotazioni/${id}/linkCliente`, { token: cashier })).status).toBe(403);
    for (const bad of ['abc', '0', '99999999999', '1.5', '-1']) {
      expect((await t.call('GET', `/api/quotazioni/${bad}/linkCliente`, { token: collab })).status, bad).toBe(404);
    }
    expect((await t.call('GET', `/api/quotazioni/${id}/linkCliente`)).status).toBe(401);
  });

  it('Invia di nuovo queues the same e-mail again, recorded in the history; refused once the customer cannot act', async () => {
    const id = await confirmed();
    const before = await stored(id);
    const sent = await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: collab });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.model.stato_quotazione_id).toBe(4);
    const [first, again] = await mails(id);
    expect(again).toMatchObject({ destinatario: first!.destinatario, oggetto: first!.oggetto, corpo: first!.corpo, evento: 'REINVIA_LINK' });
    expect((await history(id)).at(-1)).toMatchObject({ event: 'REINVIA_LINK', from_status: 4, to_status: 4 });
    const storico = await t.call('GET', `/api/quotazioni/${id}/storico`, { token: collab });
    expect(storico.status).toBe(200);
    expect(JSON.stringify(storico.body)).toContain('REINVIA_LINK');

    // Another collaborator's quotation, a reader without the confirm permission, no login, ids that are no ids.
    expect((await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: other })).status).toBe(404);
    const reader = await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: approver });
    expect(reader.status).toBe(409);
    expect((await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: cashier })).status).toBe(403);
    expect((await t.call('POST', `/api/quotazioni/reinviaLink/${id}`)).status).toBe(401);
    for (const bad of ['abc', '0', '99999999999', '1e3']) {
      expect((await t.call('POST', `/api/quotazioni/reinviaLink/${bad}`, { token: collab })).status, bad).toBe(404);
    }
    expect((await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: collab, body: { nota: 5 } })).status).toBe(422);
    expect(await mails(id)).toHaveLength(2);

    // The documents phase is the customer's too; once the customer is done, the link is closed.
    await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 5 } });
    expect((await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: collab })).status).toBe(200);
    expect((await t.call('GET', `/api/quotazioni/${id}/linkCliente`, { token: collab })).body.data.fase).toBe('documenti');
    await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 6 } });
    const late = await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: collab });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Azione "Reinvio del link al cliente" non consentita nello stato "Preventivo in attesa di verifica".');
    expect(await mails(id)).toHaveLength(3);
    expect((await t.call('GET', `/api/quotazioni/${id}/linkCliente`, { token: collab })).body.data).toMatchObject({ url: null, fase: null });
    expect(before.version).toBeLessThan(Number((await stored(id)).version));
  });

  it('a customer without an e-mail: 422 on the e-mail field, nothing queued nor recorded', async () => {
    const id = await draft({ email: undefined });
    // Staff move it to the form by hand (a confirmation would need the e-mail already).
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 4 } })).status).toBe(200);
    const steps = (await history(id)).length;
    const version = (await stored(id)).version;
    const refused = await t.call('POST', `/api/quotazioni/reinviaLink/${id}`, { token: collab });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ email: ['Serve un indirizzo email per inviare la comunicazione.'] });
    expect(await mails(id)).toHaveLength(0);
    expect(await history(id)).toHaveLength(steps);
    expect((await stored(id)).version).toBe(version);
  });
});

describe('daily-use vehicle rows', () => {
  it('a draft saves and prices blank rows; the direct issue needs them complete (422 under the row fields)', async () => {
    const id = await draft({ quotidiano: 2, veicoli_moderni: [{}, { marca: 'Fiat' }] });
    const { version } = await stored(id);
    const saved = await t.call('PUT', `/api/quotazioni/${id}`, { token: collab, body: { version, nome: 'Luciana', veicoli_moderni: [{}, { marca: 'Fiat' }] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id } })).status).toBe(200);
    // What a row holds is still checked.
    const bad = await t.call('PUT', `/api/quotazioni/${id}`, { token: collab, body: { version: (await stored(id)).version, veicoli_moderni: [{ anno: '19' }] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['veicoli_moderni.0.anno']).toEqual(["L'anno deve essere di 4 cifre"]);

    expect((await t.call('POST', `/api/quotazioni/confermaDiretta/${id}`, { token: collab })).status).toBe(200);
    const v = (await stored(id)).version;
    expect((await t.call('PUT', `/api/quotazioni/${id}`, { token: collab, body: { version: v, cfisc: 'RSSMRA80A01H501U' } })).status).toBe(200);
    const steps = (await history(id)).length;
    const refused = await t.call('GET', `/api/v1/goold/quotations/${id}/emit`, { token: collab });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({
      'veicoli_moderni.0.marca': ['Campo Obbligatorio.'], 'veicoli_moderni.0.targa': ['Campo Obbligatorio.'],
      'veicoli_moderni.1.modello': ['Campo Obbligatorio.'],
    });
    expect(refused.body.errors['veicoli_moderni.1.marca']).toBeUndefined();
    expect(await history(id)).toHaveLength(steps);
    expect((await stored(id)).stato_quotazione_id).toBe(12);

    const rows = [{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'AB123CD' }, { marca: 'Fiat', modello: 'Uno', anno: '2001', targa: 'CD456EF' }];
    expect((await t.call('POST', `/api/v1/goold/quotations/${id}/vehicles`, { token: collab, body: { modern: rows } })).status).toBe(201);
    const emitted = await t.call('GET', `/api/v1/goold/quotations/${id}/emit`, { token: collab });
    expect(emitted.status, JSON.stringify(emitted.body)).toBe(200);
    expect(emitted.body.data.model.status_id).toBe(7);
  });
});

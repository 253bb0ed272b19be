// Issuing historic-car policies through the insurer's sandbox, with its faults: exactly one policy per quotation whatever the
// transport does, a consistent history, nothing half-written; renewal, reversal and the Koala resend as machine events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { sql } from 'kysely';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { connect } from '../../src/server/db/connection.ts';
import { impostaGuastiSandbox, polizzeEmesseSandbox, SandboxAutoStoricheEmissione } from '../../src/server/adapters/auto-storiche/emissione-sandbox.ts';
import { randomUUID } from 'node:crypto';
import { importazioniKoalaSandbox, koalaNonRaggiungibileSandbox } from '../../src/server/adapters/koala/sandbox.ts';
import { domains } from '../../src/server/domains/index.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collab: string;
let otherCollab: string;
let collabId: number;
let modello: number;

const OGGI = oggiIso();
const IERI = giornoIso(-1);

const q = <T = Record<string, unknown>>(text: string, ...values: unknown[]) => {
  const parts = text.split('?');
  return sql<T>(Object.assign([...parts], { raw: parts }) as unknown as TemplateStringsArray, ...values).execute(t.connection.db).then((r) => r.rows);
};
const polizze = (id: number) => q<{ numero_polizza: string; stornata: boolean }>('SELECT numero_polizza, stornata FROM polizza_auto_storica WHERE quotazione_id = ?', id);
const storico = (id: number) => q<{ event: string; from_status: number | null; to_status: number; note: string | null }>(
  "SELECT event, from_status, to_status, note FROM workflow_history WHERE resource = 'quotazione' AND record_id = ? ORDER BY id", id);
const chiamate = (id: number) => q<{ operazione: string; stato: string; tentativi: number }>(
  "SELECT operazione, stato, tentativi FROM chiamata_esterna WHERE resource = 'quotazione' AND record_id = ? ORDER BY id", id);
const stato = async (id: number) => (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data;

/** A quotation priced and moved to 'In attesa di emissione' (7), with its issue data saved. */
async function inAttesaDiEmissione(targa = 'AB123CD', extra: Record<string, unknown> = {}): Promise<number> {
  const created = await t.call('POST', '/api/quotazioni', { token: admin, body: {
    persona: 'f', nome: 'Mario', cognome: 'Rossi', email: 'mario.rossi@example.it', telefono: '+39 333 1234567', cfisc: 'RSSMRA80A01H501U',
    provincia_codice: 'RM', competenze: 20, collaboratore_id: collabId,
    veicoli_storici: [{ auto_storica_id: modello, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa }],
    ...extra,
  } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.model.id as number;
  const calc = await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } });
  expect(calc.status, JSON.stringify(calc.body)).toBe(200);
  const moved = await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 7 } });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  const saved = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: IERI } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return id;
}

const emetti = (id: number, token = staff, body: unknown = {}, decorrenza = OGGI) =>
  t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${decorrenza}`, { token, body });

/** What must hold after any issue attempt: policies here = policies at the insurer, one EMETTI row per policy, no open call. */
async function coerente(id: number, policies: number) {
  const mine = (await polizze(id)).filter((p) => !p.stornata);
  expect(mine).toHaveLength(policies);
  expect(await polizzeEmesseSandbox(t.connection.db, `quotazione-${id}`)).toHaveLength(policies);
  if (policies) expect(await polizzeEmesseSandbox(t.connection.db, `quotazione-${id}`)).toEqual([mine[0]!.numero_polizza]);
  expect((await storico(id)).filter((h) => h.event === 'EMETTI')).toHaveLength(policies);
  expect((await chiamate(id)).filter((c) => c.stato === 'in_corso' || c.stato === 'incerta')).toEqual([]);
  const record = await stato(id);
  expect(record.stato_quotazione_id).toBe(policies ? 9 : record.stato_quotazione_id);
  if (policies) expect(record.verti_policy_number).toBe(mine[0]!.numero_polizza);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  collabId = await mk('BIANCHI', 'bianchi.agente@example.it');
  const otherId = await mk('NERI', 'neri.agente@example.it');
  staff = await userWithRoles(t, admin, { email: 'staff.e@test.it', roles: ['staff'] });
  collab = await userWithRoles(t, admin, { email: 'collab.e@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  otherCollab = await userWithRoles(t, admin, { email: 'other.e@test.it', roles: ['collaboratore'], collaboratore_id: otherId });
  const m = await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } });
  modello = m.body.data.model.id;
});
afterAll(() => t?.close());

describe('Salva Emissione and preview', () => {
  it('saves vehicles and issue data from status 7 for who may issue, never premiums; others are refused', async () => {
    const id = await inAttesaDiEmissione('SV100AA');
    const res = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: {
      data_incasso: OGGI, telefono: '+39 333 7777777',
      veicoli_storici: [{ auto_storica_id: modello, brand: 'Fiat', model: '500 F', year: 1968, ania_type: 'A', plate_number: ' sv100bb ', atrc_contract_expiration_date: '2020-01-01' }],
    } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.model).toMatchObject({ data_incasso: OGGI, stato_quotazione_id: 7 });
    expect(res.body.data.model.veicoli_storici[0]).toMatchObject({ targa: 'SV100BB', atrc_contract_expiration_date: '2020-01-01' });
    const premio = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { premio_forzato: 1 } });
    expect(premio.status).toBe(422);
    expect(premio.body.errors).toEqual({ premio_forzato: ['Campo non modificabile.'] });
    const bad = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: '2026-13-40' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['data_incasso']);
    const byCollab = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: collab, body: { note: 'x' } });
    expect(byCollab.status).toBe(409);
    expect((await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: otherCollab, body: { note: 'x' } })).status).toBe(404);
    // The generic edit stays closed in status 7.
    expect((await t.call('PUT', `/api/quotazioni/${id}`, { token: staff, body: { note: 'x', version: (await stato(id)).version } })).status).toBe(409);
  });

  it('previews with the effective date from 24:00 of the payment receipt day, refusing an earlier one at the field', async () => {
    const id = await inAttesaDiEmissione('PV100AA');
    const ok = await t.call('POST', `/api/preview_quotazione_per_emissione/${id}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ result: 0, Error: [], data: { decorrenza: OGGI, decorrenza_minima: IERI } });
    expect(ok.body.data.decorrenza_testo).toMatch(/^Dalle ore 24:00 del \d\d\/\d\d\/\d{4} alle ore 24:00 del/);
    const defaulted = await t.call('POST', `/api/preview_quotazione_per_emissione/${id}`, { token: staff, body: {} });
    expect(defaulted.body.data.decorrenza).toBe(IERI);
    const early = await t.call('POST', `/api/preview_quotazione_per_emissione/${id}?decorrenza=2000-01-01`, { token: staff, body: {} });
    expect(early.status).toBe(422);
    expect(early.body.errors.decorrenza[0]).toMatch(/ore 24:00 del giorno di incasso del premio/);
    // Salva Emissione keeps the receipt day: clearing it is refused at the field; a quotation without one is read from the table.
    const clear = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: null } });
    expect(clear.status).toBe(422);
    expect(clear.body.errors).toEqual({ data_incasso: [expect.stringMatching(/^Indicare la data di incasso del premio/)] });
    await q('UPDATE quotazione SET data_incasso = NULL WHERE id = ?', id);
    const noReceipt = await t.call('POST', `/api/preview_quotazione_per_emissione/${id}`, { token: staff, body: {} });
    expect(noReceipt.status).toBe(422);
    expect(Object.keys(noReceipt.body.errors)).toEqual(['data_incasso']);
    // An issue attempt without the receipt day is refused before anything is sent.
    expect((await emetti(id)).status).toBe(422);
    expect(await chiamate(id)).toEqual([]);
  });
});

describe('issue results chosen by the data', () => {
  it('result 0: a policy record, status 9, the number in the header, the answer in the history', async () => {
    const id = await inAttesaDiEmissione('OK100AA');
    const res = await emetti(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 0, message: 'Polizza emessa correttamente', Error: [] });
    expect(res.body.verti_policy_number).toMatch(/^AS\d{9}$/);
    expect(res.body.data.model).toMatchObject({ stato_quotazione_id: 9, verti_policy_number: res.body.verti_policy_number, infodrive_id: res.body.infodrive_id });
    expect(res.body.data.polizza).toMatchObject({ numero_polizza: res.body.verti_policy_number, quotazione_id: id, decorrenza: OGGI, stornata: false });
    const h = (await storico(id)).at(-1)!;
    expect(h).toMatchObject({ event: 'EMETTI', from_status: 7, to_status: 9 });
    expect(h.note).toContain(`result 0): polizza ${res.body.verti_policy_number}`);
    await coerente(id, 1);
    // Issued once: the machine refuses a second issue.
    const again = await emetti(id);
    expect(again.status).toBe(409);
    await coerente(id, 1);
    // The policy is a record of its own, listed and readable, and cannot be written by hand.
    const list = await t.call('GET', `/api/polizze_auto_storiche?filter[quotazione_id]=${id}`, { token: staff });
    expect(list.body.data.map((p: { numero_polizza: string }) => p.numero_polizza)).toEqual([res.body.verti_policy_number]);
    expect((await t.call('GET', `/api/polizze_auto_storiche?filter[quotazione_id]=${id}`, { token: otherCollab })).body.total).toBe(0);
    expect((await t.call('GET', `/api/polizze_auto_storiche?filter[quotazione_id]=${id}`, { token: collab })).body.total).toBe(1);
    // Refused before anything is written (the definition's validation or the domain's hook).
    expect([409, 422]).toContain((await t.call('POST', '/api/polizze_auto_storiche', { token: admin, body: {} })).status);
    expect(await polizze(id)).toHaveLength(1);
  });

  it("result 1: 'WARNING ' and the first description, nothing issued, status unchanged", async () => {
    const id = await inAttesaDiEmissione('WRN100AA');
    const res = await emetti(id);
    expect(res.body).toMatchObject({ result: 1, message: "WARNING Dati ANIA del veicolo WRN100AA da verificare prima dell'emissione." });
    expect(res.body.Error[0].descError).toMatch(/WRN100AA/);
    expect((await stato(id)).stato_quotazione_id).toBe(7);
    expect((await storico(id)).at(-1)).toMatchObject({ event: 'AVVISO_EMISSIONE', from_status: 7, to_status: 7 });
    await coerente(id, 0);
  });

  it("result 2: the first description and 'Conclusa con errore', from which issuing may be retried", async () => {
    const id = await inAttesaDiEmissione('ERR100AA');
    const res = await emetti(id);
    expect(res.body).toMatchObject({ result: 2, message: 'Targa ERR100AA già assicurata presso altra compagnia.' });
    expect((await stato(id)).stato_quotazione_id).toBe(11);
    expect((await storico(id)).at(-1)).toMatchObject({ event: 'ERRORE_EMISSIONE', from_status: 7, to_status: 11 });
    await coerente(id, 0);
    const fixed = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: {
      veicoli_storici: [{ auto_storica_id: modello, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'OK100ZZ' }],
    } });
    expect(fixed.status).toBe(200);
    // Changed vehicles are priced again in the same save, so the quotation can still be issued.
    expect(fixed.body.ricalcolato, JSON.stringify(fixed.body).slice(0, 600)).toBe(true);
    expect(fixed.body.data.model.premio).toBeGreaterThan(0);
    const retried = await emetti(id);
    expect(retried.body.result, JSON.stringify(retried.body)).toBe(0);
    await coerente(id, 1);
  });

  it('checks that the previous policy expired unless a super_admin switches the check off', async () => {
    const id = await inAttesaDiEmissione('AT100AA');
    await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: {
      veicoli_storici: [{ auto_storica_id: modello, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'AT100AA', atrc_contract_expiration_date: '2099-12-31' }],
    } });
    const off = { options: { check_atrc_contract_expiration_date: false } };
    const byStaff = await emetti(id, staff, off);
    expect(byStaff.status).toBe(422);
    expect(byStaff.body.errors['options.check_atrc_contract_expiration_date'][0]).toMatch(/super_admin/);
    expect(await chiamate(id)).toEqual([]);
    const preview = await t.call('POST', `/api/preview_quotazione_per_emissione/${id}?decorrenza=${OGGI}`, { token: staff, body: {} });
    expect(preview.body.result, JSON.stringify(preview.body)).toBe(2);
    expect(preview.body.message).toMatch(/scade il 31\/12\/2099/);
    const byAdmin = await emetti(id, admin, off);
    expect(byAdmin.body.result).toBe(0);
    expect((await storico(id)).at(-1)!.note).toContain('senza controllo della scadenza della polizza precedente');
    await coerente(id, 1);
  });
});

describe('exactly one policy, however the insurer behaves', () => {
  it('20 concurrent issue calls: one policy, the others told to wait or refused', async () => {
    const id = await inAttesaDiEmissione('CC100AA');
    const answers = await Promise.all(Array.from({ length: 20 }, () => emetti(id)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body.result).toBe(0);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body.message).toMatch(/Attendere la fine dell'operaione in corso|non consentita nello stato "In attesa di firma"/);
    }
    await coerente(id, 1);
    expect(await chiamate(id)).toEqual([{ operazione: 'emissione', stato: 'confermata', tentativi: 1 }]);
  });

  it('two app instances on the same database: one policy', async () => {
    const id = await inAttesaDiEmissione('CC200AA');
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const connection = connect(t.databaseUrl, 5);
    const second = await buildApp({ domains, db: connection.db, definitions });
    try {
      const call = (app: typeof second) => app.inject({ method: 'POST', url: `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, headers: { authorization: `Bearer ${staff}` }, payload: {} });
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 ? second : t.app)));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    } finally {
      await second.close();
      await connection.close();
    }
    await coerente(id, 1);
  });

  it('a timeout after the insurer committed is reconciled by key: the policy it issued, once', async () => {
    const id = await inAttesaDiEmissione('TO100AA');
    impostaGuastiSandbox(`quotazione-${id}`, ['timeout_dopo_commit']);
    const res = await emetti(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toBe(0);
    await coerente(id, 1);
    expect(await chiamate(id)).toEqual([{ operazione: 'emissione', stato: 'confermata', tentativi: 1 }]);
  });

  it('a timeout whose outcome cannot be looked up leaves nothing half-written; the next attempt reconciles first', async () => {
    const id = await inAttesaDiEmissione('TO200AA');
    impostaGuastiSandbox(`quotazione-${id}`, ['timeout_dopo_commit', 'ricerca_non_disponibile']);
    const res = await emetti(id);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^Esito incerto/);
    // The insurer did issue; here nothing changed but the call, kept open as uncertain.
    expect(await polizzeEmesseSandbox(t.connection.db, `quotazione-${id}`)).toHaveLength(1);
    expect(await polizze(id)).toEqual([]);
    expect((await stato(id)).stato_quotazione_id).toBe(7);
    expect((await storico(id)).filter((h) => h.event === 'EMETTI')).toEqual([]);
    expect((await chiamate(id)).map((c) => c.stato)).toEqual(['incerta']);
    // Nothing else may be sent to the insurer for this quotation before the outcome is known.
    const retry = await emetti(id);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.result).toBe(0);
    expect(retry.body.verti_policy_number).toBe((await polizzeEmesseSandbox(t.connection.db, `quotazione-${id}`))[0]);
    await coerente(id, 1);
    expect((await chiamate(id)).map((c) => c.stato)).toEqual(['confermata']);
  });

  it('an answer whose policy number another quotation already holds is never retried for ever: the call closes, the quotation says why, issuing again succeeds', async () => {
    const altra = await inAttesaDiEmissione('NC100AA');
    const id = await inAttesaDiEmissione('NC200AA');
    impostaGuastiSandbox(`quotazione-${id}`, ['timeout_dopo_commit', 'ricerca_non_disponibile']);
    expect((await emetti(id)).status).toBe(502);
    const [numero] = await polizzeEmesseSandbox(t.connection.db, `quotazione-${id}`);
    // The number the insurer gave is already recorded here for another quotation (a sandbox that forgot its books, data by hand).
    expect((await emetti(altra)).body.result).toBe(0);
    await q('UPDATE polizza_auto_storica SET numero_polizza = ? WHERE quotazione_id = ?', numero, altra);
    const res = await emetti(id);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.message).toContain(`polizza ${numero!}, ma questo numero è già registrato per la quotazione n. ${altra}`);
    expect(await polizze(id)).toEqual([]);
    expect((await chiamate(id)).map((c) => c.stato)).toEqual(['fallita']);
    expect((await stato(id)).stato_quotazione_id).toBe(11);
    const ultimo = (await storico(id)).at(-1)!;
    expect(ultimo).toMatchObject({ event: 'ERRORE_EMISSIONE', from_status: 7, to_status: 11 });
    expect(ultimo.note).toContain(numero);
    // Not stuck: issuing again is a new call with a new key, answered with a new number.
    const again = await emetti(id);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.result).toBe(0);
    expect(again.body.verti_policy_number).not.toBe(numero);
    expect((await chiamate(id)).map((c) => c.stato)).toEqual(['fallita', 'confermata']);
    expect((await stato(id)).stato_quotazione_id).toBe(9);
  });

  it('a process that died after the insurer committed: its call waits out the lease, then is reconciled, never sent again', async () => {
    const id = await inAttesaDiEmissione('CR100AA');
    const chiave = randomUUID();
    const richiesta = {
      riferimento: `quotazione-${id}`, contraente: { cognome: 'ROSSI', cfisc: 'RSSMRA80A01H501U' }, decorrenza: OGGI, scadenza: OGGI, data_incasso: IERI,
      veicoli: [{ targa: 'CR100AA', marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', furto: false }], premio_centesimi: 30000, check_atrc_contract_expiration_date: true,
    };
    // The dead process had committed its key and reached the insurer, which issued.
    const issued = await new SandboxAutoStoricheEmissione(t.connection.db).emetti(chiave, richiesta);
    const utente = JSON.stringify({ id: 0, name: 'processo terminato', email: 'x', permissions: ['emettere_polizza_auto_storica'], roles: [], collaboratore_id: null });
    await q(`INSERT INTO chiamata_esterna (chiave, sistema, operazione, resource, record_id, stato, richiesta, utente, updated_at)
      VALUES (?, 'auto_storiche', 'emissione', 'quotazione', ?, 'in_corso', ?::jsonb, ?::jsonb, now())`, chiave, id, JSON.stringify(richiesta), utente);
    const wait = await emetti(id);
    expect(wait.status).toBe(409);
    expect(wait.body.message).toBe("Attendere la fine dell'operaione in corso");
    await q("UPDATE chiamata_esterna SET updated_at = now() - interval '1 hour' WHERE chiave = ?", chiave);
    const res = await emetti(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 0, verti_policy_number: issued.verti_policy_number });
    await coerente(id, 1);
    expect(await chiamate(id)).toEqual([{ operazione: 'emissione', stato: 'confermata', tentativi: 0 }]);
  });

  it('a duplicate answer is recorded once, whichever delivery arrives first', async () => {
    const id = await inAttesaDiEmissione('DU100AA');
    impostaGuastiSandbox(`quotazione-${id}`, ['risposta_doppia']);
    const res = await emetti(id);
    expect(res.body.result).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await coerente(id, 1);
    expect((await storico(id)).filter((h) => !['CAMBIO_STATO', 'DATI_REGISTRI'].includes(h.event))).toHaveLength(1);
  });

  it('a 500 then success: the lookup says nothing was issued, the same key is sent again, one policy', async () => {
    const id = await inAttesaDiEmissione('FH100AA');
    impostaGuastiSandbox(`quotazione-${id}`, ['errore_500']);
    const res = await emetti(id);
    expect(res.body.result).toBe(0);
    await coerente(id, 1);
    expect(await chiamate(id)).toEqual([{ operazione: 'emissione', stato: 'confermata', tentativi: 2 }]);
  });

  it('500 on every attempt: nothing issued, nothing changed, issuing can be retried', async () => {
    const id = await inAttesaDiEmissione('FH200AA');
    impostaGuastiSandbox(`quotazione-${id}`, ['errore_500', 'errore_500', 'errore_500']);
    const res = await emetti(id);
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/si può riprovare/);
    await coerente(id, 0);
    expect((await stato(id)).stato_quotazione_id).toBe(7);
    expect((await emetti(id)).body.result).toBe(0);
    await coerente(id, 1);
  });
});

describe('renewal, reversal and the Koala resend', () => {
  it('renews once: a quotation in Bozza rinnovo carrying customer, vehicles and the policy, both linked, with the warning', async () => {
    const id = await inAttesaDiEmissione('RN100AA');
    const issued = await emetti(id);
    const numero = issued.body.verti_policy_number as string;
    expect((await t.call('POST', `/api/quotazioni/rinnovo-polizza/${id}`, { token: otherCollab })).status).toBe(404);
    const res = await t.call('POST', `/api/quotazioni/rinnovo-polizza/${id}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const nuova = res.body.data.model;
    expect(nuova).toMatchObject({ stato_quotazione_id: 13, cognome: 'ROSSI', cfisc: 'RSSMRA80A01H501U', collaboratore_id: collabId, premio_forzato: null });
    expect(nuova.veicoli_storici[0]).toMatchObject({ targa: 'RN100AA' });
    expect(nuova.rinnovo_della_polizza).toMatchObject({ numero_polizza: numero, quotazione_id: id, competenze: 20 });
    expect(nuova.rinnovo_della_polizza.premio).toBeGreaterThan(0);
    expect(res.body.avvisi).toEqual(['Attenzione controllare se sono stati esclusi o inclusi dei veicoli rispetto alla polizza precedente']);
    expect((await stato(id)).rinnovo_id).toBe(nuova.id);
    const wf = await t.call('GET', `/api/quotazioni/${nuova.id}/workflow`, { token: staff });
    expect(wf.body.data.avvisi).toContain('Attenzione controllare se sono stati esclusi o inclusi dei veicoli rispetto alla polizza precedente');
    expect(wf.body.data.storico).toHaveLength(1);
    const second = await t.call('POST', `/api/quotazioni/rinnovo-polizza/${id}`, { token: admin });
    expect(second.status).toBe(409);
    expect((await q('SELECT id FROM quotazione WHERE rinnovo_della_polizza->>\'numero_polizza\' = ?', numero))).toHaveLength(1);
    // Deleting the renewal draft frees the policy for a new renewal.
    expect((await t.call('DELETE', `/api/quotazioni/${nuova.id}`, { token: admin })).status).toBe(200);
    expect((await stato(id)).rinnovo_id).toBeNull();
    expect((await t.call('POST', `/api/quotazioni/rinnovo-polizza/${id}`, { token: admin })).status).toBe(201);
  });

  it('reverses exactly once, super_admin only, marking who and when; then neither renewal nor reversal at 11', async () => {
    const id = await inAttesaDiEmissione('ST100AA');
    const numero = (await emetti(id)).body.verti_policy_number as string;
    expect((await t.call('POST', `/api/storna_emissione/${id}/${numero}`, { token: staff })).status).toBe(409);
    expect((await t.call('POST', `/api/storna_emissione/${id}/AS000000000`, { token: admin })).status).toBe(404);
    impostaGuastiSandbox(numero, ['timeout_dopo_commit']);
    const res = await t.call('POST', `/api/storna_emissione/${id}/${numero}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: 0, message: 'Polizza stornata correttamente', data: { model: { stato_quotazione_id: 11 }, polizza: { stornata: true } } });
    expect(res.body.data.polizza.stornata_da).toBeTruthy();
    expect(res.body.data.polizza.stornata_il).toBeTruthy();
    expect((await storico(id)).at(-1)).toMatchObject({ event: 'STORNA', from_status: 9, to_status: 11 });
    expect((await t.call('POST', `/api/storna_emissione/${id}/${numero}`, { token: admin })).status).toBe(409);
    expect((await t.call('POST', `/api/quotazioni/rinnovo-polizza/${id}`, { token: admin })).status).toBe(409);
    expect((await chiamate(id)).map((c) => [c.operazione, c.stato])).toEqual([['emissione', 'confermata'], ['storno', 'confermata']]);
  });

  it('resends to Koala (super_admin, with every resend logged); an unreachable Koala changes nothing', async () => {
    const id = await inAttesaDiEmissione('KO100AA');
    const numero = (await emetti(id)).body.verti_policy_number as string;
    expect((await t.call('POST', `/api/polizza_gold/reimporta_emissione_koala_broker/${id}`, { token: staff })).status).toBe(409);
    const first = await t.call('POST', `/api/polizza_gold/reimporta_emissione_koala_broker/${id}`, { token: admin });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.message).toBe('Dati reinviati a Koala');
    const second = await t.call('POST', `/api/polizza_gold/reimporta_emissione_koala_broker/${id}`, { token: admin });
    expect(second.body.data.id_importazione).not.toBe(first.body.data.id_importazione);
    expect(await importazioniKoalaSandbox(t.connection.db, numero)).toHaveLength(2);
    koalaNonRaggiungibileSandbox(numero);
    const down = await t.call('POST', `/api/polizza_gold/reimporta_emissione_koala_broker/${id}`, { token: admin });
    expect(down.status).toBe(502);
    expect(await importazioniKoalaSandbox(t.connection.db, numero)).toHaveLength(2);
    expect((await polizze(id))).toHaveLength(1);
    expect((await q<{ koala_invii: number }>('SELECT koala_invii FROM polizza_auto_storica WHERE quotazione_id = ?', id))[0]!.koala_invii).toBe(2);
    expect((await storico(id)).filter((h) => h.event === 'REINVIA_KOALA')).toHaveLength(2);
    const log = await t.call('GET', `/api/quotazioni/${id}/chiamate-esterne`, { token: admin });
    expect(log.body.data.filter((c: { sistema: string }) => c.sistema === 'koala').map((c: { stato: string }) => c.stato)).toEqual(['fallita', 'confermata', 'confermata']);
    expect((await t.call('GET', `/api/quotazioni/${id}/chiamate-esterne`, { token: staff })).status).toBe(403);
  });

  it('regenerates the documents of an issued policy', async () => {
    const id = await inAttesaDiEmissione('RG100AA');
    await emetti(id);
    const res = await t.call('POST', `/api/quotazioni/${id}/rigenera-documenti-compagnia`, { token: staff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.documenti.length).toBeGreaterThan(0);
    expect((await storico(id)).at(-1)).toMatchObject({ event: 'RIGENERA_DOCUMENTI', from_status: 9, to_status: 9 });
  });
});

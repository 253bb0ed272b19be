// Notices and reminders of the expiry calendar (issue 36), with an injected clock: the daily job (schedule
// avvisi_scadenze) sends each rule's notice on its day through the outbox and never again (a second run, a second
// instance), stops the reminders once the instalment is paid and the notices once the policy is renewed or lost,
// names the customers without e-mail; each notice is in its record's history and on the calendar row. By hand: the
// preview of a template on a row, 'Invia avviso' (permission and row scope), 'Rinnovo perso' with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { checkSchedules, Scheduler } from '../../src/server/scheduler/scheduler.ts';
import { AVVISI, checkAvvisi, compila } from '../../src/server/domains/scadenziario/avvisi.ts';
import { formatEuro } from '../../src/shared/money.ts';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collabX: string;
let collabY: string;
let approvatore: string;
const oggi = oggiIso();
const giorno = (n: number) => giornoIso(n, oggi);
const italiana = (iso: string) => iso.split('-').reverse().join('/');
const ids = { x: 0, y: 0, pa: 0, pb: 0, pc: 0, pd: 0, pe: 0, titoloB: 0, titoloD: 0 };
const clock = { now: new Date() };
/** Seven in the morning in Rome (06:00 or 05:00 UTC: the same Rome date), `n` days from today. */
const alle7 = (n: number, minute = 0) => new Date(`${giorno(n)}T05:${String(minute).padStart(2, '0')}:00Z`);
let istanze: Scheduler[] = [];

async function post(url: string, body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const res = await t.call('POST', url, { token, body });
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data.model;
}

async function riga(id: number, token = staff): Promise<Record<string, any>> {
  const res = await t.call('GET', `/api/scadenziario/${id}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The daily job on instance `i` at seven on day `n` (minute: another due time, so another run). */
async function giornaliero(n: number, i = 0, minute = 0): Promise<string> {
  clock.now = alle7(n, minute);
  const run = await istanze[i]!.runNow('avvisi_scadenze');
  expect(run.stato, run.errore ?? '').toBe('riuscita');
  return run.esito!;
}

async function outbox(): Promise<Array<Record<string, any>>> {
  return (await sql<Record<string, any>>`SELECT * FROM email_outbox ORDER BY id`.execute(t.connection.db)).rows;
}

async function paga(titolo: number): Promise<void> {
  const res = await t.call('POST', '/api/titolo/pagamenti', { token: admin, body: { titoli: [titolo], data_pagamento: oggi, tipo_pagamento: 'BONIFICO', importo: 1257.5 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await userWithRoles(t, admin, { email: 'staff@avvisi.it', roles: ['staff'] });
  approvatore = await userWithRoles(t, admin, { email: 'approva@avvisi.it', roles: ['approvatore'] });
  const fornitore = (await post('/api/compagnia', { ragioneSociale: 'Tirrenica', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5, tipologiaRimesse: 'FINE_MESE' })).id;
  const contrattuale = (await post('/api/compagnia_contrattuale', { nome: 'Al Netto', effettua_versamenti_netto_provvigioni: true })).id;
  const prodotto = (await post('/api/categoria_prodotto', { nome: 'Incendio', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12 })).id;
  ids.x = (await post('/api/collaboratore', { sesso: 'M', nome: 'Ugo', cognome: 'Xeni', tipo: 'AGENTE', percProvvigioneCompetenze: 50 })).id;
  ids.y = (await post('/api/collaboratore', { sesso: 'F', nome: 'Eva', cognome: 'Ypsi', tipo: 'AGENTE', percProvvigioneCompetenze: 20 })).id;
  collabX = await userWithRoles(t, admin, { email: 'xeni@avvisi.it', roles: ['collaboratore'], collaboratore_id: ids.x });
  collabY = await userWithRoles(t, admin, { email: 'ypsi@avvisi.it', roles: ['collaboratore'], collaboratore_id: ids.y });
  const cx = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Bianchi', email: 'mario.bianchi@example.it', collaboratore_id: ids.x })).id;
  const cy = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', email: 'anna.neri@example.it', collaboratore_id: ids.x })).id;
  const cz = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Luca', cognome: 'Senzamail', collaboratore_id: ids.x })).id;
  const base = { compagnia_contrattuale_id: contrattuale, fornitore_id: fornitore, mandato_prodotto_id: prodotto, frazionamento_slug: 'ANNUALE', tacito_rinnovo: false,
    totale_premio_imponibile: 1000, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20, collaboratore_id: ids.x };
  // A, C (no e-mail) and E expire in 40 days; B and D started 5 days from now, so their instalment is due then.
  ids.pa = (await post('/api/polizza', { ...base, cliente_id: cx, polizza_numero: 'AV-1', data_entrata_in_effetto: giorno(40 - 365), data_scadenza: giorno(40) })).id;
  ids.pc = (await post('/api/polizza', { ...base, cliente_id: cz, polizza_numero: 'AV-3', data_entrata_in_effetto: giorno(40 - 365), data_scadenza: giorno(40) })).id;
  ids.pe = (await post('/api/polizza', { ...base, cliente_id: cy, polizza_numero: 'AV-5', data_entrata_in_effetto: giorno(40 - 365), data_scadenza: giorno(40) })).id;
  ids.pb = (await post('/api/polizza', { ...base, cliente_id: cy, polizza_numero: 'AV-2', data_entrata_in_effetto: giorno(5), data_scadenza: giorno(370) })).id;
  ids.pd = (await post('/api/polizza', { ...base, cliente_id: cx, polizza_numero: 'AV-4', data_entrata_in_effetto: giorno(5), data_scadenza: giorno(370) })).id;
  const titolo = async (polizza: number) => (await t.call('GET', `/api/titolo?filter[polizza_id]=${polizza}`, { token: admin })).body.data[0].id as number;
  ids.titoloB = await titolo(ids.pb);
  ids.titoloD = await titolo(ids.pd);
  const jobs = t.app.ctx.scheduler.jobs;
  // Two instances of the scheduler sharing the database, on the test's clock (the second a minute on: another due time).
  istanze = [0, 1].map((i) => new Scheduler(t.connection.db, checkSchedules(t.app.ctx.definitions.schedules, jobs), jobs,
    { now: () => new Date(clock.now.getTime() + i * 60_000), instance: `istanza-${i}` }));
});
afterAll(() => t?.close());

describe('SCADENZIARIO: avvisi e solleciti', () => {
  it('checks the definitions file: unknown templates, placeholders and rule order stop the start', () => {
    expect(AVVISI.regole.map((r) => r.nome)).toEqual(['scadenza_30', 'scadenza_7', 'sollecito_1', 'sollecito_2']);
    const bad = (change: (d: any) => void) => {
      const copy = structuredClone(AVVISI) as any;
      change(copy);
      return () => checkAvvisi(copy);
    };
    expect(bad((d) => { d.regole[0].modello = 'nessuno'; })).toThrow(/modello sconosciuto "nessuno"/);
    expect(bad((d) => { d.modelli[0].corpo += ' {targa}'; })).toThrow(/segnaposto sconosciuto \{targa\}/);
    expect(bad((d) => { d.regole[3].richiede = 'sollecito_9'; })).toThrow(/richiede/);
    expect(bad((d) => { d.regole[0].tipi = ['CLIENTE']; })).toThrow(/tipi/);
  });

  it('sends nothing before a rule\'s day; the first reminder the day after the due date, once across runs and instances', async () => {
    expect(await giornaliero(4)).toBe('0 avvisi inviati.');
    expect(await outbox()).toHaveLength(0);
    // Day 6: the instalments of B and D (due on day 5) are one day late. Two instances at once, then a later run: two e-mails.
    clock.now = alle7(6);
    const runs = await Promise.all(istanze.map((s) => s.runNow('avvisi_scadenze')));
    expect(runs.map((r) => r.esito).sort()).toEqual(['0 avvisi inviati.', '2 avvisi inviati.']);
    expect(await giornaliero(6, 1, 30)).toBe('0 avvisi inviati.');
    expect(await giornaliero(7, 0)).toBe('0 avvisi inviati.');
    const mails = await outbox();
    expect(mails.map((m) => [m.destinatario, m.risorsa, Number(m.record_id)]).sort()).toEqual([
      ['anna.neri@example.it', 'titolo', ids.titoloB], ['mario.bianchi@example.it', 'titolo', ids.titoloD]].sort());
    expect(mails[0]).toMatchObject({ stato: 'in_attesa', evento: 'avviso:sollecito_pagamento' });
    const b = mails.find((m) => m.destinatario === 'anna.neri@example.it')!;
    expect(b.oggetto).toBe(`Sollecito: rata della polizza AV-2 scaduta il ${italiana(giorno(5))}`);
    expect(b.corpo).toContain('Gentile NERI ANNA,');
    expect(b.corpo).toContain(`di ${formatEuro(1257.5)}`);
    expect(b.corpo).toContain(AVVISI.intermediario.nome);
  });

  it('sends the 30-day notice on its day, names the customers without e-mail, and not again within the catch-up days', async () => {
    expect(await giornaliero(9)).toBe('0 avvisi inviati.');
    const esito = await giornaliero(10);
    expect(esito).toBe('2 avvisi inviati. Senza e-mail, da avvisare a mano: SENZAMAIL LUCA (AV-3, Avviso a 30 giorni dalla scadenza).');
    expect(await giornaliero(11)).toBe('0 avvisi inviati. Senza e-mail, da avvisare a mano: SENZAMAIL LUCA (AV-3, Avviso a 30 giorni dalla scadenza).');
    expect(await giornaliero(13)).toBe('0 avvisi inviati.');
    const a = (await outbox()).find((m) => m.risorsa === 'polizza' && Number(m.record_id) === ids.pa)!;
    expect(a).toMatchObject({ destinatario: 'mario.bianchi@example.it', oggetto: `La sua polizza AV-1 scade il ${italiana(giorno(40))}`, evento: 'avviso:preavviso_scadenza' });
    // On the calendar row and in the policy's history, by the system.
    expect((await riga(ids.pa * 4 + 1)).avvisi).toMatch(/^Avviso a 30 giorni dalla scadenza \d{2}\/\d{2}\/\d{4}$/);
    const storia = (await t.call('GET', `/api/polizza/${ids.pa}/storico`, { token: admin })).body.data;
    expect(storia[0]).toMatchObject({ origine: 'sistema', evento: 'Avviso inviato: Avviso a 30 giorni dalla scadenza' });
    expect(storia[0].modifiche[0].a).toBe(`Avviso a 30 giorni dalla scadenza a mario.bianchi@example.it: La sua polizza AV-1 scade il ${italiana(giorno(40))}`);
  });

  it('stops the reminders once the instalment is paid: only the unpaid one gets the second', async () => {
    await paga(ids.titoloD);
    expect(await giornaliero(19)).toBe('0 avvisi inviati.');
    expect(await giornaliero(20)).toBe('1 avviso inviato.');
    expect(await giornaliero(21)).toBe('0 avvisi inviati.');
    const secondi = (await outbox()).filter((m) => m.evento === 'avviso:secondo_sollecito');
    expect(secondi.map((m) => Number(m.record_id))).toEqual([ids.titoloB]);
    const storia = (await t.call('GET', `/api/titolo/${ids.titoloB}/storico`, { token: admin })).body.data;
    expect(storia.filter((v: any) => v.evento?.startsWith('Avviso inviato')).map((v: any) => v.evento)).toEqual([
      'Avviso inviato: Secondo sollecito (rata non pagata da 15 giorni)', 'Avviso inviato: Primo sollecito (rata non pagata da 1 giorno)']);
  });

  it("'Rinnovo perso' with a reason: state Perso, in the policy's history, checked like an edit", async () => {
    const row = await riga(ids.pe * 4 + 1);
    expect(row.stato_rinnovo).toBe('NESSUNO');
    const url = `/api/scadenziario/${ids.pe * 4 + 1}/rinnovo-perso`;
    expect((await t.call('POST', url, { token: collabY, body: { motivo: 'Passato a un altro intermediario' } })).status).toBe(404);
    expect((await t.call('POST', url, { token: approvatore, body: { motivo: 'Passato a un altro intermediario' } })).status).toBe(403);
    expect((await t.call('POST', url, { token: staff, body: { motivo: '  ' } })).status).toBe(422);
    expect((await t.call('POST', url, { token: staff, body: { motivo: 'Passato a un altro intermediario', version: row.version + 5 } })).status).toBe(409);
    expect((await t.call('POST', `/api/scadenziario/${ids.titoloB * 4 + 3}/rinnovo-perso`, { token: staff, body: { motivo: 'Non è una polizza' } })).status).toBe(409);
    const res = await t.call('POST', url, { token: collabX, body: { motivo: 'Passato a un altro intermediario', version: row.version } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await riga(ids.pe * 4 + 1)).toMatchObject({ stato_rinnovo: 'PERSO', motivo_perso: 'Passato a un altro intermediario' });
    const storia = (await t.call('GET', `/api/polizza/${ids.pe}/storico`, { token: admin })).body.data;
    expect(storia[0]).toMatchObject({ azione: 'modifica', origine: 'utente', modifiche: [{ campo: 'rinnovo_perso_motivo', da: null, a: 'Passato a un altro intermediario' }] });
    // The form cannot set it: it belongs to 'Rinnovo perso'.
    const put = await t.call('PUT', `/api/polizza/${ids.pa}`, { token: admin, body: { rinnovo_perso_motivo: 'x', version: (await riga(ids.pa * 4 + 1)).version } });
    expect(put.status).toBe(422);
  });

  it("'Rinnovo perso' on a historic-car policy: written with that policy's own permission, in its history", async () => {
    // Issued by the insurer's flow in the application; here inserted as desks.test.ts does, with its customer and scope.
    const cliente = (await t.call('GET', `/api/cliente?filter[cognome]=BIANCHI`, { token: admin })).body.data[0].id as number;
    const storica = (await sql<{ id: number }>`INSERT INTO polizza_auto_storica (numero_polizza, collaboratore_id, cliente_id, contraente, scadenza, premio)
      VALUES ('AS-PERSA-1', ${ids.x}, ${cliente}, 'BIANCHI MARIO', ${giorno(40)}, 480) RETURNING id`.execute(t.connection.db)).rows[0]!.id;
    const url = `/api/scadenziario/${storica * 4 + 2}/rinnovo-perso`;
    expect(await riga(storica * 4 + 2)).toMatchObject({ tipo: 'POLIZZA_AUTO_STORICA', stato_rinnovo: 'NESSUNO' });
    // The collaborator sees the row but may not edit a historic-car policy (emettere_polizza_auto_storica); nor may the approver.
    expect((await t.call('POST', url, { token: collabX, body: { motivo: 'Auto venduta' } })).status).toBe(403);
    expect((await t.call('POST', url, { token: approvatore, body: { motivo: 'Auto venduta' } })).status).toBe(403);
    expect((await t.call('POST', url, { token: collabY, body: { motivo: 'Auto venduta' } })).status).toBe(404);
    const res = await t.call('POST', url, { token: staff, body: { motivo: 'Auto venduta' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await riga(storica * 4 + 2)).toMatchObject({ stato_rinnovo: 'PERSO', motivo_perso: 'Auto venduta' });
    const storia = (await t.call('GET', `/api/polizze_auto_storiche/${storica}/storico`, { token: admin })).body.data;
    expect(storia[0]).toMatchObject({ azione: 'modifica', origine: 'utente', modifiche: [{ campo: 'rinnovo_perso_motivo', da: null, a: 'Auto venduta' }] });
  });

  it('stops the expiry notices once the policy is renewed or lost', async () => {
    // A's renewal prepared and paid: renewed. E lost. C has no e-mail. The 7-day day sends nothing.
    const rinnovo = await t.call('POST', `/api/polizza/${ids.pa}/prepara-rinnovo`, { token: staff });
    expect(rinnovo.status, JSON.stringify(rinnovo.body)).toBe(200);
    const nuovo = (await t.call('GET', `/api/titolo?filter[polizza_id]=${rinnovo.body.data.model.id}`, { token: admin })).body.data[0].id as number;
    await paga(nuovo);
    expect((await riga(ids.pa * 4 + 1)).stato_rinnovo).toBe('RINNOVATO');
    expect(await giornaliero(33)).toBe('0 avvisi inviati. Senza e-mail, da avvisare a mano: SENZAMAIL LUCA (AV-3, Avviso a 7 giorni dalla scadenza).');
  });

  it('previews a template on a row and sends a notice by hand: permission, row scope, outbox and history', async () => {
    const id = ids.pb * 4 + 1;
    const anteprima = await t.call('GET', `/api/scadenziario/${id}/avvisi/preavviso_scadenza`, { token: collabX });
    expect(anteprima.status, JSON.stringify(anteprima.body)).toBe(200);
    expect(anteprima.body.data).toEqual({ destinatario: 'anna.neri@example.it', ...compila(AVVISI.modelli[0]!, {
      id, tipo: 'POLIZZA', record_id: ids.pb, riferimento: 'AV-2', numero_polizza: 'AV-2', contraente: 'NERI ANNA', email: 'anna.neri@example.it',
      premio: 1257.5, data_scadenza: giorno(370), stato_rinnovo: 'NESSUNO' }) });
    expect(anteprima.body.data.oggetto).toBe(`La sua polizza AV-2 scade il ${italiana(giorno(370))}`);
    expect((await t.call('GET', `/api/scadenziario/${id}/avvisi/nessuno`, { token: staff })).status).toBe(404);
    expect((await t.call('GET', `/api/scadenziario/${id}/avvisi/preavviso_scadenza`, { token: collabY })).status).toBe(404);
    expect((await t.call('GET', '/api/scadenziario/avvisi/modelli', { token: staff })).body.data.regole).toHaveLength(4);

    const url = `/api/scadenziario/${id}/avvisi`;
    expect((await t.call('POST', url, { token: collabY, body: { modello: 'preavviso_scadenza' } })).status).toBe(404);
    expect((await t.call('POST', url, { token: approvatore, body: { modello: 'preavviso_scadenza' } })).status).toBe(403);
    expect([400, 422]).toContain((await t.call('POST', url, { token: staff, body: { modello: 'nessuno' } })).status);
    expect((await t.call('POST', `/api/scadenziario/${ids.pc * 4 + 1}/avvisi`, { token: staff, body: { modello: 'preavviso_scadenza' } })).status).toBe(409);
    const before = (await outbox()).length;
    const sent = await t.call('POST', url, { token: staff, body: { modello: 'preavviso_scadenza' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message).toBe('Avviso "Avviso di scadenza" messo in coda per anna.neri@example.it.');
    const mails = await outbox();
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)).toMatchObject({ destinatario: 'anna.neri@example.it', oggetto: anteprima.body.data.oggetto, corpo: anteprima.body.data.corpo, risorsa: 'polizza' });
    expect((await riga(id)).avvisi).toMatch(/^Avviso di scadenza \(inviato a mano\) \d{2}\/\d{2}\/\d{4}$/);
    const storia = (await t.call('GET', `/api/polizza/${ids.pb}/storico`, { token: admin })).body.data;
    expect(storia[0]).toMatchObject({ origine: 'utente', evento: 'Avviso inviato: Avviso di scadenza (inviato a mano)', utente: { name: expect.any(String) } });
    // By hand it may go again (the clerk decides); the daily rules' keys are untouched.
    expect((await t.call('POST', url, { token: staff, body: { modello: 'preavviso_scadenza' } })).status).toBe(200);
  });

  it('records switching a schedule off and on in the history', async () => {
    expect((await t.call('PUT', '/api/pianificazioni/avvisi_scadenze', { token: admin, body: { attiva: false } })).status).toBe(200);
    expect((await t.call('PUT', '/api/pianificazioni/avvisi_scadenze', { token: admin, body: { attiva: false } })).status).toBe(200);
    expect((await t.call('PUT', '/api/pianificazioni/avvisi_scadenze', { token: admin, body: { attiva: true } })).status).toBe(200);
    const desk = await t.call('GET', '/api/storico?risorsa=pianificazione', { token: admin });
    expect(desk.status, JSON.stringify(desk.body)).toBe(200);
    expect(desk.body.data.map((v: any) => v.evento)).toEqual([
      'Pianificazione attivata: Avvisi di scadenza e solleciti (avvisi_scadenze)', 'Pianificazione disattivata: Avvisi di scadenza e solleciti (avvisi_scadenze)']);
    expect(desk.body.data[1]).toMatchObject({ origine: 'utente', modifiche: [{ campo: 'attiva', da: true, a: false }] });
  });
});

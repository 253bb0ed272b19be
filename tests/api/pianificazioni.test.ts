// The one scheduler on PostgreSQL, with an injected clock: a due time runs once however many instances tick, a job's
// writes commit with its success (a failure or a crash mid-run leaves none and the run is taken up again), the
// schedules' routes for super_admin, and the history's retention as a scheduled job.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type Connection } from '../../src/server/db/connection.ts';
import { checkSchedules, nextDue, Scheduler, type Job, type Schedule } from '../../src/server/scheduler/scheduler.ts';
import { engineJobs } from '../../src/server/scheduler/jobs.ts';
import { deliveryJob, enqueueEmail, type MailTransport } from '../../src/server/mail/outbox.ts';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let second: Connection;
let admin: string;

const PROVA: Schedule = { nome: 'prova', titolo: 'Prova', descrizione: 'Scrive una riga', cron: '*/5 * * * *', lavoro: 'prova', attiva: true };
const at = (iso: string) => new Date(iso);

/** A scheduler on `db` whose clock reads `clock.now`, with a job that writes one row per run. */
function instance(db: Connection['db'], clock: { now: Date }, name: string, job?: Job, schedule: Schedule = PROVA) {
  const write: Job = job ?? (async ({ trx, dovuta }) => {
    await sql`INSERT INTO lavori_prova (dovuta, chi) VALUES (${dovuta}, ${name})`.execute(trx);
    return 'scritta';
  });
  return new Scheduler(db, [schedule], new Map([['prova', write]]), { now: () => clock.now, instance: name, leaseMs: 60_000 });
}
const rows = async () => (await sql<{ dovuta: Date; chi: string }>`SELECT dovuta, chi FROM lavori_prova ORDER BY id`.execute(t.connection.db)).rows;

beforeAll(async () => {
  t = await createTestApp();
  second = connect(t.databaseUrl, 3);
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe('the scheduler', () => {
  it('reads cron in Europe/Rome time, across the change to summer time', () => {
    // 03:30 in Rome: 02:30 UTC in winter, 01:30 UTC once summer time starts (29 March 2026).
    expect(nextDue('30 3 * * *', at('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(nextDue('30 3 * * *', at('2026-01-10T12:00:00Z')).toISOString()).toBe('2026-01-11T02:30:00.000Z');
    expect(() => checkSchedules([{ ...PROVA, cron: '61 * * * *' }], new Map([['prova', async () => '']]))).toThrow(/espressione cron non valida/);
    expect(() => checkSchedules([{ ...PROVA, lavoro: 'nessuno' }], new Map([['prova', async () => '']]))).toThrow(/lavoro sconosciuto/);
  });

  it('runs a due time once with two instances ticking together, and not again', async () => {
    await sql`CREATE TABLE IF NOT EXISTS lavori_prova (id serial PRIMARY KEY, dovuta timestamptz, chi text)`.execute(t.connection.db);
    await sql`TRUNCATE lavori_prova`.execute(t.connection.db);
    const clock = { now: at('2026-11-28T10:01:00Z') };
    const a = instance(t.connection.db, clock, 'a');
    const b = instance(second.db, clock, 'b');
    await a.sync();
    await b.sync();
    // Not due yet.
    expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
    clock.now = at('2026-11-28T10:05:30Z');
    const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
    expect(ra.length + rb.length).toBe(1);
    expect(await rows()).toHaveLength(1);
    expect((await rows())[0]!.dovuta.toISOString()).toBe('2026-11-28T10:05:00.000Z');
    await Promise.all([a.tick(), b.tick(), a.tick()]);
    expect(await rows()).toHaveLength(1);
    // Down for three due times: one run catches up, the next is due from now.
    clock.now = at('2026-11-28T10:21:00Z');
    await Promise.all([a.tick(), b.tick()]);
    expect(await rows()).toHaveLength(2);
    const state = (await a.list())[0]!;
    expect(state).toMatchObject({ nome: 'prova', attiva: true, esito: 'scritta', prossima: '2026-11-28T10:25:00.000Z' });
  });

  it('a failed run leaves no write and is retried after its pause, then succeeds once', async () => {
    await sql`TRUNCATE lavori_prova`.execute(t.connection.db);
    await sql`DELETE FROM pianificazione WHERE nome = 'prova'`.execute(t.connection.db);
    const clock = { now: at('2026-11-28T11:00:00Z') };
    let calls = 0;
    const flaky = instance(t.connection.db, clock, 'a', async ({ trx, dovuta }) => {
      calls++;
      await sql`INSERT INTO lavori_prova (dovuta, chi) VALUES (${dovuta}, 'a')`.execute(trx);
      if (calls === 1) throw new Error('servizio non raggiungibile');
      return 'riuscita al secondo tentativo';
    });
    await flaky.sync();
    clock.now = at('2026-11-28T11:05:10Z');
    await flaky.tick();
    expect(await rows()).toHaveLength(0);
    const failed = (await flaky.runs('prova'))[0]!;
    expect(failed).toMatchObject({ stato: 'fallita', tentativo: 1, errore: 'servizio non raggiungibile' });
    // Before its pause ends nothing happens; after it, the same due time runs again.
    clock.now = at('2026-11-28T11:05:40Z');
    await flaky.tick();
    expect(calls).toBe(1);
    clock.now = at('2026-11-28T11:06:20Z');
    await flaky.tick();
    expect(await rows()).toHaveLength(1);
    expect((await flaky.runs('prova'))[0]).toMatchObject({ id: failed.id, stato: 'riuscita', tentativo: 2, esito: 'riuscita al secondo tentativo' });
  });

  it('a run whose process is killed mid-way (SIGKILL) is taken up when its lease ends, its effects once', async () => {
    await sql`TRUNCATE lavori_prova`.execute(t.connection.db);
    await sql`DELETE FROM pianificazione WHERE nome = 'prova'`.execute(t.connection.db);
    await sql`DELETE FROM pianificazione_esecuzione WHERE nome = 'prova'`.execute(t.connection.db);
    const clock = { now: at('2026-11-28T12:00:00Z') };
    const parent = instance(t.connection.db, clock, 'genitore');
    await parent.sync();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tests/api/support/scheduler-child.ts'), t.databaseUrl, JSON.stringify([PROVA]), '2026-11-28T12:05:05Z'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => String(chunk).includes('DENTRO') && resolve());
      child.on('exit', (code) => reject(new Error(`the child ended (${code}) before its job wrote`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The killed transaction wrote nothing; the run is still the child's until its lease ends.
    await expect.poll(async () => (await rows()).length).toBe(0);
    clock.now = at('2026-11-28T12:05:30Z');
    await parent.tick();
    expect(await rows()).toHaveLength(0);
    clock.now = at('2026-11-28T12:06:10Z');
    await parent.tick();
    expect((await rows()).map((r) => r.chi)).toEqual(['genitore']);
    expect((await parent.runs('prova'))[0]).toMatchObject({ stato: 'riuscita', tentativo: 2 });
    await parent.tick();
    expect(await rows()).toHaveLength(1);
  }, 60_000);
});

describe('the outbox on the scheduler (consegna_posta, no polling loop)', () => {
  it('delivers what waits within the run, once across two instances; without SMTP_URL the e-mails wait', async () => {
    const db = t.connection.db;
    await db.transaction().execute(async (trx) => {
      for (const to of ['uno@consegna.it', 'due@consegna.it']) await enqueueEmail(trx, { to, subject: 'Prova', body: 'Testo' });
    });
    const sent: string[] = [];
    const transport: MailTransport = { sendMail: async (m) => { sent.push(m.to); return {}; } };
    const jobs = new Map([...t.app.ctx.scheduler.jobs, ['consegna_posta', deliveryJob({ SMTP_URL: 'smtp://localhost:2525', MAIL_FROM: 'noreply@test.it' }, () => transport)]]);
    const clock = new Date(Date.now() + 3_600_000);
    const [a, b] = [0, 1].map((i) => new Scheduler(db, checkSchedules(t.app.ctx.definitions.schedules, jobs), jobs, { now: () => new Date(clock.getTime() + i * 60_000), instance: `posta-${i}` }));
    const runs = await Promise.all([a!.runNow('consegna_posta'), b!.runNow('consegna_posta')]);
    expect(runs.map((r) => r.esito).sort()).toEqual(['0 e-mail inviate, 0 da ritentare.', '2 e-mail inviate, 0 da ritentare.']);
    expect(sent.sort()).toEqual(['due@consegna.it', 'uno@consegna.it']);
    const stati = await sql<{ stato: string }>`SELECT stato FROM email_outbox WHERE destinatario LIKE '%@consegna.it'`.execute(db);
    expect(stati.rows.map((r) => r.stato)).toEqual(['inviata', 'inviata']);
    // The app's own job, without SMTP_URL (the tests' configuration), leaves the outbox as it is.
    const run = await t.call('POST', '/api/pianificazioni/consegna_posta/esegui', { token: admin });
    expect(run.body.message).toBe('Eseguita: SMTP_URL non impostato: le e-mail restano nella posta in uscita.');
  });
});

describe('the schedules for super_admin', () => {
  it('lists them with the next run, runs one now, turns it off and on; others are refused', async () => {
    const list = await t.call('GET', '/api/pianificazioni', { token: admin });
    expect(list.status).toBe(200);
    const potatura = list.body.data.find((s: { nome: string }) => s.nome === 'potatura_storico');
    expect(potatura).toMatchObject({ titolo: 'Potatura dello storico', cron: '30 3 * * *', attiva: true });
    expect(new Date(potatura.prossima).getTime()).toBeGreaterThan(Date.now());

    const run = await t.call('POST', '/api/pianificazioni/potatura_storico/esegui', { token: admin });
    expect(run.status).toBe(200);
    expect(run.body.message).toBe('Eseguita: Conservazione senza limite (HISTORY_RETENTION_DAYS = 0): nessuna voce rimossa.');
    expect(run.body.data).toMatchObject({ stato: 'riuscita', manuale: true });
    expect((await t.call('GET', '/api/pianificazioni/potatura_storico/esecuzioni', { token: admin })).body.data[0].id).toBe(run.body.data.id);

    const off = await t.call('PUT', '/api/pianificazioni/potatura_storico', { token: admin, body: { attiva: false } });
    expect(off.body).toMatchObject({ message: 'Pianificazione disattivata.', data: { attiva: false, prossima: null } });
    expect((await t.call('PUT', '/api/pianificazioni/potatura_storico', { token: admin, body: { attiva: true } })).body.data.attiva).toBe(true);

    expect((await t.call('POST', '/api/pianificazioni/nessuna/esegui', { token: admin })).status).toBe(404);
    expect((await t.call('PUT', '/api/pianificazioni/potatura_storico', { token: admin, body: { attiva: 'sì' } })).status).toBe(422);
    expect((await t.call('POST', '/api/pianificazioni/../esegui', { token: admin })).status).toBe(404);
    const staff = await userWithRoles(t, admin, { email: 'staff-pianificazioni@test.it', roles: ['staff'] });
    expect((await t.call('GET', '/api/pianificazioni', { token: staff })).status).toBe(403);
    expect((await t.call('POST', '/api/pianificazioni/potatura_storico/esegui', { token: staff })).status).toBe(403);
  });

  it("prunes the history older than HISTORY_RETENTION_DAYS, and the chain still verifies from its new base", async () => {
    const created = await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'RETAIL', sesso: 'M', nome: 'Vecchio', cognome: 'Storico' } });
    expect(created.status).toBe(201);
    const before = (await t.call('GET', '/api/storico/verifica', { token: admin })).body;
    expect(before.ok).toBe(true);
    // Forty days on, with 30 days kept: everything written so far is older.
    const clock = { now: new Date(Date.now() + 40 * 86_400_000) };
    const jobs = new Map([...t.app.ctx.scheduler.jobs, ...engineJobs({ HISTORY_RETENTION_DAYS: 30 })]);
    const pruning = new Scheduler(t.connection.db, checkSchedules(t.app.ctx.definitions.schedules, jobs), jobs, { now: () => clock.now, instance: 'prova' });
    const run = await pruning.runNow('potatura_storico');
    expect(run.stato).toBe('riuscita');
    expect(run.esito).toBe(`${before.voci} voci rimosse (più vecchie di 30 giorni).`);
    expect((await t.call('GET', '/api/storico/verifica', { token: admin })).body).toEqual({ ok: true, voci: 0 });
    // Writes go on from the new base, and verify.
    expect((await t.call('PUT', `/api/cliente/${created.body.data.model.id}`, { token: admin, body: { nome: 'Nuovo', version: created.body.data.model.version } })).status).toBe(200);
    expect((await t.call('GET', '/api/storico/verifica', { token: admin })).body).toEqual({ ok: true, voci: 1 });
  });
});

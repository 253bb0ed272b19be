// Issuing on a fresh demo install, across restarts: the demo already holds policies issued through the sandbox insurer, and a
// restarted server (a new process: every module loaded afresh) must neither reuse their numbers nor forget them.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { ROOT, createTestApp, type TestApp } from './helpers.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';
import { oggiIso } from '../../src/shared/dates.ts';

let t: TestApp;
// The brokerage's day (Rome), as the screens send it.
const OGGI = oggiIso();

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.connection.db, () => undefined);
}, 180_000);
afterAll(() => t?.close());

/** A server started anew on the same database: a fresh module graph, as a new process would load it. */
async function riavvia() {
  vi.resetModules();
  const { buildApp } = await import('../../src/server/app.ts');
  const { loadAll } = await import('../../src/server/bootstrap.ts');
  const { connect } = await import('../../src/server/db/connection.ts');
  const { domains } = await import('../../src/server/domains/index.ts');
  const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
  const connection = connect(t.databaseUrl, 5);
  const app = await buildApp({ domains, db: connection.db, definitions });
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await app.inject({ method: method as 'POST', url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body !== undefined ? { payload: body as object } : {}) });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const users = JSON.parse(await readFile(path.join(ROOT, 'scripts/demo/users.json'), 'utf8')) as Array<{ email: string; password: string; roles: string[] }>;
  const staff = users.find((u) => u.roles.includes('staff'))!;
  const token = (await call('POST', '/api/login', undefined, { email: staff.email, password: staff.password })).body.token as string;
  return { call, token, close: async () => { await app.close(); await connection.close(); } };
}

const numeri = async () => (await sql<{ numero_polizza: string }>`SELECT numero_polizza FROM polizza_auto_storica ORDER BY id`.execute(t.connection.db)).rows.map((r) => r.numero_polizza);
const quotazione = async (cognome: string) => (await sql<{ id: number; stato_quotazione_id: number }>`
  SELECT id, stato_quotazione_id FROM quotazione WHERE cognome = ${cognome.toUpperCase()} AND email LIKE '%@stati.esempio.it'`.execute(t.connection.db)).rows[0]!;

it('issues a demo quotation after a restart, and again after another: numbers never reused, earlier policies still known to the insurer', async () => {
  const demo = await numeri();
  expect(demo).toHaveLength(4);

  // 'In attesa di emissione': Salva Emissione, Preview, Emetti, as the journey does.
  const primo = await riavvia();
  try {
    const { id, stato_quotazione_id } = await quotazione('Emissione');
    expect(stato_quotazione_id).toBe(7);
    const saved = await primo.call('PUT', `/api/update_quotazione_per_emissione/${id}`, primo.token, { data_incasso: OGGI });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const preview = await primo.call('POST', `/api/preview_quotazione_per_emissione/${id}?decorrenza=${OGGI}`, primo.token, {});
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const issued = await primo.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, primo.token, {});
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result).toBe(0);
    expect(demo).not.toContain(issued.body.verti_policy_number);
    expect((await quotazione('Emissione')).stato_quotazione_id).toBe(9);
    const open = await sql`SELECT 1 FROM chiamata_esterna WHERE stato IN ('in_corso', 'incerta')`.execute(t.connection.db);
    expect(open.rows).toEqual([]);
  } finally {
    await primo.close();
  }

  const secondo = await riavvia();
  try {
    // 'Richiesta emissione' may be issued too.
    const { id } = await quotazione('Richiesta');
    expect((await secondo.call('PUT', `/api/update_quotazione_per_emissione/${id}`, secondo.token, { data_incasso: OGGI })).status).toBe(200);
    const issued = await secondo.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, secondo.token, {});
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result).toBe(0);
    const tutti = await numeri();
    expect(tutti).toHaveLength(6);
    expect(new Set(tutti).size).toBe(6);
    // A policy issued before the restart is still the insurer's: its documents are regenerated.
    const rita = await quotazione('Seconda');
    const docs = await secondo.call('POST', `/api/quotazioni/${rita.id}/rigenera-documenti-compagnia`, secondo.token);
    expect(docs.status, JSON.stringify(docs.body)).toBe(200);
  } finally {
    await secondo.close();
  }
}, 180_000);

it('an install seeded before the sandbox kept its books: numbering starts past the policies held, which the insurer knows', async () => {
  await sql`DELETE FROM sandbox_registro`.execute(t.connection.db);
  await sql`DELETE FROM sandbox_contatore`.execute(t.connection.db);
  const prima = await numeri();
  const app = await riavvia();
  try {
    // A policy issued before the books were kept is known to the insurer: its documents are regenerated.
    const { id } = await quotazione('Firma');
    const rigenera = await app.call('POST', `/api/quotazioni/${id}/rigenera-documenti-compagnia`, app.token);
    expect(rigenera.status, JSON.stringify(rigenera.body)).toBe(200);
    // A new issue, on a demo quotation set to 'In attesa di emissione' (the status alone matters here).
    const { id: nuova } = await quotazione('Verifica');
    await sql`UPDATE quotazione SET stato_quotazione_id = 7 WHERE id = ${nuova}`.execute(t.connection.db);
    expect((await app.call('PUT', `/api/update_quotazione_per_emissione/${nuova}`, app.token, { data_incasso: OGGI })).status).toBe(200);
    const issued = await app.call('POST', `/api/quotazioni/emetti/${nuova}?decorrenza=${OGGI}`, app.token, {});
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(prima).not.toContain(issued.body.verti_policy_number);
    expect(new Set(await numeri()).size).toBe(prima.length + 1);
  } finally {
    await app.close();
  }
}, 180_000);

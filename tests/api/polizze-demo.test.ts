// The demo seed loads policies with their titles, some paid, and stays idempotent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './helpers.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

it('seeds demo policies and titles, once', async () => {
  await seedDemo(t.connection.db, () => undefined);
  const count = async () => (await sql<{ polizze: number; titoli: number; pagati: number; movimenti: number }>`
    SELECT (SELECT count(*)::int FROM polizza) AS polizze, (SELECT count(*)::int FROM titolo) AS titoli,
           (SELECT count(*)::int FROM titolo WHERE saldato) AS pagati, (SELECT count(*)::int FROM titolo_movimento) AS movimenti`.execute(t.connection.db)).rows[0]!;
  const first = await count();
  // Twelve policies on the desk, and the four historic-car policies the demo issued through the insurer's sandbox.
  expect(first.polizze).toBe(16);
  expect(first.titoli).toBeGreaterThan(12);
  expect(first.pagati).toBeGreaterThan(0);
  expect(first.movimenti).toBe(first.pagati);
  // Every policy's titles add up to its gross premium to the cent.
  const mismatched = await sql`SELECT p.id FROM polizza p JOIN titolo t ON t.polizza_id = p.id GROUP BY p.id, p.totale_premio_lordo
    HAVING sum(t.premio) <> p.totale_premio_lordo`.execute(t.connection.db);
  expect(mismatched.rows).toEqual([]);
  await seedDemo(t.connection.db, () => undefined);
  expect(await count()).toEqual(first);

  // The issued historic-car policies are in the same list with their product, read-only, scoped like the others.
  const users = JSON.parse(await readFile(path.join(process.cwd(), 'scripts/demo/users.json'), 'utf8')) as Array<{ email: string; password: string; roles: string[]; collaboratore?: string }>;
  const login = (role: string, nth = 0) => { const u = users.filter((x) => x.roles.includes(role))[nth]!; return t.login(u.email, u.password); };
  const staff = await login('staff');
  const emesse = (await sql<{ id: number; numero_polizza: string; quotazione_id: number; stornata: boolean }>`
    SELECT id, numero_polizza, quotazione_id, stornata FROM polizza_auto_storica ORDER BY id`.execute(t.connection.db)).rows;
  expect(emesse).toHaveLength(4);
  const list = await t.call('GET', '/api/polizza?per_page=-1', { token: staff });
  expect(list.status).toBe(200);
  const copie = list.body.data.filter((r: Record<string, unknown>) => r.polizza_auto_storica_id !== null);
  expect(copie.map((r: Record<string, unknown>) => r.polizza_auto_storica_id).sort()).toEqual(emesse.map((e) => e.id).sort());
  for (const e of emesse) {
    const row = copie.find((r: Record<string, unknown>) => r.polizza_auto_storica_id === e.id);
    expect(row).toMatchObject({ polizza_numero: e.numero_polizza, quotazione_id: e.quotazione_id, stato: e.stornata ? 'STORNATA' : 'SALDATA', saldato: !e.stornata });
    expect(row.prodotto_label).toMatch(/RC Auto Storiche/);
  }
  const copia = copie[0];
  expect((await t.call('GET', `/api/titolo?filter[polizza_id]=${copia.id}`, { token: staff })).body.data).toEqual([]);
  const edit = await t.call('PUT', `/api/polizza/${copia.id}`, { token: staff, body: { tacito_rinnovo: true, version: copia.version } });
  expect(edit.status).toBe(409);
  expect(edit.body.message).toMatch(/quotazione n\. \d+/);
  expect((await t.call('DELETE', `/api/polizza/${copia.id}`, { token: staff })).status).toBe(409);
  // Row scope: the demo's issued quotations are Mario Rossi's; his colleague sees none of them.
  const rossi = await login('collaboratore', 0);
  const verdi = await login('collaboratore', 1);
  const suoi = (await t.call('GET', '/api/polizza?per_page=-1', { token: rossi })).body.data.filter((r: Record<string, unknown>) => r.polizza_auto_storica_id !== null);
  expect(suoi).toHaveLength(4);
  const altrui = (await t.call('GET', '/api/polizza?per_page=-1', { token: verdi })).body.data.filter((r: Record<string, unknown>) => r.polizza_auto_storica_id !== null);
  expect(altrui).toEqual([]);
  expect((await t.call('GET', `/api/polizza/${copia.id}`, { token: verdi })).status).toBe(404);

  // The demo's issued quotations waiting for the signature have their contract to sign: 'Firma Digitale OTP' goes out.
  const inFirma = (await sql<{ id: number }>`SELECT id FROM quotazione WHERE stato_quotazione_id = 9 AND email LIKE '%@stati.esempio.it' ORDER BY id`.execute(t.connection.db)).rows;
  expect(inFirma.length).toBeGreaterThan(0);
  for (const { id } of inFirma) {
    const media = (await t.call('GET', `/api/quotazioni/${id}/media`, { token: staff })).body.data as Array<{ collection_name: string }>;
    expect(media.filter((m) => m.collection_name === 'contratto_itas'), `contract of quotation ${id}`).toHaveLength(1);
    expect(media.filter((m) => m.collection_name === 'carta_identita')).toHaveLength(1);
  }
  const otp = await t.call('POST', `/api/v1/policies/${inFirma[0]!.id}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
  expect(otp.status, JSON.stringify(otp.body)).toBe(200);
  expect(otp.body.data.last_signature_request.status).toBe('ongoing');
}, 180_000);

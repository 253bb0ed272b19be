// The demo seed loads policies with their titles, some paid, and stays idempotent.
import { afterAll, beforeAll, expect, it } from 'vitest';
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
  expect(first.polizze).toBe(12);
  expect(first.titoli).toBeGreaterThan(12);
  expect(first.pagati).toBeGreaterThan(0);
  expect(first.movimenti).toBe(first.pagati);
  // Every policy's titles add up to its gross premium to the cent.
  const mismatched = await sql`SELECT p.id FROM polizza p JOIN titolo t ON t.polizza_id = p.id GROUP BY p.id, p.totale_premio_lordo
    HAVING sum(t.premio) <> p.totale_premio_lordo`.execute(t.connection.db);
  expect(mismatched.rows).toEqual([]);
  await seedDemo(t.connection.db, () => undefined);
  expect(await count()).toEqual(first);
}, 180_000);

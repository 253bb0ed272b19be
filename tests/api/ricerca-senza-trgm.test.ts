// A PostgreSQL where the application may not install pg_trgm (a managed server, a login that does not own the
// database): the start says so in plain words and the lists' search still finds, case and accents aside.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ restricted: true });
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

it('without pg_trgm the start warns how to install it, builds no trigram index, and search still works', async () => {
  expect(t.migration.warnings.join('\n')).toMatch(/senza l'estensione pg_trgm.*CREATE EXTENSION pg_trgm/s);
  const installed = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`.execute(t.connection.db);
  expect(installed.rows[0]!.n).toBe(0);
  const trigram = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_indexes WHERE indexdef LIKE '%gin_trgm_ops%'`.execute(t.connection.db);
  expect(trigram.rows[0]!.n).toBe(0);

  await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) VALUES ('RETAIL', 'M', 'NICCOLÒ', 'FORNERÒ', true), ('RETAIL', 'F', 'ANNA', 'BIANCHI', true)`.execute(t.connection.db);
  for (const text of ['fornero', 'Fornerò', 'niccolo forner']) {
    const res = await t.call('GET', `/api/cliente?search=${encodeURIComponent(text)}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((r: { cognome: string }) => r.cognome), text).toEqual(['FORNERÒ']);
  }
});

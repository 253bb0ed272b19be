// Quotation list indexes (migrations 0003, 0004, 0006). filter[scade_il_mese_prossimo]: quotations whose yearly cover, starting on decorrenza, ends next month;
// answered from index quotazione_scadenza_mese (migration 0003) in id order. The surname filter on the upper-cased column, and the status counts kept per statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
// The first day of next month a year back, as the database sees today.
let first: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const db = t.connection.db;
  first = (await sql<{ d: string }>`SELECT to_char(date_trunc('month', now()) + interval '1 month' - interval '1 year', 'YYYY-MM-DD') AS d`.execute(db)).rows[0]!.d;
  // Around both edges of that month: the day before, its first and last day, the first day after; and a year later.
  await sql`INSERT INTO quotazione (tipo, bundle_key, stato_quotazione_id, persona, nome, cognome, decorrenza)
    SELECT 'auto_storica', 'auto_storica_itas', 1, 'f', 'MARIO', c, d FROM (VALUES
      ('PRIMA', ${first}::date - 1), ('INIZIO', ${first}::date), ('FINE', (${first}::date + interval '1 month' - interval '1 day')::date),
      ('DOPO', (${first}::date + interval '1 month')::date), ('ANNO DOPO', (${first}::date + interval '1 year')::date), ('SENZA', NULL),
      ('NICOLÒ', NULL), ('DE_LUCA', NULL), ('DEXLUCA', NULL)) v(c, d)`.execute(db);
});
afterAll(async () => {
  await t?.close();
});

describe('scade il mese prossimo', () => {
  it('answers the quotations whose decorrenza falls in next month a year back, edges included, newest first', async () => {
    const res = await t.call('GET', '/api/quotazioni?filter[scade_il_mese_prossimo]=1&per_page=15', { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((q: { cognome: string }) => q.cognome)).toEqual(['FINE', 'INIZIO']);
    expect(res.body).toMatchObject({ total: 2, total_is_estimate: false });
  });

  it('page 1 in id order and its count are read from the month index, without sorting the matches', async () => {
    const db = t.connection.db;
    const captured: string[] = [];
    await db.transaction().execute(async (trx) => {
      // A table this small is read whole; the planner is asked to show the plan it picks when that is dear.
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const condition = sql`date_trunc('month', decorrenza::timestamp) = (date_trunc('month', now()) + interval '1 month' - interval '1 year')::date::timestamp`;
      for (const statement of [
        sql`EXPLAIN SELECT id FROM quotazione WHERE ${condition} ORDER BY id DESC LIMIT 15`,
        sql`EXPLAIN SELECT count(*) FROM (SELECT 1 FROM quotazione WHERE ${condition} LIMIT 10001) b`,
      ]) {
        const plan = await statement.execute(trx);
        captured.push((plan.rows as Array<Record<string, string>>).map((r) => r['QUERY PLAN']).join('\n'));
      }
    });
    expect(captured[0]).toMatch(/Index (Only )?Scan Backward using quotazione_scadenza_mese/);
    expect(captured[0]).not.toMatch(/Sort/);
    expect(captured[1]).toMatch(/Index Only Scan using quotazione_scadenza_mese/);
  });

  it('a collaborator\'s surname filter counts its matches from the (collaboratore_id, cognome) index alone', async () => {
    const plan = await t.connection.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      return sql<Record<string, string>>`EXPLAIN SELECT count(*) FROM (SELECT 1 FROM quotazione
        WHERE collaboratore_id = ANY(${[1, 2, 3]}::int[]) AND cognome LIKE '%CO%' LIMIT 10001) b`.execute(trx);
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using quotazione_collaboratore_cognome/);
  });
});

describe('surname fragment', () => {
  const surnames = async (query: string) => {
    const res = await t.call('GET', `/api/quotazioni?${query}&per_page=50`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total).toBe(res.body.data.length);
    return (res.body.data as Array<{ cognome: string }>).map((q) => q.cognome).sort();
  };

  it('matches case aside, accented capitals too, on the column stored upper-cased', async () => {
    expect(await surnames('filter[cognome]=iNiZ')).toEqual(['INIZIO']);
    expect(await surnames(`filter[cognome]=${encodeURIComponent('colò')}`)).toEqual(['NICOLÒ']);
    expect(await surnames(`search=${encodeURIComponent('olò')}`)).toEqual(['NICOLÒ']);
    expect(await surnames('filter[cognome]=o')).toEqual(['ANNO DOPO', 'DOPO', 'INIZIO', 'NICOLÒ']);
  });

  it('takes % and _ as the characters they are', async () => {
    expect(await surnames('filter[cognome]=e_l')).toEqual(['DE_LUCA']);
    expect(await surnames(`filter[cognome]=${encodeURIComponent('%')}`)).toEqual([]);
  });
});

describe('status counts', () => {
  const counts = async () => Object.fromEntries(((await t.call('GET', '/api/stati_quotazione', { token: admin })).body.data as Array<{ id: number; count: number }>)
    .filter((r) => r.count).map((r) => [r.id, r.count]));
  const live = async () => Object.fromEntries((await sql<{ s: number; n: number }>`SELECT stato_quotazione_id AS s, count(*)::int AS n FROM quotazione
    GROUP BY 1`.execute(t.connection.db)).rows.map((r) => [r.s, r.n]));

  it('a statement of many rows writes each count it changes once, and the counts stay those of the table', async () => {
    const db = t.connection.db;
    // pg_stat_xact_user_tables: the rows this transaction wrote to workflow_count so far.
    const written = (trx: typeof db) => sql<{ n: number }>`SELECT (n_tup_ins + n_tup_upd + n_tup_del)::int AS n
      FROM pg_stat_xact_user_tables WHERE relname = 'workflow_count'`.execute(trx).then((r) => r.rows[0]?.n ?? 0);
    const writes = await db.transaction().execute(async (trx) => {
      const before = await written(trx);
      await sql`INSERT INTO quotazione (tipo, bundle_key, stato_quotazione_id, persona, cognome)
        SELECT 'auto_storica', 'auto_storica_itas', 4, 'f', 'MASSA ' || g FROM generate_series(1, 300) g`.execute(trx);
      const inserted = await written(trx);
      await sql`UPDATE quotazione SET stato_quotazione_id = CASE WHEN cognome < 'MASSA 2' THEN 5 ELSE 6 END WHERE cognome LIKE 'MASSA %'`.execute(trx);
      const updated = await written(trx);
      // Rows whose status and collaborator stay as they were change no count.
      await sql`UPDATE quotazione SET note = 'x' WHERE cognome LIKE 'MASSA %'`.execute(trx);
      const untouched = await written(trx);
      return [inserted - before, updated - inserted, untouched - updated];
    });
    // One count for status 4; then status 4 down, 5 and 6 up.
    expect(writes).toEqual([1, 3, 0]);
    expect(await counts()).toEqual(await live());
    await sql`DELETE FROM quotazione WHERE cognome LIKE 'MASSA %' AND stato_quotazione_id = 6`.execute(db);
    expect(await counts()).toEqual(await live());
    await sql`DELETE FROM quotazione WHERE cognome LIKE 'MASSA %'`.execute(db);
    expect(await counts()).toEqual(await live());
  });
});

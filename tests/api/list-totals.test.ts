// List totals: exact up to EXACT_TOTAL_LIMIT rows (here 10), beyond it a lower bound marked total_is_estimate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ config: { EXACT_TOTAL_LIMIT: 10 } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo)
    SELECT 'RETAIL', 'M', 'MARIO', CASE WHEN g <= 25 THEN 'ROSSI ' ELSE 'VERDI ' END || g, g <= 5 FROM generate_series(1, 40) g`.execute(t.connection.db);
  await sql`ANALYZE cliente`.execute(t.connection.db);
});
afterAll(async () => {
  await t?.close();
});

/** A request's answer and every statement any database client sent while it ran. */
async function statementsOf(path: string) {
  const sent: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'string') sent.push(args[0]);
    return original.apply(this, args);
  };
  try {
    return { sent, res: await t.call('GET', path, { token: admin }) };
  } finally {
    proto.query = original;
  }
}

describe('list totals', () => {
  it('a table above the limit answers an estimate, marked, never above the rows there are nor below the limit', async () => {
    const res = await t.call('GET', '/api/cliente?per_page=15', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.total_is_estimate).toBe(true);
    expect(res.body.total).toBeGreaterThanOrEqual(10);
    expect(res.body.total).toBeLessThanOrEqual(40);
    expect(res.body.data).toHaveLength(15);
    expect(res.body.last_page).toBe(Math.max(1, Math.ceil(res.body.total / 15)));
  });

  it('a filter matching fewer rows than the limit is counted exactly', async () => {
    const res = await t.call('GET', '/api/cliente?filter[attivo]=1&per_page=2', { token: admin });
    expect(res.body).toMatchObject({ total: 5, total_is_estimate: false, last_page: 3 });
  });

  it('a search matching more rows than the limit answers a lower bound from the planner', async () => {
    const res = await t.call('GET', '/api/cliente?search=rossi&per_page=15', { token: admin });
    expect(res.body.total_is_estimate).toBe(true);
    expect(res.body.total).toBeGreaterThanOrEqual(15);
    expect(res.body.total).toBeLessThanOrEqual(25);
  });

  it('a page deep in an estimated list makes the bound grow with what it saw', async () => {
    const res = await t.call('GET', '/api/cliente?per_page=15&page=3', { token: admin });
    expect(res.body.data).toHaveLength(10);
    expect(res.body.total).toBeGreaterThanOrEqual(40);
  });

  it('page 1 of a large table asked again reads the instance\'s estimate: the page statement alone, no count', async () => {
    await t.call('GET', '/api/cliente?per_page=15', { token: admin });
    const { sent, res } = await statementsOf('/api/cliente?per_page=15');
    expect(res.body).toMatchObject({ total_is_estimate: true });
    expect(res.body.total).toBeGreaterThanOrEqual(10);
    const onTable = sent.filter((text) => /"cliente"|pg_class/.test(text));
    expect(onTable).toHaveLength(1);
    expect(onTable[0]).toMatch(/ORDER BY/);
  });

  it('the page statement, compiled once per order, answers each order, page and new row from the table as it is now', async () => {
    const surnames = async (path: string) => ((await t.call('GET', path, { token: admin })).body.data as Array<{ cognome: string }>).map((r) => r.cognome);
    const all = (await sql<{ cognome: string }>`SELECT cognome FROM cliente ORDER BY cognome, id`.execute(t.connection.db)).rows.map((r) => r.cognome);
    for (let round = 0; round < 2; round++) {
      expect(await surnames('/api/cliente?per_page=7&sort=cognome')).toEqual(all.slice(0, 7));
      expect(await surnames('/api/cliente?per_page=7&page=2&sort=cognome')).toEqual(all.slice(7, 14));
      expect(await surnames('/api/cliente?per_page=7&sort=-cognome')).toEqual([...all].reverse().slice(0, 7));
    }
    const added = await sql<{ id: number }>`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) VALUES ('RETAIL', 'F', 'ANNA', 'AAA NUOVA', true) RETURNING id`.execute(t.connection.db);
    try {
      expect((await surnames('/api/cliente?per_page=7&sort=cognome'))[0]).toBe('AAA NUOVA');
      const first = await t.call('GET', '/api/cliente?per_page=3&sort=-id', { token: admin });
      expect(first.body.data[0].id).toBe(added.rows[0]!.id);
    } finally {
      await sql`DELETE FROM cliente WHERE id = ${added.rows[0]!.id}`.execute(t.connection.db);
    }
  });
});

describe('a common search is not counted', () => {
  it('a search the planner expects to match many times the limit sends no count; a page that is not full gives the exact total', async () => {
    await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo)
      SELECT 'RETAIL', 'F', 'ANNA', 'BIANCHI ' || g, true FROM generate_series(1, 300) g`.execute(t.connection.db);
    await sql`ANALYZE cliente`.execute(t.connection.db);
    const { sent, res: first } = await statementsOf('/api/cliente?search=bianchi&per_page=15');
    expect(first.body.data).toHaveLength(15);
    expect(first.body.total_is_estimate).toBe(true);
    expect(first.body.total).toBeGreaterThanOrEqual(50);
    expect(sent.filter((text) => /count\(\*\)/.test(text))).toEqual([]);
    // 300 matches, 7 a page: page 43 holds the last 6, so the total is known.
    const last = await t.call('GET', '/api/cliente?search=bianchi&per_page=7&page=43', { token: admin });
    expect(last.body).toMatchObject({ total: 300, total_is_estimate: false, last_page: 43 });
    expect(last.body.data).toHaveLength(6);
  });
});

// A query read through a server-side cursor, a batch at a time, in one read-only transaction: for answers of any size.
import { sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { poolOf, type Database } from './connection.ts';

type Row = Record<string, unknown>;

/** One FETCH, its rows taken one by one as they arrive into a plain array. */
function fetchRows(client: pg.PoolClient, text: string): Promise<Row[]> {
  return new Promise((resolve, reject) => {
    const rows: Row[] = [];
    const query = new pg.Query<Row>(text);
    query.on('row', (row) => rows.push(row));
    query.on('error', reject);
    query.on('end', () => resolve(rows));
    client.query(query);
  });
}

/**
 * Hands `select`'s rows to `each`, `size` at a time, until `each` answers false or the rows end; every batch sees the
 * same snapshot. The rows come off the wire through pg's row events on a client of the pool, not as a query result:
 * pg's accumulated result kept each batch alive long enough to be promoted to V8's old generation (300 MB promoted
 * for 200 000 policies, the heap growing to four times its live size between full collections; 25 MB this way).
 */
export async function readCursor(db: Database, select: RawBuilder<unknown>, size: number, each: (rows: Row[]) => Promise<boolean>): Promise<void> {
  const pool = poolOf(db);
  if (!pool) throw new Error('readCursor: the database was not opened by connect()');
  const declare = sql`DECLARE lettura NO SCROLL CURSOR FOR ${select}`.compile(db);
  const fetch = `FETCH ${Math.max(1, Math.floor(size))} FROM lettura`;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(declare.sql, declare.parameters as unknown[]);
    for (;;) {
      const rows = await fetchRows(client, fetch);
      if (!(await each(rows)) || rows.length < size) break;
    }
    await client.query('COMMIT');
  } catch (error) {
    // A connection that cannot even roll back is not given back to the pool.
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}

// The pg pool and the Kysely instance every server module shares.
import { Kysely } from 'kysely';
import pg from 'pg';
import { StoricoDialect } from '../storico/contesto.ts';

// Dates stay 'YYYY-MM-DD' strings (no time-zone shifts); numeric money and counts become JS numbers.
pg.types.setTypeParser(1082, (v) => v);
pg.types.setTypeParser(1700, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(20, (v) => (v === null ? null : Number(v)));

// Rows of definition-driven tables are plain records; their shape is checked by the JSON Schema, not by TS.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = Kysely<any>;

export interface Connection {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

const pools = new WeakMap<Database, pg.Pool>();

/** The pool behind a Kysely instance made by connect(): its settings open the app's own LISTEN connection. */
export function poolOf(db: Database): pg.Pool | undefined {
  return pools.get(db);
}

/** `max`: DB_POOL_SIZE at start. */
export function connect(url: string, max = 20): Connection {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection closed by the server (restart, failover) must not crash the process: the pool replaces it.
  pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
  // The dialect hands each request's actor to the history trigger (src/server/storico).
  const db = new Kysely({ dialect: new StoricoDialect(pool) });
  pools.set(db, pool);
  return { db, pool, close: () => db.destroy() };
}

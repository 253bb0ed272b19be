// Additive database objects a domain needs beyond what schemas derive (functions, expression indexes), run after migrate.
import { sql } from 'kysely';
import type { Database } from './connection.ts';

type Statement = string | { requires: 'pg_trgm'; sql: string };

const migrations = new Map<string, Statement[]>();

export function registerDomainMigration(name: string, statements: Statement[]): void {
  migrations.set(name, statements);
}

/** Idempotent statements only (CREATE ... IF NOT EXISTS / OR REPLACE); those needing pg_trgm are skipped without it. */
export async function runDomainMigrations(db: Database, trigram: boolean): Promise<void> {
  for (const statements of migrations.values()) {
    for (const statement of statements) {
      if (typeof statement === 'string') await sql.raw(statement).execute(db);
      else if (trigram) await sql.raw(statement.sql).execute(db);
    }
  }
}

// Additive database objects beyond what schemas derive (functions, expression indexes, side tables), run after migrate:
// the engine's own (media, signatures, rate limits, compiled form validators) and those the domains register (app.extensions.migration).
import { sql } from 'kysely';
import type { Database } from './connection.ts';
import type { MigrationStatement } from '../extensions.ts';
import { MEDIA_TABLES } from '../media/store.ts';
import { FIRMA_TABLES } from '../firma/service.ts';
import { RATE_LIMIT_TABLES } from '../plugins/rateLimit.ts';
import { LIST_GENERATION_TABLES } from './list-generation.ts';
import { VALIDATOR_TABLES } from '../plugins/validators.ts';

const ENGINE_MIGRATIONS: MigrationStatement[][] = [MEDIA_TABLES, FIRMA_TABLES, RATE_LIMIT_TABLES, VALIDATOR_TABLES, LIST_GENERATION_TABLES];

/** Idempotent statements only (CREATE ... IF NOT EXISTS / OR REPLACE); those needing pg_trgm are skipped without it. */
export async function runDomainMigrations(db: Database, trigram: boolean, domains: MigrationStatement[][]): Promise<void> {
  for (const statements of [...ENGINE_MIGRATIONS, ...domains]) {
    for (const statement of statements) {
      if (typeof statement === 'string') await sql.raw(statement).execute(db);
      else if (trigram) await sql.raw(statement.sql).execute(db);
    }
  }
}

// The outbox worker polls "WHERE stato = 'in_attesa' AND prossimo_tentativo <= now()" every few seconds: a partial
// index keeps that poll off the ever-growing history of sent e-mails. Definitions only declare plain column indexes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS email_outbox_da_inviare ON email_outbox (prossimo_tentativo, id) WHERE stato = 'in_attesa'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS email_outbox_da_inviare`.execute(db);
}

// 'Scade il mese prossimo' (filter[scade_il_mese_prossimo]) asks for the quotations whose decorrenza falls in one month.
// As a range on decorrenza the planner walked the id index backwards through a year of rows to fill page 1 (the
// matches sit a year back); an equality on the month, leading an index that goes on with id, hands page 1 over in
// order, and decorrenza and collaboratore_id carried in the index answer the counts (also within a row scope) from it alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Definitions without the quotation (test fixtures) have nothing to index.
  await sql`DO $$ BEGIN
    IF (SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'quotazione'
          AND column_name IN ('decorrenza', 'collaboratore_id')) = 2 THEN
      CREATE INDEX IF NOT EXISTS quotazione_scadenza_mese ON quotazione ((date_trunc('month', decorrenza::timestamp)), id)
        INCLUDE (decorrenza, collaboratore_id);
    END IF;
  END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS quotazione_scadenza_mese`.execute(db);
}

// Each resource table's change generation, kept by triggers in the writing transaction. It grows with every insert,
// delete and update of a column a list sorts or filters on: a list's page anchors (resources/anchors.ts) built at one
// generation are exact for as long as it has not moved. Its rows are spread over shards by backend, so a long import
// does not hold the one row every other insert of the table needs.
import { sql, type Transaction } from 'kysely';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';
import type { Database } from './connection.ts';
import { listColumns } from './list-indexes.ts';
import { IN_MIGRATION, quoteIdent } from '../storico/schema.ts';

export const LIST_GENERATION_TABLES = [
  `CREATE TABLE IF NOT EXISTS lista_generazione (
     tabella text NOT NULL, shard smallint NOT NULL, cambi bigint NOT NULL DEFAULT 0, PRIMARY KEY (tabella, shard))`,
];

const SHARDS = 8;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any>;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

function upsert(table: string, changes: string): string {
  return `INSERT INTO lista_generazione (tabella, shard, cambi) VALUES (${literal(table)}, pg_backend_pid() % ${SHARDS}, ${changes})
        ON CONFLICT (tabella, shard) DO UPDATE SET cambi = lista_generazione.cambi + EXCLUDED.cambi;`;
}

/**
 * The functions' bodies for a table whose lists read `columns`. An update compares those columns by name, so it is
 * skipped inside a migration (whose own statements may just have dropped one): the migration moves every generation
 * once at its end instead (bumpAllGenerations).
 */
export function listGenerationSql(table: string, columns: string[]): { rows: string; update: string } {
  const changed = columns.map((c) => `NEW.${quoteIdent(c)} IS DISTINCT FROM OLD.${quoteIdent(c)}`).join(' OR ') || 'false';
  return {
    rows: `
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${upsert(table, '(SELECT count(*) FROM new_rows)')}
      ELSIF TG_OP = 'DELETE' THEN
        ${upsert(table, '(SELECT count(*) FROM old_rows)')}
      ELSE
        ${upsert(table, '1')}
      END IF;
      RETURN NULL;
    END`,
    update: `
    BEGIN
      IF ${IN_MIGRATION} THEN RETURN NULL; END IF;
      IF ${changed} THEN
        ${upsert(table, '1')}
      END IF;
      RETURN NULL;
    END`,
  };
}

/** Creates or rewrites a table's generation triggers. Returns the triggers it created. */
export async function ensureListGeneration(trx: Trx, def: ResourceDefinition): Promise<string[]> {
  const table = def.name;
  const present = new Set(listColumns(def));
  const existing = new Set((await sql<{ name: string }>`
    SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass(${quoteIdent(table)}) AND attnum > 0 AND NOT attisdropped`.execute(trx)).rows.map((r) => r.name));
  const body = listGenerationSql(table, [...present].filter((c) => existing.has(c)).sort());
  const names = { rows: `lista_righe_${table}`.slice(0, 63), update: `lista_modifiche_${table}`.slice(0, 63) };
  const statements: string[] = [];
  const run = async (statement: string) => {
    await sql.raw(statement).execute(trx);
    if (statement.startsWith('CREATE TRIGGER')) statements.push(statement);
  };
  for (const [kind, name] of Object.entries(names) as Array<['rows' | 'update', string]>) {
    const current = (await sql<{ src: string }>`SELECT prosrc AS src FROM pg_proc WHERE proname = ${name} AND pronamespace = current_schema()::regnamespace`.execute(trx)).rows[0];
    if (current?.src !== body[kind]) await run(`CREATE OR REPLACE FUNCTION ${quoteIdent(name)}() RETURNS trigger LANGUAGE plpgsql AS $lista$${body[kind]}$lista$`);
  }
  const triggers = new Set((await sql<{ name: string }>`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = to_regclass(${quoteIdent(table)}) AND tgname LIKE 'lista\\_%'`.execute(trx)).rows.map((r) => r.name));
  const wanted: Array<[string, string]> = [
    ['lista_inserimenti', `AFTER INSERT ON ${quoteIdent(table)} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${quoteIdent(names.rows)}()`],
    ['lista_cancellazioni', `AFTER DELETE ON ${quoteIdent(table)} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${quoteIdent(names.rows)}()`],
    ['lista_svuotamento', `AFTER TRUNCATE ON ${quoteIdent(table)} FOR EACH STATEMENT EXECUTE FUNCTION ${quoteIdent(names.rows)}()`],
    ['lista_modifiche', `AFTER UPDATE ON ${quoteIdent(table)} FOR EACH ROW EXECUTE FUNCTION ${quoteIdent(names.update)}()`],
  ];
  for (const [name, definition] of wanted) if (!triggers.has(name)) await run(`CREATE TRIGGER ${name} ${definition}`);
  await run(`INSERT INTO lista_generazione (tabella, shard, cambi) VALUES (${literal(table)}, 0, 0) ON CONFLICT DO NOTHING`);
  return statements;
}

/** A migration may have changed any list's rows or order without the update triggers seeing it: every anchor goes. */
export async function bumpAllGenerations(trx: Trx): Promise<void> {
  await sql`UPDATE lista_generazione SET cambi = cambi + 1 WHERE shard = 0`.execute(trx);
}

/** The table's generation, in the caller's snapshot; undefined when the table has none. */
export async function listGeneration(db: Database, table: string): Promise<number | undefined> {
  const row = (await sql<{ cambi: string | null }>`SELECT sum(cambi) AS cambi FROM lista_generazione WHERE tabella = ${table}`.execute(db)).rows[0]!;
  return row.cambi === null ? undefined : Number(row.cambi);
}

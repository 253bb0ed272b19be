// The change history in PostgreSQL: one table for every resource, filled by a trigger on each resource's table in the
// writing transaction (so raw SQL of a domain is recorded too), sealed into one SHA-256 chain at commit, never rewritten.
import { sql, type Transaction } from 'kysely';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';

type Trx = Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- engine tables are untyped

/** Fields whose change says nothing to a person (the engine bumps them on every write). */
export const IGNORED_FIELDS = ['version', 'created_at', 'updated_at'];

export const STORICO_TABLES = [
  // `seq`, `hash_prec` and `hash` are set once, by storico_sigilla_pendenti, in the order the sealer finds the entries.
  `CREATE TABLE IF NOT EXISTS storico (
     id bigserial PRIMARY KEY,
     at timestamptz NOT NULL DEFAULT clock_timestamp(),
     risorsa text NOT NULL,
     record_id bigint,
     utente_id integer,
     utente_nome text,
     origine text NOT NULL,
     indirizzo text,
     richiesta text,
     azione text NOT NULL,
     evento text,
     modifiche jsonb NOT NULL DEFAULT '{}'::jsonb,
     seq bigint,
     hash_prec bytea,
     hash bytea)`,
  // seq is unique by construction (the head row's lock) and checked by the verification's walk: no index to keep.
  `DROP INDEX IF EXISTS storico_seq`,
  // A record's timeline, the desk filtered by user or by resource: each an index read of the newest rows.
  `CREATE INDEX IF NOT EXISTS storico_record ON storico (risorsa, record_id, id DESC)`,
  `CREATE INDEX IF NOT EXISTS storico_utente ON storico (utente_id, id DESC)`,
  `CREATE INDEX IF NOT EXISTS storico_risorsa_id ON storico (risorsa, id DESC)`,
  `CREATE INDEX IF NOT EXISTS storico_at ON storico USING brin (at)`,
  // The chain's head (last sealed entry) and base (the last entry pruned by retention, where verification starts).
  `CREATE TABLE IF NOT EXISTS storico_catena (
     k boolean PRIMARY KEY DEFAULT true CHECK (k),
     seq bigint NOT NULL DEFAULT 0, hash bytea,
     base_seq bigint NOT NULL DEFAULT 0, base_hash bytea)`,
  `INSERT INTO storico_catena (k) VALUES (true) ON CONFLICT DO NOTHING`,
  // What the hash covers: every column but the hash itself, each quoted so that no two contents read alike.
  `CREATE OR REPLACE FUNCTION storico_impronta(s storico, prec bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
     SELECT sha256(convert_to(concat_ws(',', quote_nullable(s.id), quote_nullable(s.seq),
       quote_nullable(to_char(s.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')), quote_nullable(s.risorsa), quote_nullable(s.record_id),
       quote_nullable(s.utente_id), quote_nullable(s.utente_nome), quote_nullable(s.origine), quote_nullable(s.indirizzo),
       quote_nullable(s.richiesta), quote_nullable(s.azione), quote_nullable(s.evento), quote_nullable(s.modifiche::text),
       quote_nullable(encode(prec, 'hex'))), 'UTF8'))
   $f$`,
  // Sealing, after the writes and off their path: the head row's lock orders every instance's sealer into one chain,
  // the unsealed entries are sealed in id order. A writer never waits for another's commit (a seal at commit held the
  // head across the commit's flush, so concurrent writers queued there). Run by the scheduler (sigillo_storico) and
  // before each verification.
  `DROP TRIGGER IF EXISTS storico_sigillo ON storico`,
  `DROP FUNCTION IF EXISTS storico_sigilla()`,
  `CREATE INDEX IF NOT EXISTS storico_da_sigillare ON storico (id) WHERE seq IS NULL`,
  `CREATE OR REPLACE FUNCTION storico_sigilla_pendenti() RETURNS integer LANGUAGE plpgsql AS $f$
   DECLARE r storico; c record; n integer := 0;
   BEGIN
     SELECT seq, hash INTO c FROM storico_catena WHERE k FOR UPDATE;
     FOR r IN SELECT * FROM storico WHERE seq IS NULL ORDER BY id LOOP
       r.seq := c.seq + 1;
       r.hash_prec := c.hash;
       r.hash := storico_impronta(r, c.hash);
       UPDATE storico SET seq = r.seq, hash_prec = r.hash_prec, hash = r.hash WHERE id = r.id;
       c.seq := r.seq;
       c.hash := r.hash;
       n := n + 1;
     END LOOP;
     IF n > 0 THEN UPDATE storico_catena SET seq = c.seq, hash = c.hash WHERE k; END IF;
     RETURN n;
   END $f$`,
  // Nobody rewrites history: only the seal may be added, once; retention prunes from the oldest end only.
  `CREATE OR REPLACE FUNCTION storico_immutabile() RETURNS trigger LANGUAGE plpgsql AS $f$
   BEGIN
     IF TG_OP = 'UPDATE' AND OLD.hash IS NULL AND NEW.hash IS NOT NULL
        AND (NEW.id, NEW.at, NEW.risorsa, NEW.record_id, NEW.utente_id, NEW.utente_nome, NEW.origine, NEW.indirizzo, NEW.richiesta,
             NEW.azione, NEW.evento, NEW.modifiche)
            IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.risorsa, OLD.record_id, OLD.utente_id, OLD.utente_nome, OLD.origine, OLD.indirizzo,
             OLD.richiesta, OLD.azione, OLD.evento, OLD.modifiche) THEN
       RETURN NEW;
     END IF;
     IF TG_OP = 'DELETE' AND current_setting('storico.potatura', true) = 'on'
        AND OLD.seq <= (SELECT base_seq FROM storico_catena WHERE k) THEN
       RETURN OLD;
     END IF;
     RAISE EXCEPTION 'Lo storico non si può modificare né cancellare.' USING ERRCODE = 'insufficient_privilege';
   END $f$`,
  `DO $d$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'storico_immutabile') THEN
       CREATE TRIGGER storico_immutabile BEFORE UPDATE OR DELETE ON storico FOR EACH ROW EXECUTE FUNCTION storico_immutabile();
       CREATE TRIGGER storico_no_truncate BEFORE TRUNCATE ON storico FOR EACH STATEMENT EXECUTE FUNCTION storico_immutabile();
     END IF;
   END $d$`,
  // One entry per written row: who and from where come from the transaction's settings (storico.contesto, set by the
  // server for each transaction of a request), the action and event from storico.azione / storico.evento when a
  // write is more than a plain change. A plain update that changes nothing is no entry, unless it is a workflow event.
  `CREATE OR REPLACE FUNCTION storico_scrivi(risorsa text, record_id bigint, op text, diff jsonb) RETURNS void LANGUAGE plpgsql AS $f$
   DECLARE
     ctx jsonb := nullif(current_setting('storico.contesto', true), '')::jsonb;
     evento text := coalesce(nullif(current_setting('storico.evento', true), ''), ctx ->> 'evento');
     azione text;
   BEGIN
     IF op = 'UPDATE' AND diff = '{}'::jsonb AND evento IS NULL THEN RETURN; END IF;
     azione := coalesce(nullif(current_setting('storico.azione', true), ''), ctx ->> 'azione',
       CASE WHEN evento IS NOT NULL AND op = 'UPDATE' THEN 'transizione'
            WHEN op = 'INSERT' THEN 'creazione' WHEN op = 'UPDATE' THEN 'modifica' ELSE 'eliminazione' END);
     INSERT INTO storico (risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche)
     VALUES (risorsa, record_id, (ctx ->> 'utente_id')::integer, ctx ->> 'utente_nome',
       coalesce(ctx ->> 'origine', 'sistema'), ctx ->> 'indirizzo', ctx ->> 'richiesta', azione, evento, diff);
   END $f$`,
  // The differences of two whole rows (a creation, a deletion, any write while the definitions change): every
  // column's [before, after], secrets as changed without values.
  `CREATE OR REPLACE FUNCTION storico_differenze(vecchio jsonb, nuovo jsonb, segreti text[], ignorati text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $f$
     SELECT coalesce(jsonb_object_agg(k, CASE WHEN k = ANY(segreti) THEN '{"segreto": true}'::jsonb
              ELSE jsonb_build_array(coalesce(vecchio -> k, 'null'::jsonb), coalesce(nuovo -> k, 'null'::jsonb)) END), '{}'::jsonb)
       FROM jsonb_object_keys(coalesce(nuovo, vecchio)) AS k
      WHERE NOT (k = ANY(ignorati))
        AND (vecchio -> k) IS DISTINCT FROM (nuovo -> k)
        AND coalesce(vecchio -> k, 'null'::jsonb) <> coalesce(nuovo -> k, 'null'::jsonb)
   $f$`,
];

/** Each resource's trigger function, named after its table. */
export function historyFunctionName(table: string): string {
  return `storico_registra_${table}`.slice(0, 63);
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** True inside a migration's transaction (MIGRATION_MARK): a trigger written for the old columns must not name them. */
export const IN_MIGRATION = `current_setting('storico.migrazione', true) = 'on'`;
const quoteLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * The trigger function of one table, written for its columns: an update compares column by column and converts only
 * what changed (converting both whole rows to jsonb and diffing them by key cost most of the history's write time).
 * Creations and deletions take the whole row. While a migration runs (storico.migrazione) the function may name a
 * column that is being renamed or dropped, so the migration's own writes take the whole-row path too.
 */
export function historyFunctionSql(table: string, columns: Array<{ name: string; type: string }>, secrets: string[]): string {
  const whole = (op: string) => `storico_differenze(${op === 'INSERT' ? 'NULL' : 'to_jsonb(OLD)'}, ${op === 'DELETE' ? 'NULL' : 'to_jsonb(NEW)'}, ${quoteLiteral(arrayLiteral(secrets))}, ${quoteLiteral(arrayLiteral(IGNORED_FIELDS))})`;
  const compared = columns.filter((c) => !IGNORED_FIELDS.includes(c.name)).map(({ name, type }) => {
    // json has no equality operator: compared as jsonb, as the whole-row path compares it.
    const [o, n] = ['OLD', 'NEW'].map((row) => `${row}.${quoteIdent(name)}${type === 'json' ? '::jsonb' : ''}`);
    const value = secrets.includes(name) ? `'{"segreto": true}'::jsonb` : `jsonb_build_array(to_jsonb(OLD.${quoteIdent(name)}), to_jsonb(NEW.${quoteIdent(name)}))`;
    return `  IF ${n} IS DISTINCT FROM ${o} THEN diff := diff || jsonb_build_object(${quoteLiteral(name)}, ${value}); END IF;`;
  });
  const risorsa = quoteLiteral(table);
  return `
DECLARE diff jsonb := '{}'::jsonb;
BEGIN
  IF current_setting('storico.massivo', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN PERFORM storico_scrivi(${risorsa}, NEW.id, TG_OP, ${whole('INSERT')}); RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN PERFORM storico_scrivi(${risorsa}, OLD.id, TG_OP, ${whole('DELETE')}); RETURN NULL; END IF;
  IF ${IN_MIGRATION} THEN PERFORM storico_scrivi(${risorsa}, NEW.id, TG_OP, ${whole('UPDATE')}); RETURN NULL; END IF;
${compared.join('\n')}
  PERFORM storico_scrivi(${risorsa}, NEW.id, TG_OP, diff);
  RETURN NULL;
END
`;
}

function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** Marks a migration's transaction: its writes take the whole-row path (see historyFunctionSql). */
export const MIGRATION_MARK = `SELECT set_config('storico.migrazione', 'on', true)`;

/**
 * The trigger that records a resource's writes, its function written for the table's columns as they are now (run
 * after every change of the table); `storico: false` in resource.json removes both. Answers the statement worth
 * showing in a plan: the trigger created or dropped (a function rewritten for new columns changes no data).
 */
export async function ensureHistoryTrigger(trx: Trx, def: ResourceDefinition): Promise<string | undefined> {
  const table = def.name;
  const fn = historyFunctionName(table);
  const existing = (await sql<{ fn: string | null }>`
    SELECT p.proname AS fn FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE t.tgname = 'storico_registra' AND t.tgrelid = to_regclass(${quoteIdent(table)})`.execute(trx)).rows[0];
  if (def.resource.storico === false) {
    if (!existing) return undefined;
    const statement = `DROP TRIGGER storico_registra ON ${quoteIdent(table)}`;
    await sql.raw(statement).execute(trx);
    await sql.raw(`DROP FUNCTION IF EXISTS ${quoteIdent(fn)}()`).execute(trx);
    return statement;
  }
  const columns = (await sql<{ name: string; type: string }>`
    SELECT attname AS name, format_type(atttypid, NULL) AS type FROM pg_attribute
    WHERE attrelid = to_regclass(${quoteIdent(table)}) AND attnum > 0 AND NOT attisdropped ORDER BY attnum`.execute(trx)).rows;
  const secrets = def.fields.filter((f) => def.schema.properties?.[f.name]?.['x-secret'] !== undefined).map((f) => f.name);
  const body = historyFunctionSql(table, columns, secrets);
  const current = (await sql<{ src: string }>`SELECT prosrc AS src FROM pg_proc WHERE proname = ${fn} AND pronamespace = current_schema()::regnamespace`.execute(trx)).rows[0];
  if (current?.src !== body) await sql.raw(`CREATE OR REPLACE FUNCTION ${quoteIdent(fn)}() RETURNS trigger LANGUAGE plpgsql AS $storico$${body}$storico$`).execute(trx);
  if (existing?.fn === fn) return undefined;
  if (existing) await sql.raw(`DROP TRIGGER storico_registra ON ${quoteIdent(table)}`).execute(trx);
  const statement = `CREATE TRIGGER storico_registra AFTER INSERT OR UPDATE OR DELETE ON ${quoteIdent(table)} FOR EACH ROW EXECUTE FUNCTION ${quoteIdent(fn)}()`;
  await sql.raw(statement).execute(trx);
  return statement;
}

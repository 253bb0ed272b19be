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
  // write is more than a plain change. TG_ARGV: resource name, secret fields, ignored fields.
  `CREATE OR REPLACE FUNCTION storico_registra() RETURNS trigger LANGUAGE plpgsql AS $f$
   DECLARE
     ctx jsonb := nullif(current_setting('storico.contesto', true), '')::jsonb;
     vecchio jsonb; nuovo jsonb; diff jsonb; azione text; evento text;
     segreti text[] := TG_ARGV[1]::text[];
     ignorati text[] := TG_ARGV[2]::text[];
   BEGIN
     -- A bulk operation (an import of thousands of rows) leaves one summary entry of its own instead.
     IF current_setting('storico.massivo', true) = 'on' THEN RETURN NULL; END IF;
     IF TG_OP <> 'INSERT' THEN vecchio := to_jsonb(OLD); END IF;
     IF TG_OP <> 'DELETE' THEN nuovo := to_jsonb(NEW); END IF;
     SELECT coalesce(jsonb_object_agg(k, CASE WHEN k = ANY(segreti) THEN '{"segreto": true}'::jsonb
              ELSE jsonb_build_array(coalesce(vecchio -> k, 'null'::jsonb), coalesce(nuovo -> k, 'null'::jsonb)) END), '{}'::jsonb)
       INTO diff
       FROM jsonb_object_keys(coalesce(nuovo, vecchio)) AS k
      WHERE NOT (k = ANY(ignorati))
        AND (vecchio -> k) IS DISTINCT FROM (nuovo -> k)
        AND coalesce(vecchio -> k, 'null'::jsonb) <> coalesce(nuovo -> k, 'null'::jsonb);
     evento := coalesce(nullif(current_setting('storico.evento', true), ''), ctx ->> 'evento');
     -- A write that changes nothing is no entry, unless it is a workflow event (which is the change).
     IF TG_OP = 'UPDATE' AND diff = '{}'::jsonb AND evento IS NULL THEN RETURN NULL; END IF;
     azione := coalesce(nullif(current_setting('storico.azione', true), ''), ctx ->> 'azione',
       CASE WHEN evento IS NOT NULL AND TG_OP = 'UPDATE' THEN 'transizione'
            WHEN TG_OP = 'INSERT' THEN 'creazione' WHEN TG_OP = 'UPDATE' THEN 'modifica' ELSE 'eliminazione' END);
     INSERT INTO storico (risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche)
     VALUES (TG_ARGV[0], (coalesce(nuovo, vecchio) ->> 'id')::bigint, (ctx ->> 'utente_id')::integer, ctx ->> 'utente_nome',
       coalesce(ctx ->> 'origine', 'sistema'), ctx ->> 'indirizzo', ctx ->> 'richiesta', azione, evento, diff);
     RETURN NULL;
   END $f$`,
];

function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** The trigger that records a resource's writes; `storico: false` in resource.json removes it. */
export async function ensureHistoryTrigger(trx: Trx, def: ResourceDefinition): Promise<string | undefined> {
  const table = def.name;
  const name = 'storico_registra';
  const secrets = def.fields.filter((f) => def.schema.properties?.[f.name]?.['x-secret'] !== undefined).map((f) => f.name);
  const args = [table, arrayLiteral(secrets), arrayLiteral(IGNORED_FIELDS)];
  const wanted = def.resource.storico !== false;
  const existing = await sql<{ args: string }>`
    SELECT encode(tgargs, 'escape') AS args FROM pg_trigger
    WHERE tgname = ${name} AND tgrelid = to_regclass(${`"${table}"`})`.execute(trx);
  const current = existing.rows[0]?.args;
  // tgargs holds each argument followed by a NUL byte.
  const expected = args.map((a) => `${a}\\000`).join('');
  if (wanted && current === expected) return undefined;
  if (current !== undefined) await sql.raw(`DROP TRIGGER ${name} ON "${table}"`).execute(trx);
  if (!wanted) return current === undefined ? undefined : `DROP TRIGGER ${name} ON "${table}"`;
  const statement = `CREATE TRIGGER ${name} AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION storico_registra(${args.map((a) => `'${a.replace(/'/g, "''")}'`).join(', ')})`;
  await sql.raw(statement).execute(trx);
  return statement;
}

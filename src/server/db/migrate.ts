// Migration from the definitions: tables, columns, indexes and foreign keys follow the entity schemas, and the changes an
// analyst declares (x-renamed-from, type changes, new required fields with a default, x-removed) move the data along.
// Everything one start does runs in one transaction and is recorded in schema_history; a change that would lose or
// corrupt data is refused with the file and JSON pointer that asked for it, and the database stays as it was.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type Migration, type MigrationProvider, type Transaction } from 'kysely';
import type { Database } from './connection.ts';
import { DefinitionError } from '../../shared/definitions/compile.ts';
import type { Definitions, FieldDefinition, FieldKind, ResourceDefinition } from '../../shared/definitions/types.ts';
import { SYSTEM_FIELDS, cercaEntry } from '../../shared/definitions/types.ts';
import { runDomainMigrations } from './domain-migrations.ts';
import type { MigrationStatement } from '../extensions.ts';
import { createViews, dropViews } from './views.ts';
import { MIGRATION_MARK, STORICO_TABLES, ensureHistoryTrigger } from '../storico/schema.ts';
import { SCHEDULER_TABLES } from '../scheduler/schema.ts';
import { listIndexes } from './list-indexes.ts';
import { bumpAllGenerations, ensureListGeneration } from './list-generation.ts';
import { TESTO_CERCABILE_FUNCTION, nestedEntry, nestedTextSql, prefixSql, searchableSql } from '../resources/search-sql.ts';

/** Hand-written migrations (indexes, data fixes the definitions cannot express), run in file-name order. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

const COLUMN_TYPES: Record<FieldKind, string> = {
  text: 'text',
  integer: 'integer',
  number: 'double precision',
  money: 'numeric(14,2)',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
  json: 'jsonb',
};

// How information_schema names each column type, to notice a schema that no longer matches the table.
const INFORMATION_SCHEMA_TYPES: Record<FieldKind, string> = {
  text: 'text',
  integer: 'integer',
  number: 'double precision',
  money: 'numeric',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamp with time zone',
  json: 'jsonb',
};

// Engine tables: sessions, throttling, roles and per-user preferences. Users themselves are a resource.
const ENGINE_TABLES = [
  `CREATE TABLE IF NOT EXISTS auth_role (name text PRIMARY KEY, title text NOT NULL)`,
  // Whether the role's users must turn on two-step verification before anything else (ruoli.json mfa_richiesta).
  `ALTER TABLE auth_role ADD COLUMN IF NOT EXISTS mfa_richiesta boolean NOT NULL DEFAULT false`,
  `CREATE TABLE IF NOT EXISTS auth_permission (name text PRIMARY KEY, description text NOT NULL DEFAULT '')`,
  `CREATE TABLE IF NOT EXISTS auth_role_permission (
     role text NOT NULL REFERENCES auth_role(name) ON DELETE CASCADE,
     permission text NOT NULL REFERENCES auth_permission(name) ON DELETE CASCADE,
     PRIMARY KEY (role, permission))`,
  `CREATE TABLE IF NOT EXISTS auth_login_failure (id bigserial PRIMARY KEY, key text NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS auth_login_failure_key ON auth_login_failure (key, at)`,
  // The next moment an attempt on a slowed-down account may run: reserved atomically, so parallel attempts queue.
  `CREATE TABLE IF NOT EXISTS auth_login_slot (key text PRIMARY KEY, next_at timestamptz NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS app_setting (key text PRIMARY KEY, value jsonb NOT NULL)`,
  // One row per status change of any workflow-driven record, written in the same transaction as the change.
  `CREATE TABLE IF NOT EXISTS workflow_history (
     id bigserial PRIMARY KEY,
     resource text NOT NULL,
     record_id integer NOT NULL,
     event text NOT NULL,
     from_status integer,
     to_status integer NOT NULL,
     user_id integer,
     user_name text,
     note text,
     at timestamptz NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS workflow_history_record ON workflow_history (resource, record_id, at)`,
  // Records per status and row-scope value of each resource with a counts route, kept by a trigger in the writing
  // transaction: the status chips read a few dozen rows instead of counting the table (scope -1 = none).
  `CREATE TABLE IF NOT EXISTS workflow_count (
     resource text NOT NULL, scope integer NOT NULL, status integer NOT NULL, n bigint NOT NULL,
     PRIMARY KEY (resource, scope, status))`,
  // What each start changed: the definitions' hash and the statements applied, in order.
  `CREATE TABLE IF NOT EXISTS schema_history (
     id bigserial PRIMARY KEY,
     definition_hash text NOT NULL,
     statements jsonb NOT NULL,
     applied_at timestamptz NOT NULL DEFAULT now())`,
];

const USER_TABLES = (users: string) => [
  `CREATE TABLE IF NOT EXISTS auth_token (
     id bigserial PRIMARY KEY,
     token_hash text NOT NULL UNIQUE,
     user_id integer NOT NULL REFERENCES "${users}"(id) ON DELETE CASCADE,
     created_at timestamptz NOT NULL DEFAULT now(),
     expires_at timestamptz NOT NULL,
     revoked_at timestamptz)`,
  `CREATE INDEX IF NOT EXISTS auth_token_user ON auth_token (user_id)`,
  // The idle timeout counts from used_at; device and address are shown to the owner in 'Sessioni attive'.
  `ALTER TABLE auth_token ADD COLUMN IF NOT EXISTS used_at timestamptz NOT NULL DEFAULT now(),
     ADD COLUMN IF NOT EXISTS user_agent text, ADD COLUMN IF NOT EXISTS address text`,
  // Two-step verification: the TOTP secret, the last accepted time step (no replay), recovery codes as SHA-256 hashes.
  `CREATE TABLE IF NOT EXISTS auth_mfa (
     user_id integer PRIMARY KEY REFERENCES "${users}"(id) ON DELETE CASCADE,
     secret text NOT NULL,
     attiva boolean NOT NULL DEFAULT false,
     ultimo_passo bigint NOT NULL DEFAULT 0,
     codici_recupero jsonb NOT NULL DEFAULT '[]'::jsonb)`,
  // A login's password step waiting for its code (token_mfa, hashed).
  `CREATE TABLE IF NOT EXISTS auth_mfa_challenge (
     token_hash text PRIMARY KEY,
     user_id integer NOT NULL REFERENCES "${users}"(id) ON DELETE CASCADE,
     expires_at timestamptz NOT NULL)`,
  // A user let off their role's required verification: who decided, why and when (shown to the super_admin).
  `CREATE TABLE IF NOT EXISTS auth_mfa_esenzione (
     user_id integer PRIMARY KEY REFERENCES "${users}"(id) ON DELETE CASCADE,
     motivo text NOT NULL,
     concessa_da text NOT NULL,
     concessa_il timestamptz NOT NULL DEFAULT now())`,
  // A password reset link (its token hashed), single use, valid 30 minutes.
  `CREATE TABLE IF NOT EXISTS auth_password_reset (
     token_hash text PRIMARY KEY,
     user_id integer NOT NULL REFERENCES "${users}"(id) ON DELETE CASCADE,
     expires_at timestamptz NOT NULL,
     used_at timestamptz)`,
  // Single sign-on: a login's state (PKCE verifier, nonce) while at the provider, then the browser's one-time ticket.
  `CREATE TABLE IF NOT EXISTS auth_oidc (
     token_hash text PRIMARY KEY,
     verifier text,
     nonce text,
     user_id integer REFERENCES "${users}"(id) ON DELETE CASCADE,
     expires_at timestamptz NOT NULL)`,
  // A session opened through the identity provider: its verification counts as the second step.
  `ALTER TABLE auth_token ADD COLUMN IF NOT EXISTS sso boolean NOT NULL DEFAULT false`,
  `CREATE TABLE IF NOT EXISTS user_preference (
     user_id integer NOT NULL REFERENCES "${users}"(id) ON DELETE CASCADE,
     key text NOT NULL,
     value jsonb NOT NULL,
     PRIMARY KEY (user_id, key))`,
];


type Trx = Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rows of generated tables are untyped

function propertyOf(def: ResourceDefinition, name: string): Record<string, unknown> {
  return (def.schema.properties?.[name] ?? {}) as Record<string, unknown>;
}

function columnDefault(def: ResourceDefinition, field: FieldDefinition): string {
  const value = propertyOf(def, field.name).default;
  if (field.kind === 'boolean' && typeof value === 'boolean') return ` DEFAULT ${value}`;
  return '';
}

/** A SQL literal of a JSON default, cast to the column's type. */
function literal(value: unknown, kind: FieldKind): string {
  const text = kind === 'json' ? JSON.stringify(value) : String(value);
  return `'${text.replace(/'/g, "''")}'::${COLUMN_TYPES[kind]}`;
}

async function existingColumns(db: Trx, table: string): Promise<Map<string, string>> {
  const rows = await sql<{ column_name: string; data_type: string }>`
    SELECT column_name, data_type FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}`.execute(db);
  return new Map(rows.rows.map((r) => [r.column_name, r.data_type]));
}

async function constraintExists(db: Trx, name: string): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM pg_constraint WHERE conname = ${name}`.execute(db);
  return rows.rows.length > 0;
}

async function relationExists(db: Trx, name: string): Promise<boolean> {
  const rows = await sql<{ r: string | null }>`SELECT to_regclass(${`"${name}"`})::text AS r`.execute(db);
  return rows.rows[0]?.r !== null && rows.rows[0]?.r !== undefined;
}

/**
 * The triggers that keep workflow_count for a table (named after its status and scope columns). Created, then the
 * counts filled, in the start's transaction: CREATE TRIGGER holds off writers until commit, so no change is missed.
 * Per statement, from its transition tables: a statement writing many rows (an import, a bulk load, a mass status
 * change) updates each (scope, status) count once. Per row, one transaction inserting 200 000 rows left 200 000 dead
 * versions of a few hundred count rows behind it (11 MB, which every read of the counts then scanned).
 */
async function ensureStatusCounts(db: Trx, plan: Plan, table: string, statusField: string, scopeField: string | undefined): Promise<void> {
  const name = objectName('wfc', table, `${scopeField ?? ''}_${statusField}`);
  // Suffixed names within 63 bytes, the suffix kept whole.
  const named = (suffix: string) => `${name.slice(0, 63 - suffix.length)}${suffix}`;
  const events = [['INSERT', named('_ins')], ['UPDATE', named('_upd')], ['DELETE', named('_del')]] as const;
  const wanted = [...events.map(([, trigger]) => trigger), named('_truncate')];
  const existing = await sql<{ tgname: string }>`SELECT tgname FROM pg_trigger WHERE tgrelid = ${`"${table}"`}::regclass AND tgname LIKE ${`wfc\\_${table}\\_%`}`.execute(db);
  const present = new Set(existing.rows.map((r) => r.tgname));
  if (wanted.every((t) => present.has(t)) && present.size === wanted.length) return;
  for (const r of existing.rows) await plan.apply(`DROP TRIGGER "${r.tgname}" ON "${table}"`);
  const scopeOf = scopeField ? `coalesce("${scopeField}", -1)` : '-1';
  const rows = (transition: string, sign: string) => `SELECT ${scopeOf} AS scope, coalesce("${statusField}", -1) AS status, ${sign}1 AS d FROM ${transition}`;
  // Changes netted per (scope, status); rows an UPDATE left in place cancel out and write nothing. In key order, so
  // two statements lock the same count rows in the same order.
  const upsert = (source: string) => `INSERT INTO workflow_count (resource, scope, status, n)
        SELECT '${table}', scope, status, sum(d) FROM (${source}) AS changes GROUP BY scope, status HAVING sum(d) <> 0 ORDER BY scope, status
        ON CONFLICT (resource, scope, status) DO UPDATE SET n = workflow_count.n + EXCLUDED.n;`;
  await plan.apply(`CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM workflow_count WHERE resource = '${table}';
      ELSIF TG_OP = 'INSERT' THEN
        ${upsert(rows('new_rows', '+'))}
      ELSIF TG_OP = 'DELETE' THEN
        ${upsert(rows('old_rows', '-'))}
      ELSE
        ${upsert(`${rows('old_rows', '-')} UNION ALL ${rows('new_rows', '+')}`)}
      END IF;
      RETURN NULL;
    END $$`);
  // PostgreSQL allows transition tables only on single-event triggers without a column list: one trigger per event.
  for (const [event, trigger] of events) {
    const transitions = event === 'INSERT' ? 'NEW TABLE AS new_rows' : event === 'DELETE' ? 'OLD TABLE AS old_rows' : 'OLD TABLE AS old_rows NEW TABLE AS new_rows';
    await plan.apply(`CREATE TRIGGER "${trigger}" AFTER ${event} ON "${table}" REFERENCING ${transitions} FOR EACH STATEMENT EXECUTE FUNCTION "${name}"()`);
  }
  await plan.apply(`CREATE TRIGGER "${named('_truncate')}" AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "${name}"()`);
  await plan.apply(`DELETE FROM workflow_count WHERE resource = '${table}'`);
  await plan.apply(`INSERT INTO workflow_count (resource, scope, status, n)
    SELECT '${table}', coalesce(${scopeField ? `"${scopeField}"` : 'NULL::int'}, -1), coalesce("${statusField}", -1), count(*) FROM "${table}" GROUP BY 1, 2, 3`);
}

/** Identifiers of at most 63 bytes, as PostgreSQL truncates longer ones silently. */
function objectName(prefix: string, table: string, column: string): string {
  const name = `${prefix}_${table}_${column}`.toLowerCase();
  return name.length <= 63 ? name : name.slice(0, 63);
}

function indexedColumns(def: ResourceDefinition): Set<string> {
  const columns = new Set<string>();
  for (const c of def.list.columns) if (c.sortable || c.filter) columns.add(c.field);
  if (def.list.defaultSort) columns.add(def.list.defaultSort.replace(/^-/, ''));
  if (def.resource.rowScope) columns.add(def.resource.rowScope.field);
  for (const f of def.fields) if (f.ref) columns.add(f.name);
  columns.delete('id');
  return columns;
}

const TRIGRAM_MISSING = 'PostgreSQL senza l\'estensione pg_trgm (CREATE EXTENSION pg_trgm rifiutato): la ricerca nelle liste funziona, '
  + 'ma leggendo ogni riga, lenta oltre le centinaia di migliaia di record. Un amministratore del database la installa con '
  + '"CREATE EXTENSION pg_trgm;" nel database dell\'applicazione; al riavvio gli indici di ricerca vengono creati.';

async function trigramAvailable(db: Database): Promise<boolean> {
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    return true;
  } catch {
    return false; // an external server may not allow extensions; search then scans
  }
}

/** sha256 of what the migration reads from the definitions: schemas and list/resource settings, in a stable order. */
export function definitionHash(definitions: Definitions): string {
  const parts = [...definitions.resources.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((d) => [d.name, d.schema, d.resource, d.list, d.removed ?? []]);
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export interface MigrationReport {
  created: string[];
  added: string[];
  renamed: string[];
  converted: string[];
  filled: string[];
  dropped: string[];
  /** Columns no longer in the definitions, kept (x-removed drops them). */
  orphaned: string[];
  /** Hand-written migrations applied by this start. */
  migrations: string[];
  warnings: string[];
  /** Statements recorded in schema_history by this start. */
  statements: string[];
  /** The same statements, each with the rows it touched. */
  plan: PlannedStatement[];
  /** A dry run's refusals (a real migration stops at the first, as a DefinitionError). */
  refusals: Refusal[];
}

export interface MigrateOptions {
  /** Folder of hand-written migration files (default src/server/db/migrations). */
  migrationsDir?: string;
  /** A live change: only these resources' tables are migrated (locked first); what the start alone does is skipped. */
  only?: ReadonlySet<string>;
  /** Runs everything, lists every refusal, and rolls back: the plan of a change, nothing written. */
  dryRun?: boolean;
  /** In the migration's transaction, under its lock: before the first statement (may refuse by throwing) and after the last. */
  before?: (trx: Trx) => Promise<void>;
  after?: (trx: Trx, report: MigrationReport) => Promise<void>;
}

/** Thrown inside a dry run's transaction to roll it back. */
class DryRunDone extends Error {}

// A value converts when casting its text to the new type succeeds; works on every PostgreSQL version (no pg_input_is_valid).
const CONVERTS_FUNCTION = `CREATE OR REPLACE FUNCTION pg_temp.schema_value_converts(v text, t text) RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
  EXECUTE format('SELECT %L::%s', v, t);
  RETURN true;
EXCEPTION WHEN others THEN
  RETURN false;
END $f$`;

/** A statement of the migration with the rows it touches (written, converted, filled or dropped with a column). */
export interface PlannedStatement {
  sql: string;
  righe: number;
}

/** A change the migration refuses: the file and pointer that asked for it, why, and the first offending rows. */
export interface Refusal {
  file: string;
  pointer: string;
  message: string;
  righe: unknown[];
}

// ALTER TABLE forms that rewrite, fill or drop every row's value (renames, plain ADD COLUMN and constraints touch none).
const TOUCHES_EVERY_ROW = /^ALTER TABLE "([^"]+)" (?:ALTER COLUMN "[^"]+" TYPE|DROP COLUMN|ADD COLUMN "[^"]+" \S+ DEFAULT)/;

// The fills the migration writes (a default into the rows without a value).
const FILL = /^UPDATE "([^"]+)" SET "[^"]+" = .+ WHERE ("[^"]+" IS NULL)$/s;

class Plan {
  readonly statements: string[] = [];
  readonly detail: PlannedStatement[] = [];
  readonly refusals: Refusal[] = [];
  /** `collect`: a dry run, which lists every refusal and goes on instead of stopping at the first. */
  constructor(private readonly db: Trx, readonly collect = false) {}
  /** Runs a statement that changes the database and records it, with the rows it touched. */
  async apply(statement: string): Promise<void> {
    // A dry run counts the rows a fill would write instead of writing them: the history trigger would take ids from
    // its sequence, which no rollback gives back (the plan would change the database).
    const fill = this.collect ? FILL.exec(statement) : null;
    if (fill) {
      const counted = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(fill[1]!)} WHERE ${sql.raw(fill[2]!)}`.execute(this.db);
      this.statements.push(statement);
      this.detail.push({ sql: statement, righe: Number(counted.rows[0]!.n) });
      return;
    }
    const result = await sql.raw(statement).execute(this.db);
    this.statements.push(statement);
    let righe = Number(result.numAffectedRows ?? 0n);
    const table = TOUCHES_EVERY_ROW.exec(statement)?.[1];
    if (table) righe = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(this.db)).rows[0]!.n);
    this.detail.push({ sql: statement, righe });
  }
  /** A statement run elsewhere (a trigger's definition, a hand-written migration), recorded. */
  note(statement: string): void {
    this.statements.push(statement);
    this.detail.push({ sql: statement, righe: 0 });
  }
  /** A refusal: stops the migration, or in a dry run is listed and the change skipped. */
  refuse(file: string, pointer: string, message: string, righe: unknown[] = []): void {
    if (!this.collect) throw new DefinitionError(file, pointer, message);
    this.refusals.push({ file, pointer, message, righe });
  }
  /** Runs one step of a resource's migration; a database error becomes a refusal naming the file and pointer. */
  async step(file: string, pointer: string, run: () => Promise<unknown>): Promise<void> {
    // A dry run goes on after a failed step: its savepoint undoes the step alone.
    if (this.collect) await sql.raw('SAVEPOINT migration_step').execute(this.db);
    try {
      await run();
      if (this.collect) await sql.raw('RELEASE SAVEPOINT migration_step').execute(this.db);
    } catch (error) {
      if (error instanceof DefinitionError && !this.collect) throw error;
      if (this.collect) await sql.raw('ROLLBACK TO SAVEPOINT migration_step').execute(this.db);
      const message = error instanceof DefinitionError ? error.detail : `la migrazione non è riuscita: ${(error as Error).message}`;
      this.refuse(file, pointer, message);
    }
  }
}

async function migrateResource(db: Trx, plan: Plan, def: ResourceDefinition, report: MigrationReport, changed: boolean): Promise<void> {
  const table = def.name;
  const file = `${table}/entity.schema.json`;
  let columns = await existingColumns(db, table);
  if (columns.size === 0) {
    await plan.apply(`CREATE TABLE "${table}" (
            id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            version integer NOT NULL DEFAULT 1,
            created_at timestamptz NOT NULL DEFAULT now(),
            updated_at timestamptz NOT NULL DEFAULT now())`);
    report.created.push(table);
    columns = await existingColumns(db, table);
  }
  const rowCount = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!.n);
  const required = def.schema.required ?? [];

  for (const field of def.fields) {
    if ((SYSTEM_FIELDS as readonly string[]).includes(field.name)) continue;
    const pointer = `/properties/${field.name}`;
    const type = COLUMN_TYPES[field.kind];
    const column = `"${table}"."${field.name}"`;

    // Rename: the old column carries the data over to the new name, with its indexes and foreign key.
    if (field.renamedFrom && !columns.has(field.name) && columns.has(field.renamedFrom)) {
      const from = field.renamedFrom;
      await plan.step(file, `${pointer}/x-renamed-from`, async () => {
        await plan.apply(`ALTER TABLE "${table}" RENAME COLUMN "${from}" TO "${field.name}"`);
        for (const prefix of ['idx', 'uq', 'trgm', 'testo', 'keyset']) {
          const [oldName, newName] = [objectName(prefix, table, from), objectName(prefix, table, field.name)];
          if (await relationExists(db, oldName) && !(await relationExists(db, newName))) await plan.apply(`ALTER INDEX "${oldName}" RENAME TO "${newName}"`);
        }
        const [oldFk, newFk] = [objectName('fk', table, from), objectName('fk', table, field.name)];
        if (await constraintExists(db, oldFk) && !(await constraintExists(db, newFk))) await plan.apply(`ALTER TABLE "${table}" RENAME CONSTRAINT "${oldFk}" TO "${newFk}"`);
      });
      columns.set(field.name, columns.get(from)!);
      columns.delete(from);
      report.renamed.push(`${table}.${from} -> ${field.name}`);
    } else if (field.renamedFrom && columns.has(field.name) && columns.has(field.renamedFrom)) {
      plan.refuse(file, `${pointer}/x-renamed-from`, `le colonne "${field.renamedFrom}" e "${field.name}" esistono entrambe nella tabella ${table}: sposta i dati con una migrazione scritta a mano`);
      continue;
    }

    const current = columns.get(field.name);
    const fallback = propertyOf(def, field.name).default;
    const requiredAt = required.indexOf(field.name);
    if (!current) {
      // A new required field needs a value for the rows already there.
      if (requiredAt >= 0 && fallback === undefined && (await rowCount()) > 0) {
        const first = await sql<{ id: number }>`SELECT id FROM ${sql.table(table)} ORDER BY id LIMIT 5`.execute(db);
        plan.refuse(file, `/required/${requiredAt}`, `"${field.name}" è nuovo e obbligatorio ma ${table} ha già dei record: indica un valore predefinito ("default") per loro`, first.rows);
        continue;
      }
      await plan.step(file, pointer, () => plan.apply(`ALTER TABLE "${table}" ADD COLUMN "${field.name}" ${type}${columnDefault(def, field)}`));
      report.added.push(`${table}.${field.name}`);
      if (requiredAt >= 0 && fallback !== undefined && !columnDefault(def, field)) {
        await plan.step(file, `${pointer}/default`, () => plan.apply(`UPDATE "${table}" SET "${field.name}" = ${literal(fallback, field.kind)} WHERE "${field.name}" IS NULL`));
        report.filled.push(`${table}.${field.name}`);
      }
      continue;
    }

    if (current !== INFORMATION_SCHEMA_TYPES[field.kind]) {
      // Type change: in place when every stored value converts, otherwise refused with the first rows that do not.
      let converted = false;
      await plan.step(file, `${pointer}/type`, async () => {
        await sql.raw(CONVERTS_FUNCTION).execute(db);
        const bad = await sql<{ id: number; value: string }>`
          SELECT id, ${sql.ref(field.name)}::text AS value FROM ${sql.table(table)}
          WHERE ${sql.ref(field.name)} IS NOT NULL AND NOT pg_temp.schema_value_converts(${sql.ref(field.name)}::text, ${type})
          ORDER BY id LIMIT 5`.execute(db);
        if (bad.rows.length) {
          const list = bad.rows.map((r) => `id ${r.id} (${JSON.stringify(r.value)})`).join(', ');
          plan.refuse(file, `${pointer}/type`, `${column} è di tipo ${current} e non può diventare ${type}: i valori dei record ${list} non si convertono`, bad.rows.map((r) => ({ id: r.id, valore: r.value })));
          return;
        }
        converted = true;
        // A trigram index only fits text; the search settings recreate it when the column is still searched.
        await plan.apply(`DROP INDEX IF EXISTS "${objectName('trgm', table, field.name)}"`);
        await plan.apply(`DROP INDEX IF EXISTS "${objectName('testo', table, field.name)}"`);
        await plan.apply(`ALTER TABLE "${table}" ALTER COLUMN "${field.name}" DROP DEFAULT`);
        await plan.apply(`ALTER TABLE "${table}" ALTER COLUMN "${field.name}" TYPE ${type} USING "${field.name}"::text::${type}`);
        const restored = columnDefault(def, field);
        if (restored) await plan.apply(`ALTER TABLE "${table}" ALTER COLUMN "${field.name}" SET${restored}`);
      });
      if (converted) report.converted.push(`${table}.${field.name}: ${current} -> ${type}`);
    }

    if (changed) {
      // Required now: old rows without a value get the default; with no default the start is refused, as every such
      // row would fail validation on its next edit.
      if (requiredAt >= 0) {
        const missing = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(field.name)} IS NULL`.execute(db);
        const count = Number(missing.rows[0]!.n);
        if (count > 0 && fallback === undefined) {
          const first = await sql<{ id: number }>`SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(field.name)} IS NULL ORDER BY id LIMIT 5`.execute(db);
          plan.refuse(file, `/required/${requiredAt}`, `"${field.name}" è obbligatorio ma ${count === 1 ? '1 record' : `${count} record`} di ${table} ${count === 1 ? 'non ha' : 'non hanno'} un valore: indica un valore predefinito ("default") per ${count === 1 ? 'lui' : 'loro'}`, first.rows);
        } else if (count > 0) {
          await plan.step(file, `${pointer}/default`, () => plan.apply(`UPDATE "${table}" SET "${field.name}" = ${literal(fallback, field.kind)} WHERE "${field.name}" IS NULL`));
          report.filled.push(`${table}.${field.name}`);
        }
      }
      // Enum values taken away while rows still hold them would make those rows unsavable: refuse.
      if (field.values && (field.kind === 'text' || field.kind === 'integer')) {
        const allowed = field.values.map(String);
        const used = await sql<{ value: string; n: string }>`
          SELECT ${sql.ref(field.name)}::text AS value, count(*) AS n FROM ${sql.table(table)}
          WHERE ${sql.ref(field.name)} IS NOT NULL AND NOT (${sql.ref(field.name)}::text = ANY(${allowed}))
          GROUP BY 1 ORDER BY 1`.execute(db);
        if (used.rows.length) {
          const list = used.rows.map((r) => `${JSON.stringify(r.value)} (${r.n} record)`).join(', ');
          const first = await sql<{ id: number; value: string }>`
            SELECT id, ${sql.ref(field.name)}::text AS value FROM ${sql.table(table)}
            WHERE ${sql.ref(field.name)} IS NOT NULL AND NOT (${sql.ref(field.name)}::text = ANY(${allowed})) ORDER BY id LIMIT 5`.execute(db);
          plan.refuse(file, pointer, `valori tolti dalla definizione ma ancora usati in ${table}: ${list}`, first.rows.map((r) => ({ id: r.id, valore: r.value })));
        }
      }
    }
  }

  // x-removed drops the column; a property simply gone keeps its column (a typo must not lose data) and is reported.
  for (const name of def.removed ?? []) {
    if (!columns.has(name)) continue;
    await plan.step(file, `/properties/${name}/x-removed`, () => plan.apply(`ALTER TABLE "${table}" DROP COLUMN "${name}"`));
    columns.delete(name);
    report.dropped.push(`${table}.${name}`);
  }
  const known = new Set<string>([...SYSTEM_FIELDS, ...def.fields.map((f) => f.name)]);
  for (const name of columns.keys()) {
    if (known.has(name)) continue;
    report.orphaned.push(`${table}.${name}`);
    report.warnings.push(`${table}.${name}: column kept but no longer in ${file} (orphaned); "x-removed": true drops it`);
  }
}

async function ensureIndex(db: Trx, plan: Plan, name: string, ddl: string): Promise<void> {
  if (!(await relationExists(db, name))) await plan.apply(ddl);
}

/** Migration files of a folder by name; imported from here so that tsx and vitest compile the TypeScript. */
class FolderProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(this.dir)).filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
    const out: Record<string, Migration> = {};
    for (const file of files) out[file.replace(/\.[^.]+$/, '')] = (await import(pathToFileURL(path.join(this.dir, file)).href)) as Migration;
    return out;
  }
}

/** Hand-written migrations through Kysely's Migrator, inside the start's transaction. */
async function runFileMigrations(db: Trx, dir: string, report: MigrationReport): Promise<void> {
  const exists = await fs.stat(dir).then((s) => s.isDirectory(), () => false);
  if (!exists) return;
  // Kysely refuses connection() on a transaction; the Migrator only uses it to get one connection, which is the trx.
  const inTransaction = new Proxy(db, {
    get: (target, key) => {
      if (key === 'connection') return () => ({ execute: <T>(run: (c: Trx) => Promise<T>) => run(target) });
      const value: unknown = Reflect.get(target, key, target);
      // Kysely's methods read private fields: they must run on the transaction itself, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const migrator = new Migrator({
    db: inTransaction,
    provider: new FolderProvider(dir),
    // The start's transaction holds them; a failure rolls back the definitions' changes too.
    disableTransactions: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed?.migrationName ?? '';
    throw new DefinitionError(`../src/server/db/migrations/${name}.ts`, '', `la migrazione non è riuscita: ${(error as Error | undefined)?.message ?? String(error)}`);
  }
  for (const r of results ?? []) if (r.status === 'Success') report.migrations.push(r.migrationName);
}

/** What the domains add to the schema: their idempotent statements and the SELECT of each view resource. */
export interface DomainSchema {
  domainMigrations(): MigrationStatement[][];
  viewOf(resource: string): string | undefined;
}

export async function migrate(db: Database, definitions: Definitions, usersResource: string, domains: DomainSchema, options: MigrateOptions = {}): Promise<MigrationReport> {
  const report: MigrationReport = {
    created: [], added: [], renamed: [], converted: [], filled: [], dropped: [], orphaned: [], migrations: [], warnings: [], statements: [], plan: [], refusals: [],
  };
  // Outside the transaction: a refused CREATE EXTENSION would otherwise abort it.
  const trigram = await trigramAvailable(db);
  const hash = definitionHash(definitions);
  await db.transaction().execute(async (trx) => {
    // One migrator at a time when several API processes start together; released at commit or rollback.
    await sql`SELECT pg_advisory_xact_lock(727274)`.execute(trx);
    await sql.raw(MIGRATION_MARK).execute(trx);
    const plan = new Plan(trx, options.dryRun);
    await options.before?.(trx);
    if (options.only) {
      // A live change: the tables it alters and the views (dropped and recreated) are locked first, all at once, so no
      // request holding one of them can wait for this transaction while it waits for that request (a deadlock). The
      // engine's own tables, domain statements and migration files are as the start left them: not touched again.
      const locked = [...definitions.resources.values()].filter((d) => d.resource.view || options.only!.has(d.name)).map((d) => d.name);
      const existing = (await sql<{ name: string }>`SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname = ANY(${locked})`.execute(trx)).rows.map((r) => r.name);
      if (existing.length) await sql.raw(`LOCK TABLE ${existing.sort().map((name) => `"${name}"`).join(', ')} IN ACCESS EXCLUSIVE MODE`).execute(trx);
    } else {
      for (const statement of [...ENGINE_TABLES, TESTO_CERCABILE_FUNCTION, ...STORICO_TABLES, ...SCHEDULER_TABLES]) await sql.raw(statement).execute(trx);
      if (!trigram) report.warnings.push(TRIGRAM_MISSING);
    }
    const last = await sql<{ definition_hash: string }>`SELECT definition_hash FROM schema_history ORDER BY id DESC LIMIT 1`.execute(trx);
    const changed = last.rows[0]?.definition_hash !== hash;
    await dropViews(trx, definitions);

    for (const def of definitions.resources.values()) {
      if (def.resource.view || (options.only && !options.only.has(def.name))) continue;
      await migrateResource(trx, plan, def, report, changed);
      const table = def.name;
      const file = `${table}/entity.schema.json`;
      await plan.step(file, '', async () => {
        for (const column of indexedColumns(def)) {
          const name = objectName('idx', table, column);
          await ensureIndex(trx, plan, name, `CREATE INDEX "${name}" ON "${table}" ("${column}")`);
        }
        for (const [name, ddl] of listIndexes(def)) await ensureIndex(trx, plan, name, ddl);
        // Per-status counts within a row scope (a collaborator's status chips) answered from one index.
        const statusField = def.resource.workflow ? (definitions.workflows.get(def.resource.workflow.machine) as { meta?: { statusField?: string } } | undefined)?.meta?.statusField : undefined;
        if (def.resource.rowScope && statusField) {
          const scopeField = def.resource.rowScope.field;
          const name = objectName('idx', table, `${scopeField}_${statusField}`);
          await ensureIndex(trx, plan, name, `CREATE INDEX "${name}" ON "${table}" ("${scopeField}", "${statusField}")`);
        }
        if (statusField && def.resource.workflow?.countsPath) await ensureStatusCounts(trx, plan, table, statusField, def.resource.rowScope?.field);
        for (const field of def.fields) {
          if (def.schema.properties?.[field.name]?.['x-unique'] === true) {
            const name = objectName('uq', table, field.name);
            await ensureIndex(trx, plan, name, `CREATE UNIQUE INDEX "${name}" ON "${table}" (lower("${field.name}"::text))`);
          }
        }
        const cerca = (def.resource.cerca?.fields ?? []).map(cercaEntry);
        // A key the top bar matches by prefix: one btree range on the value in the case the search compares.
        for (const { field: entry } of cerca.filter((e) => e.match === 'prefix')) {
          const field = def.fields.find((f) => f.name === entry);
          if (!field || field.kind !== 'text') continue;
          const name = objectName('prefix', table, entry);
          await ensureIndex(trx, plan, name, `CREATE INDEX "${name}" ON "${table}" ((${prefixSql(entry, !!field.uppercase)}) text_pattern_ops)`);
        }
        if (trigram) {
          // The text searched by the list's box and by the top bar's search; a reference is searched through its
          // target's indexes, an array's text property through an index on the same expression the search uses.
          const contained = cerca.filter((e) => e.match === 'contains').map((e) => e.field);
          for (const entry of new Set([...def.resource.search ?? [], ...contained])) {
            const nested = nestedEntry(entry);
            if (nested) {
              const name = objectName('trgm', table, `${nested[0]}_${nested[1]}`);
              await ensureIndex(trx, plan, name, `CREATE INDEX "${name}" ON "${table}" USING gin ((${nestedTextSql(...nested)}) gin_trgm_ops)`);
              continue;
            }
            const field = def.fields.find((f) => f.name === entry);
            if (!field || field.kind !== 'text') continue;
            // On the text as the search compares it (accents off); the earlier index on the bare column goes.
            const bare = objectName('trgm', table, entry);
            if (await relationExists(trx, bare)) await plan.apply(`DROP INDEX "${bare}"`);
            const name = objectName('testo', table, entry);
            await ensureIndex(trx, plan, name, `CREATE INDEX "${name}" ON "${table}" USING gin ((${searchableSql(entry)}) gin_trgm_ops)`);
          }
        }
      });
    }
    // Foreign keys once every table exists, so resources may point at each other in any order.
    for (const def of definitions.resources.values()) {
      if (options.only && !options.only.has(def.name)) continue;
      for (const field of def.fields) {
        if (!field.ref || def.resource.view) continue;
        const name = objectName('fk', def.name, field.name);
        if (await constraintExists(trx, name)) continue;
        await plan.step(`${def.name}/entity.schema.json`, `/properties/${field.name}/x-ref`, () =>
          plan.apply(`ALTER TABLE "${def.name}" ADD CONSTRAINT "${name}" FOREIGN KEY ("${field.name}") REFERENCES "${field.ref}"(id) ON DELETE RESTRICT`));
      }
    }
    if (!options.only) {
      for (const statement of USER_TABLES(usersResource)) await sql.raw(statement).execute(trx);
      await runDomainMigrations(trx, trigram, domains.domainMigrations());
    }
    // Views are recreated at every start (not recorded: they change nothing stored).
    await createViews(trx, definitions, (resource) => domains.viewOf(resource));
    if (!options.only) await runFileMigrations(trx, options.migrationsDir ?? MIGRATIONS_DIR, report);
    // Last, so each history trigger function is written for its table's columns as every step above left them.
    for (const def of definitions.resources.values()) {
      if (def.resource.view || (options.only && !options.only.has(def.name))) continue;
      const trigger = await ensureHistoryTrigger(trx, def);
      if (trigger) plan.note(trigger);
      for (const statement of await ensureListGeneration(trx, def)) plan.note(statement);
    }
    await bumpAllGenerations(trx);
    // The whole-row trigger function every table used before each had its own.
    if (!options.only) await sql`DROP FUNCTION IF EXISTS storico_registra()`.execute(trx);
    for (const name of report.migrations) plan.note(`-- migration ${name}`);

    // Not in a dry run: a sequence's step is not rolled back, and a plan must leave the database as it was.
    if ((changed || plan.statements.length) && !options.dryRun) {
      await sql`INSERT INTO schema_history (definition_hash, statements) VALUES (${hash}, ${JSON.stringify(plan.statements)}::jsonb)`.execute(trx);
    }
    report.statements = plan.statements;
    report.plan = plan.detail;
    report.refusals = plan.refusals;
    if (options.dryRun) throw new DryRunDone();
    await options.after?.(trx, report);
  }).catch((error: unknown) => {
    if (!(error instanceof DryRunDone)) throw error;
  });
  return report;
}

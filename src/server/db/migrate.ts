// Additive auto-migration: tables, columns, indexes and foreign keys follow the entity schemas; nothing is dropped.
import { sql } from 'kysely';
import type { Database } from './connection.ts';
import type { Definitions, FieldDefinition, FieldKind, ResourceDefinition } from '../../shared/definitions/types.ts';
import { SYSTEM_FIELDS } from '../../shared/definitions/types.ts';
import { runDomainMigrations } from './domain-migrations.ts';

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
  `CREATE TABLE IF NOT EXISTS auth_permission (name text PRIMARY KEY, description text NOT NULL DEFAULT '')`,
  `CREATE TABLE IF NOT EXISTS auth_role_permission (
     role text NOT NULL REFERENCES auth_role(name) ON DELETE CASCADE,
     permission text NOT NULL REFERENCES auth_permission(name) ON DELETE CASCADE,
     PRIMARY KEY (role, permission))`,
  `CREATE TABLE IF NOT EXISTS auth_login_failure (id bigserial PRIMARY KEY, key text NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS auth_login_failure_key ON auth_login_failure (key, at)`,
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
  `CREATE TABLE IF NOT EXISTS user_preference (
     user_id integer NOT NULL REFERENCES "${users}"(id) ON DELETE CASCADE,
     key text NOT NULL,
     value jsonb NOT NULL,
     PRIMARY KEY (user_id, key))`,
];

function columnDefault(def: ResourceDefinition, field: FieldDefinition): string {
  const value = (def.schema.properties?.[field.name] as { default?: unknown } | undefined)?.default;
  if (field.kind === 'boolean' && typeof value === 'boolean') return ` DEFAULT ${value}`;
  return '';
}

async function existingColumns(db: Database, table: string): Promise<Map<string, string>> {
  const rows = await sql<{ column_name: string; data_type: string }>`
    SELECT column_name, data_type FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}`.execute(db);
  return new Map(rows.rows.map((r) => [r.column_name, r.data_type]));
}

async function constraintExists(db: Database, name: string): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM pg_constraint WHERE conname = ${name}`.execute(db);
  return rows.rows.length > 0;
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

async function trigramAvailable(db: Database): Promise<boolean> {
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    return true;
  } catch {
    return false; // an external server may not allow extensions; search then scans
  }
}

export interface MigrationReport {
  created: string[];
  added: string[];
  warnings: string[];
}

export async function migrate(db: Database, definitions: Definitions, usersResource: string): Promise<MigrationReport> {
  const report: MigrationReport = { created: [], added: [], warnings: [] };
  await db.connection().execute(async (conn) => {
    // One migrator at a time when several API processes start together.
    await sql`SELECT pg_advisory_lock(727274)`.execute(conn);
    try {
      const trigram = await trigramAvailable(conn);
      for (const statement of ENGINE_TABLES) await sql.raw(statement).execute(conn);
      for (const def of definitions.resources.values()) {
        const table = def.name;
        let columns = await existingColumns(conn, table);
        if (columns.size === 0) {
          await sql.raw(`CREATE TABLE IF NOT EXISTS "${table}" (
            id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            version integer NOT NULL DEFAULT 1,
            created_at timestamptz NOT NULL DEFAULT now(),
            updated_at timestamptz NOT NULL DEFAULT now())`).execute(conn);
          report.created.push(table);
          columns = await existingColumns(conn, table);
        }
        for (const field of def.fields) {
          if ((SYSTEM_FIELDS as readonly string[]).includes(field.name)) continue;
          const type = COLUMN_TYPES[field.kind];
          const current = columns.get(field.name);
          if (!current) {
            await sql.raw(`ALTER TABLE "${table}" ADD COLUMN IF NOT EXISTS "${field.name}" ${type}${columnDefault(def, field)}`).execute(conn);
            report.added.push(`${table}.${field.name}`);
          } else if (current !== INFORMATION_SCHEMA_TYPES[field.kind]) {
            report.warnings.push(`${table}.${field.name} is ${current} in the database, the schema asks ${type}: left as it is`);
          }
        }
        for (const column of indexedColumns(def)) {
          await sql.raw(`CREATE INDEX IF NOT EXISTS "${objectName('idx', table, column)}" ON "${table}" ("${column}")`).execute(conn);
        }
        // Per-status counts within a row scope (a collaborator's status chips) answered from one index.
        const statusField = def.resource.workflow ? (definitions.workflows.get(def.resource.workflow.machine) as { meta?: { statusField?: string } } | undefined)?.meta?.statusField : undefined;
        if (def.resource.rowScope && statusField) {
          const scopeField = def.resource.rowScope.field;
          await sql.raw(`CREATE INDEX IF NOT EXISTS "${objectName('idx', table, `${scopeField}_${statusField}`)}" ON "${table}" ("${scopeField}", "${statusField}")`).execute(conn);
        }
        for (const field of def.fields) {
          if (def.schema.properties?.[field.name]?.['x-unique'] === true) {
            await sql.raw(`CREATE UNIQUE INDEX IF NOT EXISTS "${objectName('uq', table, field.name)}" ON "${table}" (lower("${field.name}"::text))`).execute(conn);
          }
        }
        if (trigram) {
          for (const column of def.resource.search ?? []) {
            await sql.raw(`CREATE INDEX IF NOT EXISTS "${objectName('trgm', table, column)}" ON "${table}" USING gin ("${column}" gin_trgm_ops)`).execute(conn);
          }
        }
      }
      // Foreign keys once every table exists, so resources may point at each other in any order.
      for (const def of definitions.resources.values()) {
        for (const field of def.fields) {
          if (!field.ref) continue;
          const name = objectName('fk', def.name, field.name);
          if (await constraintExists(conn, name)) continue;
          await sql.raw(`ALTER TABLE "${def.name}" ADD CONSTRAINT "${name}" FOREIGN KEY ("${field.name}") REFERENCES "${field.ref}"(id) ON DELETE RESTRICT`).execute(conn);
        }
      }
      for (const statement of USER_TABLES(usersResource)) await sql.raw(statement).execute(conn);
      await runDomainMigrations(conn, trigram);
    } finally {
      await sql`SELECT pg_advisory_unlock(727274)`.execute(conn);
    }
  });
  return report;
}

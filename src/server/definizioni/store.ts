// Where the applied definitions live: every version of the whole set in PostgreSQL, so every instance (one started
// later too) serves the same one. The files on disk are what a deploy brings: a start whose disk set differs from the
// last deploy's records it as a new version; otherwise the newest version (a deploy plus the changes made live) wins.
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { DefinitionFiles } from '../definitions.ts';

export const DEFINIZIONI_CHANNEL = 'definizioni';

export const DEFINIZIONI_TABLE = `CREATE TABLE IF NOT EXISTS definizioni_versione (
  n integer PRIMARY KEY,
  origine text NOT NULL CHECK (origine IN ('deploy', 'modifica', 'ripristino')),
  files json NOT NULL,
  hash text NOT NULL,
  disco_hash text,
  differenze jsonb NOT NULL,
  istruzioni jsonb NOT NULL,
  utente_id integer,
  utente_nome text,
  at timestamptz NOT NULL DEFAULT now())`;

export type Origine = 'deploy' | 'modifica' | 'ripristino';

/** One changed value inside a file: its JSON pointer, before and after (absent = undefined). */
export interface Modifica {
  percorso: string;
  da?: unknown;
  a?: unknown;
}

export interface Differenza {
  file: string;
  tipo: 'aggiunto' | 'modificato' | 'rimosso';
  modifiche: Modifica[];
}

export interface Versione {
  n: number;
  origine: Origine;
  files: DefinitionFiles;
  hash: string;
}

/** JSON with object keys sorted: the same set always hashes the same, however its files were formatted. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const hashFiles = (files: DefinitionFiles) => createHash('sha256').update(stable(files)).digest('hex');

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function diffValue(at: string, before: unknown, after: unknown, out: Modifica[]): void {
  if (stable(before) === stable(after)) return;
  const objects = before && after && typeof before === 'object' && typeof after === 'object';
  const sameKind = objects && Array.isArray(before) === Array.isArray(after);
  // Arrays of another length are replaced whole: index by index would misname every element after an insertion.
  if (sameKind && (!Array.isArray(before) || (before as unknown[]).length === (after as unknown[]).length)) {
    const keys = [...new Set([...Object.keys(before as object), ...Object.keys(after as object)])];
    for (const key of keys) diffValue(`${at}/${escapePointer(key)}`, (before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], out);
    return;
  }
  out.push({ percorso: at, ...(before !== undefined ? { da: before } : {}), ...(after !== undefined ? { a: after } : {}) });
}

/** The differences between two sets, file by file, down to the changed values. */
export function diffFiles(before: DefinitionFiles, after: DefinitionFiles): Differenza[] {
  const out: Differenza[] = [];
  for (const file of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (!(file in after)) out.push({ file, tipo: 'rimosso', modifiche: [] });
    else if (!(file in before)) out.push({ file, tipo: 'aggiunto', modifiche: [] });
    else {
      const modifiche: Modifica[] = [];
      diffValue('', before[file], after[file], modifiche);
      if (modifiche.length) out.push({ file, tipo: 'modificato', modifiche });
    }
  }
  return out;
}

/** A proposed change applied to a set: each named file replaced, `null` removes it. */
export function withChanges(base: DefinitionFiles, changes: Record<string, unknown>): DefinitionFiles {
  const next: DefinitionFiles = { ...base };
  for (const [file, value] of Object.entries(changes)) {
    if (value === null) delete next[file];
    else next[file] = value;
  }
  return next;
}

type Db = Database | Transaction<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- engine table

export async function ensureTable(db: Db): Promise<void> {
  await sql.raw(DEFINIZIONI_TABLE).execute(db);
  // json, not jsonb: the files' key order is meaning (a form's fields, a machine's events, in the order written).
  await sql.raw(`DO $$ BEGIN
    IF (SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'definizioni_versione' AND column_name = 'files') = 'jsonb'
    THEN ALTER TABLE definizioni_versione ALTER COLUMN files TYPE json; END IF;
  END $$`).execute(db);
}

export async function latestVersion(db: Db): Promise<number> {
  const row = await sql<{ n: number | null }>`SELECT max(n) AS n FROM definizioni_versione`.execute(db);
  return row.rows[0]?.n ?? 0;
}

export async function readVersion(db: Db, n: number): Promise<Versione | undefined> {
  const row = await sql<Versione>`SELECT n, origine, files, hash FROM definizioni_versione WHERE n = ${n}`.execute(db);
  return row.rows[0];
}

/**
 * The set a start serves: the newest version, unless the disk holds a set no deploy recorded yet (then the disk set,
 * recorded by `recordVersion` in the start's migration). The live changes since the last deploy reach git through
 * `npm run definitions:export`; a deploy without them replaces them (its version says so: origine 'deploy').
 */
export async function resolveStartSet(db: Database, disk: DefinitionFiles): Promise<{ files: DefinitionFiles; versione: number; deploy: boolean }> {
  await ensureTable(db);
  const diskHash = hashFiles(disk);
  const lastDeploy = await sql<{ disco_hash: string }>`SELECT disco_hash FROM definizioni_versione WHERE origine = 'deploy' ORDER BY n DESC LIMIT 1`.execute(db);
  if (lastDeploy.rows[0]?.disco_hash === diskHash) {
    const latest = (await readVersion(db, await latestVersion(db)))!;
    return { files: latest.files, versione: latest.n, deploy: false };
  }
  return { files: disk, versione: 0, deploy: true };
}

export interface NewVersion {
  origine: Origine;
  files: DefinitionFiles;
  previous: DefinitionFiles | undefined;
  istruzioni: unknown[];
  utente: { id: number; name: string } | null;
  discoHash?: string;
}

/** Records a version inside the migration's transaction and tells every instance at its commit. */
export async function recordVersion(trx: Db, version: NewVersion): Promise<number> {
  const n = (await latestVersion(trx)) + 1;
  const differenze = diffFiles(version.previous ?? {}, version.files);
  await sql`INSERT INTO definizioni_versione (n, origine, files, hash, disco_hash, differenze, istruzioni, utente_id, utente_nome)
    VALUES (${n}, ${version.origine}, ${JSON.stringify(version.files)}::json, ${hashFiles(version.files)}, ${version.discoHash ?? null},
      ${JSON.stringify(differenze)}::jsonb, ${JSON.stringify(version.istruzioni)}::jsonb, ${version.utente?.id ?? null}, ${version.utente?.name ?? null})`.execute(trx);
  await sql`SELECT pg_notify(${DEFINIZIONI_CHANNEL}, ${String(n)})`.execute(trx);
  return n;
}

export interface VersioneElenco {
  n: number;
  origine: Origine;
  at: string;
  utente: { id: number; name: string } | null;
  differenze: Differenza[];
  istruzioni: unknown[];
}

export async function listVersions(db: Db, page: number, perPage: number): Promise<{ data: VersioneElenco[]; total: number }> {
  const rows = await sql<{ n: number; origine: Origine; at: Date; utente_id: number | null; utente_nome: string | null; differenze: Differenza[]; istruzioni: unknown[]; total: string }>`
    SELECT n, origine, at, utente_id, utente_nome, differenze, istruzioni, count(*) OVER () AS total FROM definizioni_versione
    ORDER BY n DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`.execute(db);
  const total = rows.rows.length ? Number(rows.rows[0]!.total) : Number((await sql<{ n: string }>`SELECT count(*) AS n FROM definizioni_versione`.execute(db)).rows[0]!.n);
  return {
    total,
    data: rows.rows.map((r) => ({
      n: r.n, origine: r.origine, at: r.at.toISOString(), utente: r.utente_id ? { id: r.utente_id, name: r.utente_nome ?? '' } : null, differenze: r.differenze, istruzioni: r.istruzioni,
    })),
  };
}

// What a statement built from older definitions meets once a change has been applied: a column or table gone or renamed.
const SCHEMA_MOVED = new Set(['42703', '42P01', '42P10']);

/**
 * Whether a failed request ran on definitions older than the database's (another instance applied a change a moment
 * ago): then the newest version, for the caller to take and to answer 503 'riprova' instead of an internal error.
 */
export async function newerVersionBehind(error: unknown, db: Db, served: number): Promise<number | undefined> {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !SCHEMA_MOVED.has(code)) return undefined;
  const latest = await latestVersion(db).catch(() => 0);
  return latest > served ? latest : undefined;
}

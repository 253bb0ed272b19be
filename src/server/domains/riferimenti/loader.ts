// Fills the engine's reference tables (comuni, province, nazioni, settori, rami, frazionamenti, rimesse) when their sources change.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/connection.ts';
import { belfiorePlaces, readComuni, readLists, searchKey, sourcesHash } from './sources.ts';

export const REFERENCE_SETTING = 'reference_version';
// Another key than migrate's, so the two never wait on each other.
const LOCK_KEY = 727275;

interface Column {
  name: string;
  type: 'text' | 'integer' | 'jsonb' | 'date';
  nullable?: boolean;
}

interface TableSpec {
  name: string;
  key: string;
  columns: Column[];
  /** Extra DDL: foreign keys and indexes, run after the CREATE TABLE. */
  extra?: string[];
  /** Added to the CREATE TABLE body (constraints). */
  constraints?: string[];
}

const text = (name: string, nullable = false): Column => ({ name, type: 'text', nullable });
const integer = (name: string, nullable = false): Column => ({ name, type: 'integer', nullable });

// Parents before children: rows are upserted in this order and stale rows deleted in the reverse one.
export const TABLES: TableSpec[] = [
  {
    // Every cadastral place, suppressed municipalities and ceased countries included: what a codice fiscale may name.
    name: 'ref_luogo',
    key: 'codice_catastale',
    columns: [
      text('codice_catastale'), text('nome'), text('sigla_provincia', true), text('iso3166', true),
      { name: 'data_inizio', type: 'date', nullable: true }, { name: 'data_fine', type: 'date', nullable: true },
    ],
  },
  { name: 'ref_provincia', key: 'sigla', columns: [text('sigla'), text('nome'), text('regione'), text('codice_istat')] },
  {
    name: 'ref_comune',
    key: 'codice',
    columns: [
      text('codice'), text('nome'), text('nome_ricerca'), text('sigla_provincia'), text('provincia'), text('regione'),
      text('codice_catastale'), { name: 'cap', type: 'jsonb' },
    ],
    constraints: ['FOREIGN KEY (sigla_provincia) REFERENCES ref_provincia(sigla)'],
    extra: [
      'CREATE UNIQUE INDEX IF NOT EXISTS ref_comune_codice_catastale ON ref_comune (codice_catastale)',
      'CREATE INDEX IF NOT EXISTS ref_comune_sigla_provincia ON ref_comune (sigla_provincia)',
    ],
  },
  {
    name: 'ref_nazione',
    key: 'codice_catastale',
    columns: [
      text('codice_catastale'), text('nome'), text('nome_ricerca'), text('iso3166', true),
      { name: 'data_inizio', type: 'date', nullable: true }, { name: 'data_fine', type: 'date', nullable: true },
    ],
  },
  { name: 'ref_settore', key: 'id', columns: [integer('id'), text('nome'), integer('ordine')] },
  {
    name: 'ref_ramo',
    key: 'id',
    columns: [integer('id'), text('codice'), text('nome'), integer('settore_id'), integer('ordine')],
    constraints: ['FOREIGN KEY (settore_id) REFERENCES ref_settore(id)'],
  },
  { name: 'ref_frazionamento', key: 'codice', columns: [text('codice'), text('nome'), integer('rate'), integer('mesi', true), integer('ordine')] },
  { name: 'ref_tipologia_rimessa', key: 'codice', columns: [text('codice'), text('nome'), integer('ordine')] },
  { name: 'ref_tipo_pagamento', key: 'codice', columns: [text('codice'), text('nome'), integer('ordine')] },
];

function createStatements(spec: TableSpec): string[] {
  const body = [
    ...spec.columns.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' NOT NULL'}`),
    `PRIMARY KEY (${spec.key})`,
    ...(spec.constraints ?? []),
  ];
  return [`CREATE TABLE IF NOT EXISTS ${spec.name} (${body.join(', ')})`, ...(spec.extra ?? [])];
}

type Row = Record<string, unknown>;

async function buildRows(): Promise<Record<string, Row[]>> {
  const [comuni, places, lists] = await Promise.all([readComuni(), belfiorePlaces(), readLists()]);
  const province = new Map<string, Row>();
  for (const c of comuni) {
    if (!province.has(c.sigla)) province.set(c.sigla, { sigla: c.sigla, nome: c.provincia.nome, regione: c.regione.nome, codice_istat: c.provincia.codice });
  }
  return {
    ref_luogo: places.map((p) => ({
      codice_catastale: p.code, nome: p.name, sigla_provincia: p.province ?? null, iso3166: p.iso3166 ?? null,
      data_inizio: p.validFrom ?? null, data_fine: p.validTo ?? null,
    })),
    ref_provincia: [...province.values()],
    ref_comune: comuni.map((c) => ({
      codice: c.codice, nome: c.nome, nome_ricerca: searchKey(c.nome), sigla_provincia: c.sigla, provincia: c.provincia.nome,
      regione: c.regione.nome, codice_catastale: c.codiceCatastale, cap: c.cap,
    })),
    ref_nazione: places.filter((p) => p.code.startsWith('Z')).map((p) => ({
      codice_catastale: p.code, nome: p.name, nome_ricerca: searchKey(p.name), iso3166: p.iso3166 ?? null,
      data_inizio: p.validFrom ?? null, data_fine: p.validTo ?? null,
    })),
    ref_settore: lists.settori.map((s, ordine) => ({ ...s, ordine })),
    ref_ramo: lists.rami.map((r, ordine) => ({ ...r, ordine })),
    ref_frazionamento: lists.frazionamenti.map((f, ordine) => ({ ...f, ordine })),
    ref_tipologia_rimessa: lists.tipologieRimessa.map((t, ordine) => ({ ...t, ordine })),
    ref_tipo_pagamento: lists.tipiPagamento.map((t, ordine) => ({ ...t, ordine })),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function upsert(trx: Transaction<any>, spec: TableSpec, rows: Row[]): Promise<void> {
  const names = spec.columns.map((c) => c.name);
  const recordType = spec.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  const updates = names.filter((n) => n !== spec.key).map((n) => `${n} = EXCLUDED.${n}`).join(', ');
  // One statement per table: the rows travel as one JSON parameter, identifiers are constants of this file.
  await sql`INSERT INTO ${sql.raw(spec.name)} (${sql.raw(names.join(', '))})
    SELECT ${sql.raw(names.join(', '))} FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(${sql.raw(recordType)})
    ON CONFLICT (${sql.raw(spec.key)}) DO UPDATE SET ${sql.raw(updates)}`.execute(trx);
}

/** Deletes the rows the sources no longer have. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function prune(trx: Transaction<any>, spec: TableSpec, rows: Row[]): Promise<void> {
  const keyType = spec.columns.find((c) => c.name === spec.key)!.type;
  await sql`DELETE FROM ${sql.raw(spec.name)}
    WHERE NOT (${sql.raw(spec.key)} = ANY(${rows.map((r) => r[spec.key])}::${sql.raw(keyType)}[]))`.execute(trx);
}

export interface ReferenceLoadReport {
  /** False when the stored hash equalled the sources' one and nothing was written. */
  loaded: boolean;
  hash: string;
  counts?: Record<string, number>;
}

async function storedHash(db: Database): Promise<string | undefined> {
  const rows = await sql<{ hash: string | null }>`SELECT value->>'hash' AS hash FROM app_setting WHERE key = ${REFERENCE_SETTING}`.execute(db);
  return rows.rows[0]?.hash ?? undefined;
}

/**
 * Creates and fills the ref_* tables in one transaction, unless app_setting.reference_version already holds
 * the sources' hash. Runs after migrate (app_setting is an engine table it creates).
 */
export async function loadReferenceData(db: Database): Promise<ReferenceLoadReport> {
  const hash = await sourcesHash();
  if ((await storedHash(db)) === hash) return { loaded: false, hash };
  return db.transaction().execute(async (trx) => {
    // Several API processes may start together: one loads, the others find the new hash.
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    if ((await storedHash(trx)) === hash) return { loaded: false, hash };
    for (const spec of TABLES) for (const statement of createStatements(spec)) await sql.raw(statement).execute(trx);
    const rows = await buildRows();
    // Upsert (parents first) then prune (children first): a row that stays is never deleted and re-inserted.
    for (const spec of TABLES) await upsert(trx, spec, rows[spec.name]!);
    for (const spec of [...TABLES].reverse()) await prune(trx, spec, rows[spec.name]!);
    const counts = Object.fromEntries(TABLES.map((spec) => [spec.name, rows[spec.name]!.length]));
    await sql`INSERT INTO app_setting (key, value)
      VALUES (${REFERENCE_SETTING}, ${JSON.stringify({ hash, loaded_at: new Date().toISOString(), counts })}::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`.execute(trx);
    return { loaded: true, hash, counts };
  });
}

/**
 * Every known cadastral code, read by each app when it is built (kept in its context, not in this module): from
 * ref_luogo (~10 ms) once the loader has run, else decoded from the Belfiore package (~0.6-1 s, memoised there).
 */
export async function cadastralCodes(db: Database): Promise<ReadonlySet<string>> {
  let codes: string[] = [];
  try {
    codes = (await sql<{ code: string }>`SELECT codice_catastale AS code FROM ref_luogo`.execute(db)).rows.map((r) => r.code);
  } catch {
    // The loader never ran here (42P01), or the database is down at build time (health then says so): the package
    // holds the same codes as every database of this release.
  }
  if (!codes.length) codes = (await belfiorePlaces()).map((p) => p.code);
  return new Set(codes);
}

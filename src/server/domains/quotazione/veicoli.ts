// Historic vehicle rows of a quotation: each row's id is its own (one row of one quotation), and the parts of a row the
// server owns (registry data, the calculation's colour) follow the row by that id through every write of the list.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { JsonSchema } from '../../../shared/definitions/types.ts';
import type { MigrationStatement } from '../../extensions.ts';

type Riga = Record<string, unknown>;

/** The calculation's read-only part of a row; every other read-only part is the registries' (spec 001 §3). */
export const DEL_CALCOLO = new Set(['colore']);

/** The read-only properties of a vehicle row, as the entity declares them. */
export function serverOwned(item: JsonSchema | undefined): string[] {
  const props = item?.properties ?? {};
  return Object.keys(props).filter((k) => props[k]!.readOnly === true);
}

/** The registry data were read for a plate and a type: with another one they describe another vehicle. */
const letturaDi = (v: Riga) => `${String(v.targa ?? '').trim().toUpperCase()}|${String(v.tipologia_ania ?? '')}`;

/**
 * The rows as a write will store them: a client's rows lose any read-only part they carry (a client neither sets nor
 * clears them), and every row takes the registry data stored under its row id while its plate and type are those the
 * data were read for. `coloreDelServer`: the rows' colour is the server's own and kept (the calculation's rows, or rows
 * built from the stored ones).
 */
export function conDatiDelServer(rows: Riga[], stored: Riga[], item: JsonSchema | undefined, coloreDelServer: boolean): Riga[] {
  const owned = serverOwned(item);
  const registro = owned.filter((k) => !DEL_CALCOLO.has(k));
  const byId = new Map(stored.filter((v) => typeof v?.id === 'string').map((v) => [v.id as string, v]));
  return rows.map((row) => {
    if (!row || typeof row !== 'object') return row;
    const out: Riga = { ...row };
    for (const k of owned) if (!coloreDelServer || !DEL_CALCOLO.has(k)) delete out[k];
    const prima = typeof out.id === 'string' ? byId.get(out.id) : undefined;
    if (prima && letturaDi(prima) === letturaDi(out)) {
      for (const k of registro) if (prima[k] !== undefined) out[k] = prima[k];
    }
    return out;
  });
}

/**
 * Row ids that name one row of one quotation: a row without an id, with an id repeated in the list, or with an id
 * another quotation's row has (a copy: renewal, duplicate, or a forged id) gets a new one. `own`: the quotation's
 * stored rows, whose ids stay.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function righeConIdPropri(db: Kysely<any>, rows: Riga[], own: Riga[], quotazioneId: number | undefined): Promise<void> {
  const mine = new Set(own.map((v) => v?.id).filter((id): id is string => typeof id === 'string'));
  const seen = new Set<string>();
  const strangers: Riga[] = [];
  for (const row of rows) {
    if (!row || typeof row !== 'object') continue;
    const id = typeof row.id === 'string' && row.id ? row.id : undefined;
    if (!id || seen.has(id)) row.id = randomUUID();
    else if (!mine.has(id)) strangers.push(row);
    seen.add(row.id as string);
  }
  if (!strangers.length) return;
  const ids = strangers.map((r) => r.id as string);
  const taken = await sql<{ id: string }>`
    SELECT DISTINCT v.id FROM quotazione q CROSS JOIN LATERAL unnest(quotazione_veicoli_ids(q.veicoli_storici)) AS v(id)
    WHERE quotazione_veicoli_ids(q.veicoli_storici) && ${ids}::text[] AND v.id = ANY(${ids}::text[])
      ${quotazioneId === undefined ? sql`` : sql`AND q.id <> ${quotazioneId}`}`.execute(db);
  const used = new Set(taken.rows.map((r) => r.id));
  for (const row of strangers) if (used.has(row.id as string)) row.id = randomUUID();
}

// The row ids of a quotation's historic vehicles, indexed: a row is found by its id (registry refresh, the direct
// quotation's vehicle, a copy's ids checked) without reading every quotation.
export const VEICOLI_MIGRATION: MigrationStatement[] = [
  `CREATE OR REPLACE FUNCTION quotazione_veicoli_ids(storici jsonb) RETURNS text[]
     LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT coalesce(array_agg(v->>'id') FILTER (WHERE v->>'id' IS NOT NULL), '{}'::text[])
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(storici) = 'array' THEN storici ELSE '[]'::jsonb END) v $$`,
  `CREATE INDEX IF NOT EXISTS quotazione_veicoli_ids ON quotazione USING gin (quotazione_veicoli_ids(veicoli_storici))`,
];

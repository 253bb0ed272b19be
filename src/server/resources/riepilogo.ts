// Totals of a resource's list as the user filtered it (same row scope, filters and search), grouped by some of its columns.
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { AuthUser } from '../auth/user.ts';
import type { ListQuery, ResourceRepository } from './repository.ts';
import { fromCents, toCents } from '../../shared/money.ts';

/** One row per group: the group columns, `righe` (count) and the sum of each money column, in euro with two decimals. */
export async function totaliPer(db: Database, repo: ResourceRepository, user: AuthUser, query: ListQuery, gruppi: string[], somme: string[]): Promise<Array<Record<string, unknown>>> {
  const fields = new Map(repo.def.fields.map((f) => [f.name, f]));
  for (const name of [...gruppi, ...somme]) if (!fields.has(name)) throw new Error(`${repo.def.name}: unknown column "${name}"`);
  for (const name of somme) if (fields.get(name)!.kind !== 'money') throw new Error(`${repo.def.name}: "${name}" is no money column`);
  const { where } = await repo.selection(db, user, { ...query, sort: [] });
  const keys = gruppi.map((g) => sql.ref(g));
  const rows = await sql<Record<string, unknown>>`
    SELECT ${sql.join([...keys, sql`count(*)::int AS righe`, ...somme.map((s) => sql`coalesce(sum(${sql.ref(s)}), 0)::numeric(16,2) AS ${sql.ref(s)}`)])}
    FROM ${sql.table(repo.def.name)} ${where}
    ${gruppi.length ? sql`GROUP BY ${sql.join(keys)} ORDER BY ${sql.join(keys)}` : sql``}`.execute(db);
  return rows.rows;
}

export interface Totale {
  conteggio: number;
  /** Euro with two decimals, summed in cents. */
  valori: Record<string, number>;
}

/** Groups of rows with their totals, then the grand total: the shape the statement and commission summaries answer. */
export interface Riepilogo {
  colonne: Array<{ campo: string; titolo: string }>;
  gruppi: Array<{ chiave: string; titolo: string; righe: Array<{ chiave: string; titolo: string } & Totale>; totale: Totale }>;
  totale: Totale;
}

/** Folds totaliPer's rows (already ordered by group) into groups and lines, adding up in integer cents. */
export function riepilogo(
  rows: Array<Record<string, unknown>>,
  spec: { colonne: Riepilogo['colonne']; gruppo: (r: Record<string, unknown>) => [string, string]; riga: (r: Record<string, unknown>) => [string, string] },
): Riepilogo {
  const campi = spec.colonne.map((c) => c.campo);
  const vuoto = (): { conteggio: number; cents: Record<string, number> } => ({ conteggio: 0, cents: Object.fromEntries(campi.map((c) => [c, 0])) });
  const add = (into: ReturnType<typeof vuoto>, conteggio: number, cents: Record<string, number>) => {
    into.conteggio += conteggio;
    for (const c of campi) into.cents[c]! += cents[c]!;
  };
  const out = (t: ReturnType<typeof vuoto>): Totale => ({ conteggio: t.conteggio, valori: Object.fromEntries(campi.map((c) => [c, fromCents(t.cents[c]!)])) });
  const gruppi = new Map<string, { titolo: string; righe: Array<{ chiave: string; titolo: string } & Totale>; totale: ReturnType<typeof vuoto> }>();
  const totale = vuoto();
  for (const r of rows) {
    const [chiave, titolo] = spec.gruppo(r);
    const [rigaChiave, rigaTitolo] = spec.riga(r);
    const cents = Object.fromEntries(campi.map((c) => [c, toCents(r[c] as number | null)]));
    const conteggio = Number(r.righe ?? 0);
    let g = gruppi.get(chiave);
    if (!g) gruppi.set(chiave, (g = { titolo, righe: [], totale: vuoto() }));
    const riga = vuoto();
    add(riga, conteggio, cents);
    g.righe.push({ chiave: rigaChiave, titolo: rigaTitolo, ...out(riga) });
    add(g.totale, conteggio, cents);
    add(totale, conteggio, cents);
  }
  return {
    colonne: spec.colonne,
    gruppi: [...gruppi.entries()].map(([chiave, g]) => ({ chiave, titolo: g.titolo, righe: g.righe, totale: out(g.totale) })),
    totale: out(totale),
  };
}

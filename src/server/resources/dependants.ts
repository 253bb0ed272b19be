// Counts the rows that still point at a record through foreign keys, so a refused delete can say exactly what depends on it.
import { sql, type Transaction } from 'kysely';

export interface Dependant {
  table: string;
  columns: string[];
  count: number;
}

/** Every foreign key into `table` is found in the catalogue, so resources added later are counted too. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function countDependants(trx: Transaction<any>, table: string, id: number): Promise<Dependant[]> {
  const keys = await sql<{ table: string; column: string }>`
    SELECT cl.relname AS table, a.attname AS column
    FROM pg_constraint c
    JOIN pg_class cl ON cl.oid = c.conrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    WHERE c.contype = 'f' AND c.confrelid = to_regclass(${table}) AND array_length(c.conkey, 1) = 1
    ORDER BY cl.relname, a.attname`.execute(trx);
  const byTable = new Map<string, string[]>();
  for (const key of keys.rows) byTable.set(key.table, [...(byTable.get(key.table) ?? []), key.column]);
  const out: Dependant[] = [];
  for (const [dependant, columns] of byTable) {
    // A row pointing at the record from two columns counts once.
    const match = sql.join(columns.map((c) => sql`${sql.ref(c)} = ${id}`), sql` OR `);
    const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(dependant)} WHERE ${match}`.execute(trx);
    const count = row.rows[0]!.n;
    if (count > 0) out.push({ table: dependant, columns, count });
  }
  return out;
}

/** "3 prodotti a mandato e 1 polizza": nouns per dependant table (singular, plural), the table name when unknown. */
export function describeDependants(dependants: Dependant[], nouns: Record<string, [string, string]>): string {
  const parts = dependants.map(({ table, count }) => {
    const noun = nouns[table];
    return noun ? `${count} ${count === 1 ? noun[0] : noun[1]}` : `${count} record in ${table}`;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} e ${parts.at(-1)}` : parts[0] ?? '';
}

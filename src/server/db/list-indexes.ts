// The indexes a list's keyset seeks and deferred pages walk, derived from the definitions: every column a list sorts
// or filters on (and the row scope's) paired with id, the tie-breaker every list order ends with. With (column, id)
// a page after a cursor is one index range at any depth, and the ids of a deep page an index-only walk.
import type { ResourceDefinition } from '../../shared/definitions/types.ts';

/** The stored scalar columns a list sorts or filters on, and the row scope's: id alone is the primary key already, json has no btree order worth a seek. */
export function listColumns(def: ResourceDefinition): string[] {
  const columns = new Set<string>();
  for (const c of def.list.columns) if (c.sortable || c.filter) columns.add(c.field);
  if (def.list.defaultSort) columns.add(def.list.defaultSort.replace(/^-/, ''));
  if (def.resource.rowScope) columns.add(def.resource.rowScope.field);
  const stored = new Map(def.fields.map((f) => [f.name, f]));
  return [...columns].filter((column) => {
    const field = stored.get(column);
    return column !== 'id' && field && field.kind !== 'json' && !field.writeOnly;
  });
}

/** [name, CREATE INDEX statement] of each keyset index of a resource's table (names within PostgreSQL's 63 bytes). */
export function listIndexes(def: ResourceDefinition): Array<[string, string]> {
  const table = def.name;
  return listColumns(def).map((column) => {
    const name = `keyset_${table}_${column}`.toLowerCase().slice(0, 63);
    return [name, `CREATE INDEX "${name}" ON "${table}" ("${column}", id)`] as [string, string];
  });
}

// Keyset paging for the generic list: an opaque cursor names the last row a client saw by its sort values and id, and
// the next page is the rows after it in the same order. A seek costs what page 1 costs at any depth, and a row
// inserted meanwhile never shows twice (OFFSET would shift every later page by one).
import { sql, type Expression, type SqlBool } from 'kysely';
import type { FieldKind } from '../../shared/definitions/types.ts';
import { isCalendarDate } from '../../shared/dates.ts';
import { INT4_MAX } from '../http/contract.ts';
import { invalid } from '../errors.ts';

export type KeyValue = string | number | boolean | null;

const BAD_CURSOR = 'Cursore non valido: ricarica l\'elenco';

/** The cursor after `row` in `order` (`-name` descending, ending with id). */
export function encodeCursor(order: string[], row: Record<string, unknown>): string {
  const values = order.map((key) => {
    const value = row[key.replace(/^-/, '')];
    return value instanceof Date ? value.toISOString() : (value ?? null);
  });
  return Buffer.from(JSON.stringify({ o: order.join(','), v: values })).toString('base64url');
}

/**
 * The values a cursor carries, checked against the order and each key's kind: a cursor is client input, and a value
 * PostgreSQL cannot compare with the column (text for an integer) must answer 422, never a 500.
 */
export function decodeCursor(cursor: string, order: string[], kindOf: (name: string) => FieldKind | undefined): KeyValue[] {
  const bad = () => invalid({ cursor: [BAD_CURSOR] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const { o, v } = (parsed ?? {}) as { o?: unknown; v?: unknown };
  // A cursor from another order would seek the wrong column.
  if (o !== order.join(',') || !Array.isArray(v) || v.length !== order.length) throw bad();
  return order.map((key, i) => {
    const value: unknown = v[i];
    const name = key.replace(/^-/, '');
    if (value === null) {
      if (name === 'id') throw bad();
      return null;
    }
    const kind = name === 'id' ? 'integer' : kindOf(name);
    const ok = (() => {
      switch (kind) {
        case 'integer': return Number.isSafeInteger(value) && Math.abs(value as number) <= INT4_MAX;
        case 'money': return Number.isSafeInteger(value);
        case 'number': return typeof value === 'number' && Number.isFinite(value);
        case 'boolean': return typeof value === 'boolean';
        case 'date': return typeof value === 'string' && isCalendarDate(value);
        case 'datetime': return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/.test(value) && !Number.isNaN(Date.parse(value));
        case 'text': return typeof value === 'string' && value.length <= 10_000 && !value.includes('\u0000');
        default: return false;
      }
    })();
    if (!ok) throw bad();
    return value as KeyValue;
  });
}

/**
 * The rows after `values` in `order`, with PostgreSQL's default nulls (last ascending, first descending), as the list's
 * ORDER BY has them. The first key's bound is repeated on its own so the planner seeks the (key, id) index there.
 */
export function afterCondition(order: string[], values: KeyValue[], valuesOnly = false): Expression<SqlBool> {
  const ref = (key: string) => sql.ref(key.replace(/^-/, ''));
  // One key and id in one direction, from a value: a row comparison, which the (key, id) index seeks to exactly. The
  // expanded form below seeks to the value and filters its ties, thousands of them on a date column. Null rows fail
  // the comparison: descending they come before any value, ascending valuesOnly leaves them to the caller.
  const [key, last] = order;
  if (order.length === 2 && last === (key?.startsWith('-') ? '-id' : 'id') && values[0] !== null && values[1] !== null
    && (key!.startsWith('-') || valuesOnly)) {
    return key!.startsWith('-')
      ? sql<SqlBool>`(${ref(key!)}, id) < (${values[0]}, ${values[1]})`
      : sql<SqlBool>`(${ref(key!)}, id) > (${values[0]}, ${values[1]})`;
  }
  const equal = (key: string, value: KeyValue) => (value === null ? sql<SqlBool>`${ref(key)} IS NULL` : sql<SqlBool>`${ref(key)} = ${value}`);
  const beyond = (key: string, value: KeyValue, first: boolean): Expression<SqlBool> | undefined => {
    if (key.startsWith('-')) return value === null ? sql<SqlBool>`${ref(key)} IS NOT NULL` : sql<SqlBool>`${ref(key)} < ${value}`;
    if (value === null) return undefined; // nothing sorts after null ascending but other nulls, by the next key
    return key === 'id' || (first && valuesOnly) ? sql<SqlBool>`${ref(key)} > ${value}` : sql<SqlBool>`(${ref(key)} > ${value} OR ${ref(key)} IS NULL)`;
  };
  const alternatives: Expression<SqlBool>[] = [];
  for (let i = 0; i < order.length; i++) {
    const after = beyond(order[i]!, values[i]!, i === 0);
    if (!after) continue;
    alternatives.push(sql<SqlBool>`(${sql.join([...order.slice(0, i).map((key, j) => equal(key, values[j]!)), after], sql` AND `)})`);
  }
  const any = alternatives.length ? sql<SqlBool>`(${sql.join(alternatives, sql` OR `)})` : sql<SqlBool>`false`;
  const [first] = order;
  const value = values[0];
  if (first === undefined || value === null || value === undefined) return any;
  // The first key never goes back: a plain range the index serves (ascending the nulls stay after every value).
  const bound = first.startsWith('-') ? sql<SqlBool>`${ref(first)} <= ${value}`
    : first === 'id' || valuesOnly ? sql<SqlBool>`${ref(first)} >= ${value}` : sql<SqlBool>`(${ref(first)} >= ${value} OR ${ref(first)} IS NULL)`;
  return sql<SqlBool>`${bound} AND ${any}`;
}

/**
 * Ascending on a column that may hold nulls (they sort after every value), from a value: the rows after the cursor
 * are those after it among the values, then every null. Read as two seeks of the (column, id) index (`afterCondition`
 * with `valuesOnly`, then `<column> IS NULL`): one condition with `OR <column> IS NULL` made the planner walk the
 * index from its start (25-35 ms four tenths into 1 000 000 rows, against 2 ms descending). Undefined otherwise.
 */
export function nullsApart(order: string[], values: KeyValue[]): string | undefined {
  const [first] = order;
  return first && !first.startsWith('-') && first !== 'id' && values[0] !== null && values[0] !== undefined ? first : undefined;
}

// The SQL of a search over a text property of an array's objects (a quotation's plates), shared by the search
// condition and the expression index that serves it: PostgreSQL uses the index only for the very same expression.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `upper(<the values of array[].key as a JSON array's text>)`; the names are checked identifiers, never user input. */
export function nestedTextSql(array: string, key: string): string {
  if (!IDENTIFIER.test(array) || !IDENTIFIER.test(key)) throw new Error(`not a property name: ${array}[].${key}`);
  return `upper(jsonb_path_query_array("${array}", '$[*]."${key}"')::text)`;
}

/** `array[].key` → [array, key]; undefined for a plain property. */
export function nestedEntry(entry: string): [string, string] | undefined {
  const match = /^([A-Za-z_]\w*)\[\]\.([A-Za-z_]\w*)$/.exec(entry);
  return match ? [match[1]!, match[2]!] : undefined;
}

/**
 * The value a prefix search compares (cerca `"match": "prefix"`), shared with its btree text_pattern_ops index: the
 * stored value of an upper-cased property, else its lower case. `word` in the same case, as a LIKE prefix pattern.
 */
export function prefixSql(column: string, uppercase: boolean): string {
  if (!IDENTIFIER.test(column)) throw new Error(`not a property name: ${column}`);
  return uppercase ? `"${column}"` : `lower("${column}")`;
}

// Letters with accents (Italian, and the European names a register holds) and the letter each reads as in a search.
// Ø, Ł, Đ have no decomposition: named by hand.
const ACCENTED = 'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆČçćčĎĐďđÈÉÊËĒĘĚèéêëēęěÌÍÎÏĪìíîïīŁłÑŃŇñńňÒÓÔÕÖØŌŐòóôõöøōőŘřŚŠŞśšşŤťÙÚÛÜŪŮŰùúûüūůűÝŸýÿŹŻŽźżž';
const PLAIN = [...ACCENTED].map((c) => ({ Ø: 'O', ø: 'o', Ł: 'L', ł: 'l', Đ: 'D', đ: 'd' })[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '')).join('');

/**
 * Text as a list's search compares it: lower case, accents taken off ('Niccolò' and 'NICCOLO' both read 'niccolo').
 * Plain SQL (translate), not the unaccent extension: the same on every server, immutable so an index holds it, and an
 * index built on one server is valid on another. The lists' trigram indexes are on this very expression.
 */
export const TESTO_CERCABILE_FUNCTION = `CREATE OR REPLACE FUNCTION testo_cercabile(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $f$ SELECT lower(translate(t, '${ACCENTED}', '${PLAIN}')) $f$`;

/** `testo_cercabile("column")`: what the search compares and its trigram index holds. */
export function searchableSql(column: string): string {
  if (!IDENTIFIER.test(column)) throw new Error(`not a property name: ${column}`);
  return `testo_cercabile("${column}")`;
}

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

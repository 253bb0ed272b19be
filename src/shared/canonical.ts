// Client input in canonical form: second spellings ("x-aliases", e.g. plate_number for targa) renamed, and rows
// inside arrays trimmed and upper-cased as their schema asks (top-level fields are normalised by normalizeInput).
import type { JsonSchema } from './definitions/types.ts';

function aliasMap(properties: Record<string, JsonSchema> | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, prop] of Object.entries(properties ?? {})) {
    for (const alias of (prop['x-aliases'] as string[] | undefined) ?? []) map.set(alias, name);
  }
  return map;
}

function rename(value: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const aliases = aliasMap(schema.properties);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = aliases.get(key) ?? key;
    // The canonical spelling wins when a client sends both.
    if (name !== key && key in value && name in value) continue;
    const prop = schema.properties?.[name];
    const items = prop?.items;
    out[name] = Array.isArray(v) && items?.properties
      ? v.map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? normalizeRow(rename(item as Record<string, unknown>, items), items) : item))
      : v;
  }
  return out;
}

function normalizeRow(row: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    const trimmed = value.trim();
    // An empty cell means no value: leaving it out lets "required" speak instead of a format error.
    if (trimmed === '') continue;
    out[key] = schema.properties?.[key]?.['x-uppercase'] === true ? trimmed.toUpperCase() : trimmed;
  }
  return out;
}

/** The input with every alias renamed (top level and inside arrays of objects) and array rows normalised. */
export function canonicalInput(input: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  return rename(input, schema);
}

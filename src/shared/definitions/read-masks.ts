// Read permissions inside a property: "x-read-permission" on a nested property (an array's items, an object's
// properties) hides that part, and on a oneOf/anyOf option hides that value (a colour only some may see). The field's
// own x-read-permission is FieldDefinition.readPermission; this covers what lies below it.
import type { JsonSchema, ListConfig, ResourceDefinition } from './types.ts';
import { hasPermission, type Grants } from '../permissions.ts';

export type ReadMask = (value: unknown, user: Grants | undefined) => unknown;

export interface FieldMask {
  mask: ReadMask;
  /** Every permission expression the mask tests: who holds them all sees the value unchanged. */
  permissions: string[];
  /** Permissions guarding values of the field itself (not of its parts): filtering or sorting by it would tell them. */
  valuePermissions: string[];
}

/** Each read permission below a property, with its JSON pointer relative to the property (for the start-up checks). */
export function nestedReadPermissions(node: JsonSchema | undefined, pointer = ''): Array<[string, string]> {
  if (!node || typeof node !== 'object') return [];
  const out: Array<[string, string]> = [];
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const options = node[keyword];
    if (!Array.isArray(options)) continue;
    options.forEach((option: JsonSchema, i) => {
      if (typeof option?.['x-read-permission'] === 'string') out.push([`${pointer}/${keyword}/${i}/x-read-permission`, option['x-read-permission']]);
    });
  }
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (typeof child?.['x-read-permission'] === 'string') out.push([`${pointer}/properties/${name}/x-read-permission`, child['x-read-permission']]);
    out.push(...nestedReadPermissions(child, `${pointer}/properties/${name}`));
  }
  if (node.items && typeof node.items === 'object') {
    if (typeof node.items['x-read-permission'] === 'string') out.push([`${pointer}/items/x-read-permission`, node.items['x-read-permission']]);
    out.push(...nestedReadPermissions(node.items, `${pointer}/items`));
  }
  return out;
}

/** The values of an option list that only some may read: const -> permission. */
function guardedValues(node: JsonSchema): Map<unknown, string> {
  const out = new Map<unknown, string>();
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const options = node[keyword];
    if (!Array.isArray(options)) continue;
    for (const option of options as JsonSchema[]) {
      if (option && 'const' in option && typeof option['x-read-permission'] === 'string') out.set(option.const, option['x-read-permission']);
    }
  }
  return out;
}

/** How a stored value of this property is answered to a user, or undefined when nothing below it is guarded. */
export function maskOf(node: JsonSchema | undefined): FieldMask | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const values = guardedValues(node);
  const children = Object.entries(node.properties ?? {}).flatMap(([name, child]) => {
    const own = typeof child?.['x-read-permission'] === 'string' ? child['x-read-permission'] : undefined;
    const inner = maskOf(child);
    return own || inner ? [{ name, own, inner }] : [];
  });
  const itemOwn = typeof node.items?.['x-read-permission'] === 'string' ? node.items['x-read-permission'] : undefined;
  const items = maskOf(node.items);
  if (!values.size && !children.length && !itemOwn && !items) return undefined;
  const valuePermissions = [...new Set(values.values())];
  const permissions = new Set([
    ...valuePermissions,
    ...children.flatMap((c) => [...(c.own ? [c.own] : []), ...(c.inner?.permissions ?? [])]),
    ...(itemOwn ? [itemOwn] : []),
    ...(items?.permissions ?? []),
  ]);
  const mask: ReadMask = (value, user) => {
    if (value === null || value === undefined) return value;
    if (values.size) {
      const permission = values.get(value);
      if (permission && !hasPermission(permission, user)) return null;
    }
    if (Array.isArray(value) && (itemOwn || items)) {
      return value.map((item) => (itemOwn && !hasPermission(itemOwn, user) ? null : items ? items.mask(item, user) : item));
    }
    if (children.length && typeof value === 'object' && !Array.isArray(value)) {
      const out = { ...(value as Record<string, unknown>) };
      for (const { name, own, inner } of children) {
        if (!(name in out)) continue;
        out[name] = own && !hasPermission(own, user) ? null : inner ? inner.mask(out[name], user) : out[name];
      }
      return out;
    }
    return value;
  };
  return { mask, permissions: [...permissions], valuePermissions };
}

/**
 * The list as this user may see it: columns and filters of fields the user may not read (x-read-permission) left out,
 * so the screen and the export show no empty column for them.
 */
export function listFor(def: ResourceDefinition, user: Grants | undefined): ListConfig {
  const hidden = new Set(def.fields.filter((f) => f.readPermission && !hasPermission(f.readPermission, user)).map((f) => f.name));
  if (!hidden.size) return def.list;
  const shown = (field: string) => !hidden.has(field);
  return {
    ...def.list,
    columns: def.list.columns.filter((c) => shown(c.field)),
    ...(def.list.filters ? { filters: def.list.filters.filter((f) => shown(f.property ?? f.field)) } : {}),
  };
}

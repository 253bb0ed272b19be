// Pure helpers for the form controller: what to send on create/update, dirtiness, server errors → rjsf errors.
import type { ErrorSchema } from '@rjsf/utils';
import type { FormUi, JsonSchema, RecordData } from '../types.ts';
import { formatDate, formatMoney } from '../lib/format.ts';
import { hiddenFields } from './layout.ts';
import { optionTitles } from '../../shared/enumTitle.ts';

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

export function sameValue(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * The editable part of a record: what the form starts from. Empty values are left out, also the server's own ones inside
 * rows (`schema`): a null there is a value not computed yet or not for this user to read, with nothing to show or check.
 */
export function pickFields(record: RecordData | undefined, fields: string[], schema?: JsonSchema): RecordData {
  const out: RecordData = {};
  for (const field of fields) {
    if (record && record[field] !== undefined && record[field] !== null) out[field] = withoutEmptyServerOwned(record[field], schema?.properties?.[field] as JsonSchema | undefined);
  }
  return out;
}

const withoutEmptyServerOwned = (value: unknown, schema: JsonSchema | undefined) => pruned(value, schema, (v, prop) => v === null && prop?.readOnly === true);

/** The value without the object keys, at any depth, that `drop` refuses (given the key's value and schema). */
function pruned(value: unknown, schema: JsonSchema | undefined, drop: (value: unknown, prop: JsonSchema | undefined) => boolean): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return schema.items ? value.map((v) => pruned(v, schema.items as JsonSchema, drop)) : value;
  if (!schema.properties) return value;
  const out: RecordData = {};
  for (const [k, v] of Object.entries(value as RecordData)) {
    const prop = schema.properties[k] as JsonSchema | undefined;
    if (!drop(v, prop)) out[k] = pruned(v, prop, drop);
  }
  return out;
}

export function changedFields(data: RecordData, original: RecordData, fields: string[]): string[] {
  return fields.filter((field) => !sameValue(data[field], original[field]));
}

/**
 * A field's value without the parts its schema marks readOnly below it (a vehicle row's registry data): the form shows
 * them as loaded, but they are the server's, and a copy sent back could only be stale.
 */
export function withoutServerOwned(value: unknown, schema: JsonSchema | undefined): unknown {
  return pruned(value, schema, (_, prop) => prop?.readOnly === true);
}

const sendable = (data: RecordData, field: string, schema?: JsonSchema) => withoutServerOwned(data[field], schema?.properties?.[field] as JsonSchema | undefined);

/** POST body: every filled, visible, editable field (`schema`: the entity's, whose nested read-only parts stay home). */
export function createBody(data: RecordData, fields: string[], formUi: FormUi, schema?: JsonSchema): RecordData {
  const hidden = hiddenFields(formUi, data);
  const body: RecordData = {};
  for (const field of fields) if (!hidden.has(field) && !isEmpty(data[field])) body[field] = sendable(data, field, schema);
  return body;
}

/** PUT body: changed visible fields (a cleared one as null, so the server clears it) plus the loaded version. */
export function updateBody(data: RecordData, original: RecordData, fields: string[], formUi: FormUi, schema?: JsonSchema): RecordData {
  const hidden = hiddenFields(formUi, data);
  const body: RecordData = {};
  for (const field of changedFields(data, original, fields)) {
    if (!hidden.has(field)) body[field] = isEmpty(data[field]) ? null : sendable(data, field, schema);
  }
  if (original.version !== undefined) body.version = original.version;
  return body;
}

/** Laravel-style {"a.b": [messages]} → rjsf ErrorSchema {a: {b: {__errors: [...]}}}. */
export function toErrorSchema(errors: Record<string, string[]>): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const [path, messages] of Object.entries(errors)) {
    let node = root;
    for (const part of path.split('.').filter(Boolean)) node = (node[part] ??= {}) as Record<string, unknown>;
    const list = ((node.__errors as string[] | undefined) ??= []);
    list.push(...(Array.isArray(messages) ? messages : [String(messages)]));
  }
  return root as ErrorSchema;
}

/** Drops the server errors of fields the user has changed since, so stale messages do not linger. */
export function withoutErrorsOf(errors: ErrorSchema | undefined, fields: string[]): ErrorSchema | undefined {
  if (!errors || !fields.length) return errors;
  const next = { ...(errors as Record<string, unknown>) };
  let removed = false;
  for (const field of fields) {
    if (!(field in next)) continue;
    delete next[field];
    removed = true;
  }
  if (!removed) return errors;
  return Object.keys(next).length ? (next as ErrorSchema) : undefined;
}

/** How a value reads to a person: enum titles, Italian dates and money, Sì/No. */
export function displayValue(prop: JsonSchema | undefined, value: unknown): string {
  if (isEmpty(value)) return '(vuoto)';
  // An option's title, or its code made readable: a person never reads a raw code.
  const option = optionTitles(prop as Parameters<typeof optionTitles>[0])?.get(value);
  if (option) return option;
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  if (prop?.format === 'date') return formatDate(value);
  if (prop?.['x-money'] === true) return formatMoney(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

// Form validators compiled on the server (ajv standalone code), so the browser validates without eval and the
// Content-Security-Policy needs no 'unsafe-eval'. Same ajv set-up as everywhere (src/shared/validation.ts).
import { createHash } from 'node:crypto';
import { hashForSchema, schemaParser, type RJSFSchema } from '@rjsf/utils';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import type { Ajv } from 'ajv';
import { STANDALONE_FORMATS, VALIDATION_RUNTIME, configureAjv } from '../../shared/validation.ts';
import type { JsonSchema } from '../../shared/definitions/types.ts';

/** Modules the generated code may require: ajv's run-time helpers and ours; the client maps the same names. */
export const RUNTIME_MODULES = [
  'ajv/dist/runtime/equal', 'ajv/dist/runtime/ucs2length', 'ajv/dist/runtime/uri', 'ajv/dist/runtime/validation_error', VALIDATION_RUNTIME,
];

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependencies', 'dependentSchemas', '$defs', 'definitions'];
const SUBSCHEMA_ONE = ['if', 'then', 'else', 'not', 'items', 'additionalProperties', 'contains', 'propertyNames'];

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every sub-schema of a schema, each once (depth first). */
export function subSchemas(schema: JsonSchema, out: JsonSchema[] = []): JsonSchema[] {
  const visit = (node: unknown) => {
    if (!isSchema(node)) return;
    out.push(node);
    subSchemas(node, out);
  };
  const record = schema as Record<string, unknown>;
  for (const key of SUBSCHEMA_ONE) visit(record[key]);
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(record[key])) (record[key] as unknown[]).forEach(visit);
  for (const key of SUBSCHEMA_MAPS) if (isSchema(record[key])) Object.values(record[key] as object).forEach(visit);
  return out;
}

/**
 * The sub-schemas rjsf may pass to validator.isValid besides those its own schemaParser collects: schemaParser
 * expands both branches of an if/then/else without asking about the `if`, yet retrieveSchema asks about each `if`
 * at run time; oneOf/anyOf options are added as well so a matching option is always answerable.
 */
export function conditionSchemas(schema: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  const visit = (node: JsonSchema) => {
    const record = node as Record<string, unknown>;
    if (isSchema(record.if)) out.push(record.if);
    for (const key of ['oneOf', 'anyOf']) {
      if (Array.isArray(record[key])) for (const option of record[key] as unknown[]) if (isSchema(option)) out.push(option);
    }
  };
  visit(schema);
  subSchemas(schema).forEach(visit);
  return out;
}

/**
 * The standalone module of one form schema: one validate function per schema rjsf may ask about, keyed by the id
 * rjsf's precompiled validator looks up (hashForSchema). The code is CommonJS inside a function of `require`, so the
 * browser passes in the bundled run-time helpers (the same objects the server's ajv uses).
 */
export function compileFormModule(schema: JsonSchema): string {
  const known = new Set(Object.keys(schemaParser(schema as RJSFSchema)));
  const extra = new Map<string, JsonSchema>();
  for (const node of conditionSchemas(schema)) {
    const id = hashForSchema(node as RJSFSchema);
    if (!known.has(id)) extra.set(id, node);
  }
  const code = compileSchemaValidatorsCode(schema as RJSFSchema, {
    ajvOptionsOverrides: { code: { esm: false, lines: false, source: true, formats: STANDALONE_FORMATS } },
    extenderFn: (ajv) => {
      configureAjv(ajv as unknown as Ajv);
      for (const [id, node] of extra) ajv.addSchema({ ...node, $id: id });
      return ajv;
    },
  });
  const required = new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
  const unknown = [...required].filter((name) => !RUNTIME_MODULES.includes(name));
  // A helper the client does not provide would fail only when a form uses it: refuse here, loudly.
  if (unknown.length) throw new Error(`Codice di validazione con moduli non previsti: ${unknown.join(', ')}`);
  return `export default function (require) {\nconst module = { exports: {} }; const exports = module.exports;\n${code}\nreturn module.exports;\n}\n`;
}

/** What the module's address carries: its content changes with the schema and with this server's code. */
export function moduleKey(schema: JsonSchema, version: string): string {
  return createHash('sha256').update(version).update('\0').update(JSON.stringify(schema)).digest('hex').slice(0, 32);
}

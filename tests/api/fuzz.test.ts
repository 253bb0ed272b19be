// Property-based test (fast-check) derived from the generated OpenAPI document, for every operation:
// valid and invalid bodies, query strings and path values. Asserts no 5xx, no 2xx for an invalid body or
// query, and nothing written by a refused request. Fixed seed and bounded runs: FUZZ_SEED / FUZZ_RUNS override.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { sql } from 'kysely';
import { createAjv } from '../../src/shared/validation.ts';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const INT4 = 2147483647;

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

let t: TestApp;
let admin: string;
let doc: Doc;

/** Inlines #/components/schemas references, so ajv and the generators see whole schemas. */
function deref(schema: unknown, depth = 0): any {
  if (depth > 20 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => deref(s, depth + 1));
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    const { $ref: _, ...rest } = s;
    return deref({ ...doc.components.schemas[name], ...rest }, depth + 1);
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, deref(v, depth + 1)]));
}

function isoDate(d: Date) {
  return d.toISOString().slice(0, 10);
}

/** Values a schema accepts (as far as a generator can tell: patterns and formats get plausible text). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((b: Schema) => valid(b, depth + 1)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
  switch (type) {
    case 'integer': return fc.integer({ min: Math.max(schema.minimum ?? -1000, -INT4 - 1), max: Math.min(schema.maximum ?? 100000, INT4) });
    case 'number': return fc.double({ min: schema.minimum ?? -1e6, max: Math.min(schema.maximum ?? 1e6, 1e9), noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 100) / 100);
    case 'boolean': return fc.boolean();
    case 'string': {
      if (schema.format === 'date') return fc.date({ min: new Date('1950-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map(isoDate);
      if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.emailAddress();
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) });
    }
    case 'array': return fc.array(valid(schema.items ?? {}, depth + 1), { maxLength: Math.min(schema.maxItems ?? 2, 2) });
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([, p]) => p.readOnly !== true);
      if (!props.length) return fc.constant({});
      const required = (schema.required ?? []) as string[];
      return fc.record(Object.fromEntries(props.map(([k, p]) => [k, valid(p, depth + 1)])), { requiredKeys: props.map(([k]) => k).filter((k) => required.includes(k)) });
    }
    case 'null': return fc.constant(null);
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Hostile values: wrong types, values past the bounds, impossible dates, NUL characters, huge numbers. */
function candidates(schema: Schema): unknown[] {
  const n = (schema.maxLength as number | undefined) ?? 300;
  return [
    { nested: { deep: 1 } }, [1, 2], 'testo', 'yes', 123456, -500, 2 ** 31 + 5, 1e15, 1.5, true, 'x'.repeat(n + 1), 'Ma\u0000rio',
    '2026-02-30', 'notadate', '__proto__', [{ a: 1 }],
    ...(typeof schema.maximum === 'number' ? [schema.maximum + 1] : []),
    ...(typeof schema.minimum === 'number' ? [schema.minimum - 1] : []),
  ];
}

describe('fuzzing every operation of the OpenAPI document', () => {
  const bodyAjv = createAjv();
  const textAjv = new Ajv({ strict: false, coerceTypes: 'array', allErrors: false });
  addFormats(textAjv);
  const accepts = (ajv: Ajv, schema: Schema, value: unknown) => {
    try {
      return ajv.validate(schema, value) as boolean;
    } catch {
      return true;
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login(ADMIN.email, ADMIN.password);
    doc = (await t.call('GET', '/api/openapi.json')).body;
  });
  afterAll(() => t?.close());

  /** A cheap fingerprint of every stored record: any write changes a count or a version sum. */
  async function fingerprint(): Promise<string> {
    const tables = Object.keys(doc.components.schemas).filter((n) => n !== 'Error' && !n.endsWith('_input') && !n.startsWith('def-'));
    const parts = [...tables.map((name) => sql`SELECT ${name} AS t, count(*)::text || ':' || coalesce(sum(version), 0)::text AS f FROM ${sql.table(name)}`),
      sql`SELECT 'workflow_history' AS t, count(*)::text AS f FROM workflow_history`,
      sql`SELECT 'user_preference' AS t, count(*)::text || ':' || coalesce(md5(string_agg(value::text, ',' ORDER BY key)), '') AS f FROM user_preference`];
    const rows = await sql<{ t: string; f: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(t.connection.db);
    return rows.rows.map((r) => `${r.t}=${r.f}`).join(';');
  }

  it('answers no 5xx, accepts no invalid input and writes nothing when it refuses', async () => {
    const started = Date.now();
    const figures = { operations: 0, inputs: 0, serverErrors: 0, wronglyAccepted: 0, refusedButWrote: 0 };
    const failures: string[] = [];
    let seed = SEED;

    let stored = await fingerprint();
    const send = async (method: string, url: string, body: unknown, invalidInput: boolean, label: string) => {
      const before = stored;
      const res = await t.app.inject({
        method: method as 'GET', url, headers: { authorization: `Bearer ${admin}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      figures.inputs++;
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      if (res.statusCode >= 500) {
        figures.serverErrors++;
        failures.push(`${res.statusCode} ${method} ${url} ${label} ${JSON.stringify(body)?.slice(0, 300)} -> ${res.body.slice(0, 200)}`);
      } else if (invalidInput && ok) {
        figures.wronglyAccepted++;
        failures.push(`accepted ${method} ${url} ${label} ${JSON.stringify(body)?.slice(0, 300)}`);
      }
      stored = await fingerprint();
      if (!ok && stored !== before) {
        figures.refusedButWrote++;
        failures.push(`refused ${res.statusCode} but wrote: ${method} ${url} ${label}`);
      }
    };

    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Logging out would end the session the fuzzer runs with; logging in is covered by the auth tests.
        if (path === '/api/api_logout' || path === '/api/login') continue;
        figures.operations++;
        const params = ((operation.parameters ?? []) as Schema[]).map((p): Schema => ({ ...p, schema: deref(p.schema) }));
        const pathParams = params.filter((p) => p.in === 'path');
        const queryParams = params.filter((p) => p.in === 'query');
        const bodySchema = deref(operation.requestBody?.content?.['application/json']?.schema);
        const build = (values: Record<string, string>, query: Record<string, string>) => {
          const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? '1'));
          const qs = new URLSearchParams(query).toString();
          return qs ? `${url}?${qs}` : url;
        };
        const upper = method.toUpperCase();

        // Path values: real ids and hostile ones (a hostile value must never be a 5xx nor change anything).
        for (const value of ['1', 'abc', '99999999999999', '-1', '1e3', 'a\u0000b']) {
          const values = Object.fromEntries(pathParams.map((p) => [p.name, value]));
          if (pathParams.length) await send(upper, build(values, {}), bodySchema ? {} : undefined, false, `path=${JSON.stringify(value)}`);
        }

        // Query strings from the declared parameters; invalid ones per parameter.
        if (queryParams.length) {
          const queries = fc.sample(fc.record(Object.fromEntries(queryParams.map((p) => [p.name, valid(p.schema).map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))])), { requiredKeys: [] }), { seed: seed++, numRuns: RUNS });
          for (const query of queries) await send(upper, build({}, query as Record<string, string>), undefined, false, `query=${JSON.stringify(query)}`);
          for (const p of queryParams) {
            for (const bad of candidates(p.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))) {
              if (accepts(textAjv, { type: 'object', properties: { [p.name]: p.schema } }, { [p.name]: bad })) continue;
              await send(upper, build({}, { [p.name]: bad }), undefined, true, `query ${p.name}=${JSON.stringify(bad)}`);
            }
          }
        }

        // List operations: hostile filters on every field of the listed records.
        const listed = deref(operation.responses?.['200']?.content?.['application/json']?.schema)?.properties?.data?.items?.properties;
        if (upper === 'GET' && listed) {
          const fields = [...Object.keys(listed), '__proto__', 'constructor'];
          const values = ['a\u0000b', '99999999999', '2026-02-30', 'notadate', '1,2', '%_\\', ''];
          const picks = fc.sample(fc.tuple(fc.constantFrom(...fields), fc.constantFrom('', '[from]', '[to]'), fc.constantFrom(...values)), { seed: seed++, numRuns: RUNS * 4 });
          for (const [field, op, value] of picks) {
            const invalidFilter = field === '__proto__' || field === 'constructor' || value.includes('\u0000');
            await send('GET', `${path}?${encodeURIComponent(`filter[${field}]${op}`)}=${encodeURIComponent(value)}`, undefined, invalidFilter, `filter[${field}]${op}`);
          }
        }

        if (!bodySchema) continue;
        const values = Object.fromEntries(pathParams.map((p) => [p.name, '1']));
        const url = build(values, {});
        // Valid bodies: whatever the server answers, never a 5xx.
        for (const body of fc.sample(valid(bodySchema), { seed: seed++, numRuns: RUNS })) await send(upper, url, body, false, 'valid body');
        // Invalid bodies: one property replaced by a value its schema refuses, or a body that is no object.
        const props = Object.entries((bodySchema.properties ?? {}) as Record<string, Schema>).filter(([, p]) => p.readOnly !== true);
        const base = fc.sample(valid(bodySchema), { seed: seed++, numRuns: RUNS });
        const invalidBodies: unknown[] = bodySchema.type === 'object' ? [[1, 2], 'testo', 42] : [];
        if (props.length) {
          const picks = fc.sample(fc.tuple(fc.constantFrom(...props), fc.nat()), { seed: seed++, numRuns: RUNS * 3 });
          picks.forEach(([[name, prop], i], k) => {
            const bad = candidates(prop).filter((v) => !accepts(bodyAjv, prop, v));
            if (!bad.length) return;
            invalidBodies.push({ ...(base[k % base.length] as object), [name]: bad[i % bad.length] });
          });
        }
        for (const body of invalidBodies) {
          // Only what the document itself refuses counts as invalid.
          if (accepts(bodyAjv, bodySchema, body)) continue;
          await send(upper, url, body, true, 'invalid body');
        }
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`fuzz: seed ${SEED}, ${RUNS} runs: ${figures.operations} operations, ${figures.inputs} inputs, ${figures.serverErrors} answers 5xx, `
      + `${figures.wronglyAccepted} invalid inputs accepted, ${figures.refusedButWrote} refused requests that wrote, ${seconds} s`);
    expect(failures.slice(0, 30)).toEqual([]);
    expect(figures.operations).toBeGreaterThan(50);
  }, 120_000);
});

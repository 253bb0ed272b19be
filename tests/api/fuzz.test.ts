// Property-based test (fast-check) derived from the generated OpenAPI document, for every operation (the document lists
// every registered route, tests/api/openapi.test.ts): valid and invalid bodies, query strings and path values, plus the
// shapes an outside generator found 5xx with (null and missing bodies, hostile path ids, JSON nested 10 000 levels) and
// others (arrays for objects, numbers past a double, lone surrogates, NUL, duplicate keys, other content types, bodies on
// GET). Asserts no 5xx, no 2xx for an invalid input, and nothing written by a refused request. Fixed seed and bounded
// runs: FUZZ_SEED / FUZZ_RUNS override. The figures print as `fuzz: seed ..., N operations, N inputs, ...`:
//   DATABASE_URL=... npx vitest run --config tests/vitest.config.ts --project api tests/api/fuzz.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { sql } from 'kysely';
import { createAjv } from '../../src/shared/validation.ts';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
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

/** Hostile path values: signs, fractions, exponents, hex, past int32 and int64, invisible marks, NUL, empty. */
const PATH_VALUES = ['1', '0', '-1', '1.5', '1e3', '0x10', 'abc', '2147483648', '99999999999999999999', '\u200f', '1\u200f', 'a\u0000b', '',
  '01', '1.0', '1e0', '0x1', '+1', ' 1'];
/** Spellings of 1 that a strict id parser refuses (a 2xx on them is an invalid input accepted). */
const ONE_IN_DISGUISE = ['01', '1.0', '1e0', '0x1', '+1', ' 1', '1\u200f'];
const INTEGER_ID = /^(id|.*Id)$/;
/** Routes whose id is a text key, not a record's integer id (a historic vehicle's row id, e.g. 'v-1'). */
const STRING_IDS = new Set(['PUT /api/v1/goold/vehicles/{id}', 'POST /api/veicolo_update_dati_ania/{id}/{plate}/{type}']);
/** Operations the issue reported 5xx on with a hostile id: every path value, no sampling. */
const FULL_PATH_VALUES = new Set(['PUT /api/v1/goold/vehicles/{id}', 'PUT /api/cliente/{id}', 'GET /api/quixa/FastQuotationFlow/{id}', 'POST /api/titolo/{id}/pagamento']);
const DEEP_ARRAY = '['.repeat(10_000) + ']'.repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
/** Values only raw JSON text can carry: beyond a double, beyond 2^53, a lone surrogate, NUL, an empty string. */
const RAW_VALUES = ['1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '"\\ud800"', '"a\\u0000b"', '""', '{}', '[]', 'null'];

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
    await installWriteCounter();
  });
  afterAll(() => t?.close());

  /**
   * Rows written so far in the records' tables, counted by a row trigger into one row: a refused request rolls its count
   * back with its writes, and reading it costs one lookup (counting every table after each request was most of the time).
   */
  async function installWriteCounter(): Promise<void> {
    const db = t.connection.db;
    await sql`CREATE TABLE fuzz_writes (n bigint NOT NULL)`.execute(db);
    await sql`INSERT INTO fuzz_writes VALUES (0)`.execute(db);
    await sql`CREATE FUNCTION fuzz_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE fuzz_writes SET n = n + 1; RETURN NULL; END $$`.execute(db);
    const names = [...t.app.ctx.definitions.resources.keys(), 'workflow_history', 'user_preference'];
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db);
    for (const { table_name: table } of tables.rows.filter((r) => names.includes(r.table_name))) {
      await sql`CREATE TRIGGER fuzz_count AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION fuzz_count()`.execute(db);
    }
  }

  async function fingerprint(): Promise<string> {
    return (await sql<{ n: string }>`SELECT n FROM fuzz_writes`.execute(t.connection.db)).rows[0]!.n;
  }

  it('answers no 5xx, accepts no invalid input and writes nothing when it refuses', async () => {
    const started = Date.now();
    const figures = { operations: 0, inputs: 0, serverErrors: 0, wronglyAccepted: 0, refusedButWrote: 0 };
    const failures: string[] = [];
    let seed = SEED;

    let stored = await fingerprint();
    /** One request; `raw` sends a text as it is (malformed or hostile JSON, another content type) instead of JSON.stringify(body). */
    const send = async (method: string, url: string, body: unknown, invalidInput: boolean, label: string, raw?: { payload: string; type: string }) => {
      const before = stored;
      const payload = raw?.payload ?? (body !== undefined ? JSON.stringify(body) : undefined);
      const res = await t.app.inject({
        method: method as 'GET', url, headers: { authorization: `Bearer ${admin}`, ...(payload !== undefined ? { 'content-type': raw?.type ?? 'application/json' } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      });
      figures.inputs++;
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const shown = (payload ?? 'no body').slice(0, 300);
      if (res.statusCode >= 500) {
        figures.serverErrors++;
        failures.push(`${res.statusCode} ${method} ${url} ${label} ${shown} -> ${res.body.slice(0, 200)}`);
      } else if (invalidInput && ok) {
        figures.wronglyAccepted++;
        failures.push(`accepted ${method} ${url} ${label} ${shown}`);
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

        // Path values, without a body: a real id and hostile ones (never a 5xx nor a write). An integer id is a positive
        // int32 written in decimal: the spellings that a loose parser would read as record 1 must not reach it.
        if (pathParams.length) {
          // The listed route gets every value; the others a rotating share (ids are parsed by a few shared functions),
          // and every route with an integer id all the spellings of 1 (a loose parser of its own would answer record 1).
          const integerId = pathParams.some((p) => INTEGER_ID.test(p.name) && !STRING_IDS.has(`${upper} ${path}`));
          const rotating = ['1', ...PATH_VALUES.slice(1).filter((_, i) => (i + figures.operations) % 3 === 0)];
          const share = FULL_PATH_VALUES.has(`${upper} ${path}`) ? PATH_VALUES : integerId ? [...new Set([...rotating, ...ONE_IN_DISGUISE])] : rotating;
          for (const value of share) {
            const values = Object.fromEntries(pathParams.map((p) => [p.name, value]));
            await send(upper, build(values, {}), undefined, integerId && ONE_IN_DISGUISE.includes(value), `path=${JSON.stringify(value)}`);
          }
        }

        // A body where none is read: ignored or refused, never a 5xx.
        if (upper === 'GET' || upper === 'DELETE') await send(upper, build({}, {}), { id: 1, a: [null] }, false, 'body on ' + upper);

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
        // Bodies no generator above builds: null, no body, arrays, nesting past any parser's stack, other content
        // types, and texts that only exist as raw JSON (duplicate keys, numbers past a double, lone surrogates).
        await send(upper, url, null, !accepts(bodyAjv, bodySchema, null), 'null body');
        await send(upper, url, undefined, !accepts(bodyAjv, bodySchema, {}), 'no body');
        for (const body of [[], [{}], [base[0]]]) await send(upper, url, body, !accepts(bodyAjv, bodySchema, body), 'array body');
        for (const payload of [DEEP_ARRAY, DEEP_OBJECT]) await send(upper, url, undefined, true, 'nested 10 000 levels', { payload, type: 'application/json' });
        const sample = JSON.stringify(base[0] ?? {});
        await send(upper, url, undefined, !accepts(bodyAjv, bodySchema, sample), 'text/plain', { payload: sample, type: 'text/plain' });
        await send(upper, url, undefined, true, 'xml', { payload: '<a>1</a>', type: 'application/xml' });
        await send(upper, url, undefined, true, 'malformed json', { payload: '{"a":', type: 'application/json' });
        const rawPicks = props.length ? fc.sample(fc.tuple(fc.constantFrom(...props), fc.constantFrom(...RAW_VALUES)), { seed: seed++, numRuns: RUNS }) : [];
        for (const [[name, prop], rawValue] of rawPicks) {
          const rest = JSON.stringify({ ...(base[0] as object), [name]: undefined }).slice(1, -1);
          const payload = `{${rest}${rest ? ',' : ''}${JSON.stringify(name)}:${rawValue}}`;
          const parsed = (() => { try { return JSON.parse(payload) as Record<string, unknown>; } catch { return undefined; } })();
          // An empty string is "no value" to the engine (a form's empty field): valid wherever null is.
          const value = parsed?.[name] === '' && accepts(bodyAjv, prop, null) ? null : parsed?.[name];
          await send(upper, url, undefined, !parsed || !accepts(bodyAjv, prop, value), `raw ${name}`, { payload, type: 'application/json' });
        }
        if (props.length) {
          // A duplicate key: the last one counts (as in JSON.parse), so a valid value followed by a refused one is refused.
          const [name, prop] = props[0]!;
          const bad = candidates(prop).find((v) => !accepts(bodyAjv, prop, v));
          if (bad !== undefined) {
            const payload = `{${JSON.stringify(name)}:${JSON.stringify(base[0] && (base[0] as Record<string, unknown>)[name] || null)},${JSON.stringify(name)}:${JSON.stringify(bad)}}`;
            await send(upper, url, undefined, !accepts(bodyAjv, bodySchema, JSON.parse(payload)), 'duplicate key', { payload, type: 'application/json' });
          }
        }
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`fuzz: seed ${SEED}, ${RUNS} runs: ${figures.operations} operations, ${figures.inputs} inputs, ${figures.serverErrors} answers 5xx, `
      + `${figures.wronglyAccepted} invalid inputs accepted, ${figures.refusedButWrote} refused requests that wrote, ${seconds} s`);
    expect(failures.slice(0, 30)).toEqual([]);
    expect(figures.operations).toBeGreaterThan(50);
  }, 600_000);
});

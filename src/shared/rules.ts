// Declarative record rules of the definitions, shared by server and form:
// - conditional fields: JSON Schema if/then/else (at the root, in allOf, or in array items) whose branch maps a
//   property to `false` ("must be absent") hides that property while the branch applies; hidden fields hold no data;
// - computed fields: "x-computed": "premio_base + competenze" over the record's own fields, evaluated in integer cents.
import type { JsonSchema } from './definitions/types.ts';
import { fromCents, toCents } from './money.ts';

type Data = Record<string, unknown>;

export interface ConditionalBlock {
  /** property -> allowed values (const or enum); `required` lists the ones that must be present for the condition. */
  when: Record<string, unknown[]>;
  required: string[];
  thenHidden: string[];
  elseHidden: string[];
}

function hiddenOf(branch: unknown): string[] {
  const props = (branch as JsonSchema | undefined)?.properties as Record<string, unknown> | undefined;
  return Object.entries(props ?? {}).filter(([, s]) => s === false).map(([name]) => name);
}

/** The if/then/else blocks of an object schema (its own and those inside allOf) that hide properties. */
export function conditionalBlocks(schema: JsonSchema): ConditionalBlock[] {
  const candidates = [schema, ...(((schema.allOf as JsonSchema[] | undefined) ?? []))];
  const blocks: ConditionalBlock[] = [];
  for (const node of candidates) {
    const cond = node.if as JsonSchema | undefined;
    if (!cond || typeof cond !== 'object') continue;
    const when: Record<string, unknown[]> = {};
    for (const [name, s] of Object.entries(cond.properties ?? {})) {
      if (s && typeof s === 'object' && 'const' in s) when[name] = [s.const];
      else if (s && Array.isArray(s.enum)) when[name] = s.enum as unknown[];
    }
    blocks.push({ when, required: cond.required ?? [], thenHidden: hiddenOf(node.then), elseHidden: hiddenOf(node.else) });
  }
  return blocks;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** JSON Schema semantics of the "if": a listed property that is absent passes unless the condition requires it. */
export function conditionHolds(block: ConditionalBlock, data: Data): boolean {
  if (!block.required.every((name) => present(data[name]))) return false;
  return Object.entries(block.when).every(([name, values]) => !present(data[name]) || values.some((v) => v === data[name]));
}

/** Properties of this object schema hidden for this data. */
export function hiddenProperties(schema: JsonSchema, data: Data): Set<string> {
  const hidden = new Set<string>();
  for (const block of conditionalBlocks(schema)) {
    for (const name of conditionHolds(block, data) ? block.thenHidden : block.elseHidden) hidden.add(name);
  }
  return hidden;
}

// ---- computed fields ----

type Node = { op: 'num'; value: number } | { op: 'field'; name: string } | { op: '+' | '-' | '*' | '/'; left: Node; right: Node };

/** A malformed expression; its message, in Italian, reaches the analyst through the definitions lint. */
export class ExpressionError extends Error {}

/** Parses "a + b - (c * 1.22)": field names, numbers, + - * / and parentheses. */
export function parseExpression(text: string): Node {
  const tokens = text.match(/[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const primary = (): Node => {
    const t = tokens[i++];
    if (t === undefined) throw new ExpressionError('l\'espressione è incompleta');
    if (t === '(') {
      const inner = sum();
      if (tokens[i++] !== ')') throw new ExpressionError('manca ")"');
      return inner;
    }
    if (/^\d/.test(t)) return { op: 'num', value: Number(t) };
    if (/^[A-Za-z_]/.test(t)) return { op: 'field', name: t };
    throw new ExpressionError(`"${t}" non è atteso qui`);
  };
  const product = (): Node => {
    let left = primary();
    while (peek() === '*' || peek() === '/') {
      const op = tokens[i++] as '*' | '/';
      left = { op, left, right: primary() };
    }
    return left;
  };
  const sum = (): Node => {
    let left = product();
    while (peek() === '+' || peek() === '-') {
      const op = tokens[i++] as '+' | '-';
      left = { op, left, right: product() };
    }
    return left;
  };
  const tree = sum();
  if (i < tokens.length) throw new ExpressionError(`"${tokens[i]}" non è atteso qui`);
  return tree;
}

export function expressionFields(node: Node, out: string[] = []): string[] {
  if (node.op === 'field') out.push(node.name);
  else if (node.op !== 'num') {
    expressionFields(node.left, out);
    expressionFields(node.right, out);
  }
  return out;
}

/**
 * Amounts as integer cents: sums and differences stay exact; a product or quotient by a plain number is rounded to
 * the cent at the end. Empty fields count 0; when every field is empty the result is empty (null).
 */
export function evaluateComputed(expression: string, data: Data): number | null {
  const tree = parseExpression(expression);
  const names = expressionFields(tree);
  if (names.length && names.every((n) => !present(data[n]))) return null;
  const cents = (node: Node): number => {
    switch (node.op) {
      case 'num': return node.value * 100;
      case 'field': {
        const v = data[node.name];
        return present(v) && Number.isFinite(Number(v)) ? toCents(Number(v)) : 0;
      }
      case '+': return cents(node.left) + cents(node.right);
      case '-': return cents(node.left) - cents(node.right);
      // A factor is a plain number: its cents are divided back out.
      case '*': return (cents(node.left) * cents(node.right)) / 100;
      case '/': return (cents(node.left) / cents(node.right)) * 100;
    }
  };
  return fromCents(Math.round(cents(tree)));
}

/** Properties of an object schema carrying "x-computed", with their expressions. */
export function computedProperties(schema: JsonSchema): Array<[string, string]> {
  return Object.entries(schema.properties ?? {})
    .filter(([, p]) => typeof p?.['x-computed'] === 'string')
    .map(([name, p]) => [name, p['x-computed'] as string]);
}

/** The computed fields whose value in `data` is stale, with their new value (undefined = empty): what the form sets. */
export function staleComputed(computed: Array<[string, string]>, data: Data): Array<[string, number | undefined]> {
  const out: Array<[string, number | undefined]> = [];
  let current = data;
  for (const [name, expression] of computed) {
    const value = evaluateComputed(expression, current) ?? undefined;
    if (value === current[name]) continue;
    out.push([name, value]);
    // A computed field may feed the next one.
    current = { ...current, [name]: value };
  }
  return out;
}

/** The record with hidden fields emptied and computed fields filled in (the form's view while typing). */
export function withDerivedValues(schema: JsonSchema, data: Data): Data {
  const out: Data = { ...data };
  for (const name of hiddenProperties(schema, out)) if (name in out) delete out[name];
  for (const [name, expression] of computedProperties(schema)) {
    const value = evaluateComputed(expression, out);
    if (value === null) delete out[name];
    else out[name] = value;
  }
  return out;
}

export type RuleErrors = Record<string, string[]>;

/**
 * Server side, before validation: hidden fields become null (they hold no data), computed fields get their value;
 * a client value that disagrees with the expression is an error at that field. Array items follow their own rules.
 * `record` is the whole record after the write, `input` what is written: both are updated in place.
 */
export function applyRecordRules(schema: JsonSchema, record: Data, input: Data, mismatch: (expected: number) => string): RuleErrors {
  const errors: RuleErrors = {};
  for (const name of hiddenProperties(schema, record)) {
    if (record[name] === null || record[name] === undefined) continue;
    record[name] = null;
    input[name] = null;
  }
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const items = prop?.items;
    const value = input[name];
    if (!items || !Array.isArray(value) || (!conditionalBlocks(items).length && !computedProperties(items).length)) continue;
    const rows = value.map((item, i) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
      const row = { ...(item as Data) };
      for (const hidden of hiddenProperties(items, row)) delete row[hidden];
      for (const [field, expression] of computedProperties(items)) {
        const expected = evaluateComputed(expression, row);
        if (present(row[field]) && expected !== null && toCents(Number(row[field])) !== toCents(expected)) {
          errors[`${name}.${i}.${field}`] = [mismatch(expected)];
        }
        if (expected === null) delete row[field];
        else row[field] = expected;
      }
      return row;
    });
    record[name] = rows;
    input[name] = rows;
  }
  for (const [name, expression] of computedProperties(schema)) {
    const expected = evaluateComputed(expression, record);
    const sent = input[name];
    if (present(sent) && (expected === null || !Number.isFinite(Number(sent)) || toCents(Number(sent)) !== toCents(expected))) {
      errors[name] = [mismatch(expected ?? 0)];
      continue;
    }
    if (record[name] !== expected) {
      record[name] = expected;
      input[name] = expected;
    }
  }
  return errors;
}

/** The array properties of an object schema whose items declare conditional fields, with those items' schema. */
function conditionalArrays(schema: JsonSchema): Array<[string, JsonSchema]> {
  return Object.entries(schema.properties ?? {})
    .filter(([, prop]) => prop?.items && typeof prop.items === 'object' && conditionalBlocks(prop.items).length > 0)
    .map(([name, prop]) => [name, prop.items!]);
}

const isRow = (v: unknown): v is Data => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Fields of array rows hidden by the rows' own conditions, as paths "field.index.property" (how errors name them). */
export function hiddenRowPaths(schema: JsonSchema, data: Data): Set<string> {
  const paths = new Set<string>();
  for (const [name, items] of conditionalArrays(schema)) {
    const rows = data[name];
    if (!Array.isArray(rows)) continue;
    rows.forEach((row, i) => {
      if (isRow(row)) for (const hidden of hiddenProperties(items, row)) paths.add(`${name}.${i}.${hidden}`);
    });
  }
  return paths;
}

/** Array properties whose rows still hold a value in a field their conditions hide, each with its rows emptied of them. */
export function staleHiddenRows(schema: JsonSchema, data: Data): Array<[string, unknown[]]> {
  const out: Array<[string, unknown[]]> = [];
  for (const [name, items] of conditionalArrays(schema)) {
    const rows = data[name];
    if (!Array.isArray(rows)) continue;
    let changed = false;
    const cleaned = rows.map((row) => {
      if (!isRow(row)) return row;
      const hidden = [...hiddenProperties(items, row)].filter((f) => f in row);
      if (!hidden.length) return row;
      changed = true;
      const copy = { ...row };
      for (const f of hidden) delete copy[f];
      return copy;
    });
    if (changed) out.push([name, cleaned]);
  }
  return out;
}

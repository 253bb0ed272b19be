// Generic, definition-driven reads and writes of one resource's table, with row scope, versions and hooks.
import { CompiledQuery, sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Ajv } from 'ajv';
import type { Database } from '../db/connection.ts';
import type { AuthUser } from '../auth/user.ts';
import { cercaEntry, type CercaField, type Definitions, type FieldDefinition, type JsonSchema, type ResourceDefinition, type RowScope } from '../../shared/definitions/types.ts';
import type { Extensions } from '../extensions.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { compileValidator, normalizeInput, withoutNulls, type FieldErrors } from '../../shared/validation.ts';
import { HttpError, fromDatabaseError, invalid, notFoundFor } from '../errors.ts';
import { hashPassword, isCommonPassword, PASSWORD_COMMON } from '../auth/passwords.ts';
import { runRecordChecks } from './checks.ts';
import { canonicalInput } from '../../shared/canonical.ts';
import { applyRecordRules, conditionalBlocks, hiddenProperties } from '../../shared/rules.ts';
import { computedMismatchMessage } from '../../shared/validation-messages.ts';
import { formatEuro } from '../../shared/money.ts';
import type { Workflow, EventMeta } from '../../shared/workflow/machine.ts';
import type { WorkflowEvent } from '../../shared/workflow/guards.ts';
import { runAction } from '../workflow/actions.ts';
import { INT4_MAX } from '../http/contract.ts';
import { isCalendarDate } from '../../shared/dates.ts';
import { conAzione } from '../storico/contesto.ts';
import { referenceSearchFields } from '../../shared/definitions/compile.ts';
import { nestedEntry, nestedTextSql, prefixSql, searchableSql } from './search-sql.ts';
import { maskOf, type FieldMask } from '../../shared/definitions/read-masks.ts';
import { afterCondition, decodeCursor, encodeCursor, nullsApart, type KeyValue } from './keyset.ts';
import { AnchorCache, type Anchors } from './anchors.ts';
import { listGeneration } from '../db/list-generation.ts';

export interface ListQuery {
  page: number;
  perPage: number;
  sort: string[];
  search?: string;
  filters: Array<{ field: string; op: 'eq' | 'from' | 'to'; value: string }>;
  /** The opaque `next_cursor` of the page before: the rows after its last one, whatever the page number (keyset). */
  cursor?: string;
  /** The total is counted exactly up to this many rows (EXACT_TOTAL_LIMIT); default 10 000. */
  exactTotalLimit?: number;
  /** The fewest rows between a deep page's anchors (LIST_ANCHOR_EVERY); default 25. */
  anchorEvery?: number;
  /** Pages by number from this offset on seek from anchors (LIST_ANCHORED_FROM); default 2 000. */
  anchoredFrom?: number;
}

export interface ListResult {
  data: Record<string, unknown>[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  /** True when `total` is a lower bound from the planner's statistics, not a count (the pager says 'più di N'). */
  total_is_estimate: boolean;
  /** The cursor of the page after this one (null on the last): a seek at any depth, and no row twice under inserts. */
  next_cursor?: string | null;
}

export interface OnBehalfOptions {
  /** The version the user's request was based on: a concurrent edit answers 409, as a PUT would. */
  version?: number;
  /** Consulted like the user's own edit (the workflow may forbid edits in the record's status); a transition's side effects are not. */
  asEdit?: boolean;
  /** A row in workflow_history for the change: the event, its note, and the status it moves to (unchanged if absent). */
  history?: { event: string; note?: string | null; to?: number };
}

export interface WriteResult {
  model: Record<string, unknown>;
  /** Advice that does not block the write, per field (e.g. a codice fiscale that does not match the name). */
  warnings: FieldErrors;
}

/**
 * The spec's client sends `sort=field&sortDesc=true` (Vuetify's sortBy/sortDesc, also as repeated or
 * `sortDesc[]` parameters, one flag per sort key; a single flag applies to every key). An explicit flag
 * sets the direction; without one the `-field` form decides. Returns the sort keys or the field error.
 */
export function directedSort(sort: string[], sortDesc: unknown): string[] | { sortDesc: string[] } {
  if (sortDesc === undefined || sortDesc === '') return sort;
  const raw = (Array.isArray(sortDesc) ? sortDesc : [sortDesc]).flatMap((v) => String(v).split(','));
  const flags: boolean[] = [];
  for (const value of raw) {
    const v = value.trim().toLowerCase();
    if (v === 'true' || v === '1') flags.push(true);
    else if (v === 'false' || v === '0') flags.push(false);
    else return { sortDesc: ['Deve essere true o false'] };
  }
  return sort.map((key, i) => {
    const desc = flags.length === 1 ? flags[0] : flags[i];
    if (desc === undefined) return key;
    const name = key.replace(/^-/, '');
    return desc ? `-${name}` : name;
  });
}

/** The user's value the row scope compares with (resource.json rowScope.user); null: the user owns no rows. */
function scopeValueOf(scope: RowScope, user: AuthUser): number | null {
  return user[scope.user] ?? null;
}

/** The row filter that a resource's row scope adds for this user, or undefined when the user sees every row. */
export async function scopeFilterOf(def: ResourceDefinition, db: Database, user: AuthUser): Promise<Expression<SqlBool> | undefined> {
  const scope = def.resource.rowScope;
  if (!scope || (scope.unless && hasPermission(scope.unless, user))) return undefined;
  const mine = scopeValueOf(scope, user);
  if (mine === null) return sql<SqlBool>`false`;
  if (scope.network && hasPermission(scope.network.permission, user)) {
    // The network's ids first: a literal list lets the planner use the indexes, a subquery does not.
    const ids = (await sql<{ id: number }>`${networkOf(def, mine, scope.network.parentField)}`.execute(db)).rows.map((r) => r.id);
    return sql<SqlBool>`${sql.ref(scope.field)} = ANY(${ids}::int[])`;
  }
  return sql<SqlBool>`${sql.ref(scope.field)} = ${mine}`;
}

/** The user's record and everyone below it, following parentField of the resource the scope field points at. */
function networkOf(def: ResourceDefinition, root: number, parentField: string) {
  const table = def.fields.find((f) => f.name === def.resource.rowScope!.field)?.ref ?? def.name;
  return sql`WITH RECURSIVE rete(id) AS (
    SELECT ${root}::int UNION SELECT c.id FROM ${sql.table(table)} c JOIN rete ON c.${sql.ref(parentField)} = rete.id)
    SELECT id FROM rete`;
}

/** The suffix of a reference's label beside it in every read: `cliente_id` → `cliente_id__label`. */
export const LABEL_SUFFIX = '__label';
/** Stands for the id while get()'s statement is compiled once; found again among the compiled parameters. */
const ID_SLOT = Symbol('id');
/** Stand for a page's LIMIT and OFFSET while list()'s page statement is compiled once. */
const LIMIT_SLOT = Symbol('limit');
const OFFSET_SLOT = Symbol('offset');

/**
 * The SQL text of a record's label, as its pickers show it (resource.json autocomplete.label) or else as its
 * recordTitle template ("{nome} {cognome}"); `alias` names the row. Undefined when the resource declares neither.
 */
export function labelSql(target: ResourceDefinition, alias: string): Expression<string> | undefined {
  const known = new Set(['id', ...target.fields.filter((f) => !f.writeOnly && !f.readPermission).map((f) => f.name)]);
  const column = (name: string) => sql`coalesce(${sql.ref(`${alias}.${name}`)}::text, '')`;
  const auto = target.resource.autocomplete?.label.filter((f) => known.has(f));
  let parts: Expression<unknown>[] = [];
  if (auto?.length) parts = auto.flatMap((f, i) => (i ? [sql`' '`, column(f)] : [column(f)]));
  else if (target.resource.recordTitle) {
    for (const piece of target.resource.recordTitle.split(/(\{[A-Za-z0-9_]+\})/)) {
      const name = /^\{(.+)\}$/.exec(piece)?.[1];
      if (name) {
        if (known.has(name)) parts.push(column(name));
      } else if (piece) parts.push(sql`${piece}::text`);
    }
  }
  if (!parts.length) return undefined;
  return sql<string>`nullif(btrim(concat(${sql.join(parts)})), '')`;
}

/** Where a list keeps the size estimate of a large table between requests (the app's InstanceCache). */
export interface SizeEstimates {
  estimate(table: string): number | undefined;
  rememberEstimate(table: string, rows: number): void;
  /** Deep pages by number seek from these (anchors.ts); without them they skip their offset. */
  anchors?: AnchorCache;
}

const MAX_ALL_ROWS = 10000;
/**
 * From this offset a page reads its ids first (an index-only walk of the sort index) and its rows after, so the rows
 * skipped cost an index entry each rather than a heap row with its labels. Page 1 keeps its one plain statement.
 */
const DEFER_FROM = 200;
/**
 * Totals are counted exactly up to this many rows (a bounded count costs at most that many index entries); beyond it
 * the page answers the planner's estimate as a lower bound, so page 1 never waits for a count of the whole table.
 */
const EXACT_TOTAL_LIMIT = 10_000;
/** The fewest rows between a deep page's anchors (LIST_ANCHOR_EVERY); more where a list has more than MAX_ANCHORS of them. */
const ANCHOR_EVERY = 25;
const MAX_ANCHORS = 10_000;
/** The column a page seeking from anchors carries its table's generation in (removed before the rows are answered). */
const GENERATION_COLUMN = '__generazione';
/** Shallower pages by number skip their offset: cheaper than a walk of the list after each write. */
const ANCHORED_FROM = 2000;
/** A filtered list the planner expects to match this many times EXACT_TOTAL_LIMIT rows is not counted at all. */
const UNCOUNTED_FROM = 5;

/** A lower bound that reads as one: two significant digits, rounded down, never below what was counted. */
function lowerBound(estimate: number, counted: number): number {
  if (estimate <= counted) return counted;
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(estimate)) - 1);
  return Math.max(counted, Math.floor(estimate / unit) * unit);
}
const EMPTY_BODY = 'Nessun dato da salvare.';
const STALE_MESSAGE = 'Il record è stato modificato da un altro utente. Ricarica per vedere la versione aggiornata.';

/** What a repository reads beside its definition: the validator, every definition (references' row scope), the domains' hooks. */
export interface RepositoryDeps {
  ajv: Ajv;
  definitions: Definitions;
  extensions: Extensions;
}

interface RecordValidators {
  record: (data: unknown) => FieldErrors | null;
  /** Each property's own shape, without the record's conditions: a hidden field's value is dropped, but only if well formed. */
  shapes: (data: unknown) => FieldErrors | null;
}

// Compiled on first use, once per ajv and schema: many services build repositories at start, and compiling every
// resource's schemas then was most of the app's start-up time.
const compiledValidators = new WeakMap<Ajv, WeakMap<JsonSchema, RecordValidators>>();

// What an event requires of the record (EventMeta.requires), compiled once per ajv and declaration.
const compiledRequirements = new WeakMap<Ajv, WeakMap<object, (data: unknown) => FieldErrors | null>>();
function requirementsOf(ajv: Ajv, schema: Record<string, unknown>): (data: unknown) => FieldErrors | null {
  let bySchema = compiledRequirements.get(ajv);
  if (!bySchema) compiledRequirements.set(ajv, (bySchema = new WeakMap()));
  let validate = bySchema.get(schema);
  if (!validate) bySchema.set(schema, (validate = compileValidator(ajv, schema as JsonSchema)));
  return validate;
}

function validatorsOf(ajv: Ajv, schema: JsonSchema): RecordValidators {
  let bySchema = compiledValidators.get(ajv);
  if (!bySchema) compiledValidators.set(ajv, (bySchema = new WeakMap()));
  let validators = bySchema.get(schema);
  if (!validators) {
    const { required: _required, if: _if, then: _then, else: _else, allOf: _allOf, ...shape } = schema;
    validators = { record: compileValidator(ajv, schema), shapes: compileValidator(ajv, shape as JsonSchema) };
    bySchema.set(schema, validators);
  }
  return validators;
}

export class ResourceRepository {
  private readonly byName: Map<string, FieldDefinition>;
  /** Label columns of references whose target has no row scope: the same for every user. */
  private readonly unscopedLabels = new Map<string, Expression<unknown>>();
  private readonly constantLabels = new WeakSet<Expression<unknown>>();
  private readonly readable: string[];
  /** What present() copies, worked out once: each readable field with the permission guarding it, and the label keys. */
  private readonly shown: Array<{ name: string; readPermission?: string; mask?: FieldMask['mask'] }>;
  /** Read permissions below a field (x-read-permission on nested properties or on oneOf values), by field. */
  private readonly masks: Map<string, FieldMask>;
  private readonly labelKeys: string[];
  /** The read permissions guarding some field: a user holding them all sees every column a list reads. */
  private readonly readGuards: string[];
  /** present()'s templates by the label columns present (templateOf). */
  private readonly templates = new Map<number, Record<string, null>>();
  private readonly references: FieldDefinition[];
  /** get()'s statement when no row scope narrows it, compiled once with the label columns it was built from. */
  private unscopedGet?: { labels: Expression<unknown>[]; text: string; parameters: readonly unknown[]; idAt: number };
  /**
   * list()'s page statement when nothing narrows the table (no row scope, filter or search), compiled once per order
   * with the label columns it was built from: building and compiling it was a share of every page 1 of a large table.
   */
  private readonly unscopedPages = new Map<string, { labels: Expression<unknown>[]; text: string; parameters: readonly unknown[]; limitAt: number; offsetAt: number }>();
  /** The references a list shows: its columns and filters that point at another resource. */
  private readonly listedReferences: FieldDefinition[];
  /** Server-owned fields a conditional rule tests (a policy copied from the insurer's issue): an edit is validated with them. */
  private readonly conditionFields: string[];
  /** Second spellings of fields ("x-aliases", a renamed field's former name): filters and sorts accept them too. */
  private readonly aliases: Map<string, string>;
  /** Filters list.json declares as a bound of a property: filter[pagato_dal] is data_pagamento from that day. */
  private readonly bounds: Map<string, { field: FieldDefinition; bound: 'from' | 'to' }>;

  /** `titleOf` names another resource in messages (a table name is no help to a user). */
  constructor(
    readonly def: ResourceDefinition,
    private readonly deps: RepositoryDeps,
    private readonly titleOf: (table: string) => string = (t) => t,
    readonly workflow?: Workflow,
  ) {
    this.byName = new Map(def.fields.map((f) => [f.name, f]));
    this.aliases = new Map(Object.entries(def.schema.properties ?? {})
      .flatMap(([name, prop]) => ((prop['x-aliases'] as string[] | undefined) ?? []).map((alias): [string, string] => [alias, name])));
    this.bounds = new Map((def.list.filters ?? []).flatMap((f) => (f.property && f.bound ? [[f.field, { field: this.byName.get(f.property)!, bound: f.bound }] as const] : [])));
    this.readable = ['id', 'version', ...def.fields.filter((f) => !f.writeOnly && f.name !== 'id').map((f) => f.name)];
    this.readable = [...new Set(this.readable)];
    this.masks = new Map(this.readable.flatMap((name) => {
      const mask = maskOf(def.schema.properties?.[name]);
      return mask ? [[name, mask] as const] : [];
    }));
    this.shown = this.readable.map((name) => ({ name, readPermission: this.byName.get(name)?.readPermission, mask: this.masks.get(name)?.mask }));
    this.readGuards = [...new Set([
      ...this.shown.flatMap((f) => (f.readPermission ? [f.readPermission] : [])),
      ...[...this.masks.values()].flatMap((m) => m.permissions),
    ])];
    this.references = def.fields.filter((f) => f.ref);
    this.labelKeys = this.references.map((f) => f.name + LABEL_SUFFIX);
    const listed = new Set([...def.list.columns.map((c) => c.field), ...(def.list.filters ?? []).map((f) => f.field)]);
    this.listedReferences = def.fields.filter((f) => f.ref && listed.has(f.name));
    const tested = new Set(conditionalBlocks(def.schema).flatMap((b) => [...b.required, ...Object.keys(b.when)]));
    this.conditionFields = def.fields.filter((f) => f.readOnly && tested.has(f.name)).map((f) => f.name);
  }

  private get validate() {
    return validatorsOf(this.deps.ajv, this.def.schema).record;
  }

  private get validateShapes() {
    return validatorsOf(this.deps.ajv, this.def.schema).shapes;
  }

  private get table() {
    return this.def.name;
  }

  /** The row filter that row scope adds for this user, or undefined when the user sees every row. */
  private scopeFilter(db: Database, user: AuthUser): Promise<Expression<SqlBool> | undefined> {
    return scopeFilterOf(this.def, db, user);
  }

  private networkOf(root: number, parentField: string) {
    return networkOf(this.def, root, parentField);
  }

  /**
   * x-ref honours the referenced resource's row scope: a record can point only at records its author may see
   * (a collaborator cannot attach another collaborator's customer to a quotation). Unchanged references pass.
   */
  private async assertReferencesVisible(db: Database, user: AuthUser, input: Record<string, unknown>, before?: Record<string, unknown>): Promise<void> {
    const errors: FieldErrors = {};
    for (const [key, value] of Object.entries(input)) {
      const field = this.byName.get(key);
      if (!field?.ref || typeof value !== 'number' || (before && before[key] === value)) continue;
      const target = this.deps.definitions.resources.get(field.ref);
      if (!target?.resource.rowScope) continue;
      const scope = await scopeFilterOf(target, db, user);
      if (!scope) continue;
      const found = await sql`SELECT 1 FROM ${sql.table(target.name)} WHERE id = ${value} AND ${scope}`.execute(db);
      if (!found.rows.length) errors[key] = ['Il record collegato non esiste.'];
    }
    if (Object.keys(errors).length) throw invalid(errors);
  }

  /**
   * One scalar subquery per reference (`<field>__label`), read in the same statement as the rows, so a list shows
   * names rather than numbers without a request per row. The referenced resource's row scope applies.
   */
  private async labelColumns(db: Database, user: AuthUser, fields: FieldDefinition[]): Promise<Expression<unknown>[]> {
    const out: Expression<unknown>[] = [];
    for (const field of fields) {
      const target = field.ref ? this.deps.definitions.resources.get(field.ref) : undefined;
      if (!target || field.writeOnly || !this.mayRead(field.name, user)) continue;
      // Built once per reference when no row scope can change it: rebuilding it was a share of every get by id.
      const unscoped = this.unscopedLabels.get(field.name);
      if (unscoped) {
        out.push(unscoped);
        continue;
      }
      const label = labelSql(target, 'r');
      if (!label) continue;
      const scope = await scopeFilterOf(target, db, user);
      const column = sql`(SELECT ${label} FROM ${sql.table(target.name)} r WHERE r.id = ${sql.ref(`${this.table}.${field.name}`)}
        ${scope ? sql`AND ${scope}` : sql``}) AS ${sql.ref(field.name + LABEL_SUFFIX)}`;
      if (!target.resource.rowScope) {
        this.unscopedLabels.set(field.name, column);
        this.constantLabels.add(column);
      }
      out.push(column);
    }
    return out;
  }

  /** `unmasked`: values below the field (x-read-permission on nested parts or values) kept, for the machine's guards. */
  private present(row: Record<string, unknown>, user: AuthUser, unmasked = false): Record<string, unknown> {
    // A copy of a template holding every key the answer will have: filled in place, the record is allocated once at its
    // size, where adding ~45 properties one by one regrew its property store each few fields (~3 KB of garbage per row).
    let labels = 0;
    for (let i = 0; i < this.labelKeys.length; i++) if (this.labelKeys[i]! in row) labels |= 1 << i;
    // One bit per reference: a resource with more than 30 builds its records key by key.
    const out: Record<string, unknown> = this.labelKeys.length <= 30 ? { ...this.templateOf(labels) } : {};
    // mayRead() inlined from the precomputed list: this runs for every field of every row answered.
    for (const { name, readPermission, mask } of this.shown) {
      out[name] = !readPermission || hasPermission(readPermission, user) ? (mask && !unmasked ? mask(row[name] ?? null, user) : row[name] ?? null) : null;
    }
    for (const key of this.labelKeys) if (key in row) out[key] = row[key] ?? null;
    return this.hooks.presentRecord ? this.hooks.presentRecord(out, user) : out;
  }

  /** Values of some of this resource's fields computed outside a record (a calculation's result), as this user may read them. */
  presentPart(values: object, user: AuthUser): Record<string, unknown> {
    const out: Record<string, unknown> = { ...values };
    for (const key of Object.keys(out)) {
      if (!this.byName.has(key)) continue;
      if (!this.mayRead(key, user)) out[key] = null;
      else {
        const mask = this.masks.get(key)?.mask;
        if (mask) out[key] = mask(out[key] ?? null, user);
      }
    }
    return out;
  }

  /** present()'s empty answer, in its key order, for the label columns a statement read (bit i: labelKeys[i]). */
  private templateOf(labels: number): Record<string, null> {
    let template = this.templates.get(labels);
    if (!template) {
      const keys = [...this.shown.map((f) => f.name), ...this.labelKeys.filter((_, i) => labels & (1 << i))];
      this.templates.set(labels, (template = Object.fromEntries(keys.map((key) => [key, null]))));
    }
    return template;
  }

  /** Whether the user may read a field's values (x-read-permission); the history hides the others' values too. */
  mayReadField(name: string, user: AuthUser): boolean {
    return this.mayRead(name, user);
  }

  private mayRead(name: string, user: AuthUser): boolean {
    const permission = this.byName.get(name)?.readPermission;
    return !permission || hasPermission(permission, user);
  }

  /** Filtering or sorting by a field tells its values: allowed only to who may see all of them. */
  private mayProbe(name: string, user: AuthUser): boolean {
    const permission = this.byName.get(name)?.filterPermission;
    const values = this.masks.get(name)?.valuePermissions ?? [];
    return this.mayRead(name, user) && (!permission || hasPermission(permission, user)) && values.every((p) => hasPermission(p, user));
  }

  /** The field's canonical name: an alias (x-aliases, x-renamed-from) names the field it stands for. */
  private canonicalName(name: string): string {
    return this.byName.has(name) ? name : this.aliases.get(name) ?? name;
  }

  private get hooks() {
    return this.deps.extensions.hooksFor(this.def.name);
  }

  /** `param`: the filter's name in the query, where a bad value is answered. */
  private filterCondition(field: FieldDefinition, op: 'eq' | 'from' | 'to', raw: string, param = field.name): Expression<SqlBool> {
    const ref = sql.ref(field.name);
    const bad = () => invalid({ [`filter.${param}`]: [field.kind === 'date' ? 'Data non valida (AAAA-MM-GG).' : 'Valore del filtro non valido'] });
    const parse = (value: string): unknown => {
      switch (field.kind) {
        case 'integer': {
          // int4 columns: a larger number is no match for anything, and PostgreSQL would refuse it.
          if (!/^-?\d{1,10}$/.test(value) || Math.abs(Number(value)) > INT4_MAX) throw bad();
          return Number(value);
        }
        case 'number':
        case 'money': {
          const n = Number(value.replace(',', '.'));
          if (!Number.isFinite(n)) throw bad();
          return n;
        }
        case 'boolean': {
          if (['1', 'true'].includes(value)) return true;
          if (['0', 'false'].includes(value)) return false;
          throw bad();
        }
        case 'date': {
          if (!isCalendarDate(value)) throw bad();
          return value;
        }
        case 'datetime': {
          // A day (2026-02-01) or an ISO timestamp, on a day that exists.
          if (!/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
            || !isCalendarDate(value.slice(0, 10)) || Number.isNaN(Date.parse(value.length === 10 ? value : value.replace(' ', 'T')))) throw bad();
          return value;
        }
        default: return value;
      }
    };
    // A day given for a timestamp means the whole day: 'to' 2026-05-31 includes the 31st.
    if (field.kind === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) {
      if (op === 'from') return sql<SqlBool>`${ref} >= ${raw}::date`;
      if (op === 'to') return sql<SqlBool>`${ref} < ${raw}::date + 1`;
      return sql<SqlBool>`${ref} >= ${raw}::date AND ${ref} < ${raw}::date + 1`;
    }
    if (op === 'from') return sql<SqlBool>`${ref} >= ${parse(raw)}`;
    if (op === 'to') return sql<SqlBool>`${ref} <= ${parse(raw)}`;
    if (field.kind === 'text' && !field.values) return containsText(field, raw);
    const values = raw.split(',').map((v) => parse(v.trim()));
    return values.length === 1 ? sql<SqlBool>`${ref} = ${values[0]}` : sql<SqlBool>`${ref} = ANY(${values})`;
  }

  /**
   * The list's conditions; `ownColumns` when they read this table's own columns alone (no custom filter or search,
   * which may read other tables), so its change generation covers every change to the rows they match. The row scope
   * does: its network's ids are read first and compared as a literal list.
   */
  private async listConditions(db: Database, user: AuthUser, query: ListQuery): Promise<{ conditions: Expression<SqlBool>[]; ownColumns: boolean }> {
    const conditions: Expression<SqlBool>[] = [];
    const scope = await this.scopeFilter(db, user);
    if (scope) conditions.push(scope);
    let ownColumns = true;
    for (const filter of query.filters) {
      const custom = this.hooks.listFilters?.[filter.field];
      if (custom && filter.op === 'eq') {
        conditions.push(custom(filter.value, user));
        ownColumns = false;
        continue;
      }
      const declared = filter.op === 'eq' ? this.bounds.get(filter.field) : undefined;
      const field = declared?.field ?? this.byName.get(this.canonicalName(filter.field));
      // A field the user may not read may not be probed by filtering on it either.
      if (!field || field.writeOnly || field.kind === 'json' || !this.mayProbe(field.name, user)) {
        throw invalid({ [`filter.${filter.field}`]: ['Filtro non consentito'] });
      }
      conditions.push(this.filterCondition(field, declared?.bound ?? filter.op, filter.value, filter.field));
    }
    const searched = await this.searchConditions(db, user, this.def.resource.search ?? [], query.search ?? '');
    conditions.push(...searched);
    return { conditions, ownColumns: ownColumns && !searched.length && !this.def.resource.view };
  }

  /**
   * What a search adds: every word (five at most) must appear in one of `entries` (see searchEntryError in compile.ts):
   * "rossi mario" finds MARIO ROSSI. A reference matches when its record's own text search fields do, within that
   * resource's row scope (a policy by its customer's name). Typed text with nothing to search finds nothing, never all.
   */
  private async searchConditions(db: Database, user: AuthUser, entries: CercaField[], text: string): Promise<Expression<SqlBool>[]> {
    const words = searchWords(text);
    if (!words.length) return [];
    const matchers = await this.searchMatchers(db, user, entries);
    return words.map((word) => {
      const any = matchers.map((match) => match(word)).filter((c): c is Expression<SqlBool> => c !== undefined);
      return any.length ? sql<SqlBool>`(${sql.join(any, sql` OR `)})` : sql<SqlBool>`false`;
    });
  }

  /** Per entry, the condition a word adds (undefined: the entry cannot hold that word, by its shape or its kind). */
  private async searchMatchers(db: Database, user: AuthUser, entries: CercaField[]): Promise<Array<(word: string) => Expression<SqlBool> | undefined>> {
    const matchers: Array<(word: string) => Expression<SqlBool> | undefined> = [];
    for (const raw of entries) {
      const { field: entry, match, shape } = cercaEntry(raw);
      const fits = shape === undefined ? () => true : ((re) => (word: string) => re.test(word))(new RegExp(shape, 'u'));
      const nested = nestedEntry(entry);
      if (nested) {
        if (!this.mayProbe(nested[0], user)) continue;
        const column = sql.raw(nestedTextSql(...nested));
        matchers.push((word) => (fits(word) ? sql<SqlBool>`${column} LIKE ${`%${escapeLike(word.toUpperCase())}%`}` : undefined));
        continue;
      }
      if (entry === 'id') {
        matchers.push((word) => (fits(word) && /^\d{1,10}$/.test(word) && Number(word) <= INT4_MAX ? sql<SqlBool>`${sql.ref(`${this.table}.id`)} = ${Number(word)}` : undefined));
        continue;
      }
      const field = this.byName.get(entry);
      if (!field || !this.mayProbe(entry, user)) continue;
      const target = field.ref ? this.deps.definitions.resources.get(field.ref) : undefined;
      if (target) {
        const fields = referenceSearchFields(target).map((name) => target.fields.find((f) => f.name === name)!);
        const scope = await scopeFilterOf(target, db, user);
        // Unqualified names inside the subquery are the target's columns; the reference is the outer row's. EXISTS, not
        // IN: under an OR the planner can then read the referenced record per row (few rows, a common word) instead of
        // first collecting every match of the word (73 000 customers for 'ross' at 1 000 000), or hash them when cheaper.
        matchers.push((word) => (fits(word) ? sql<SqlBool>`EXISTS (SELECT 1 FROM ${sql.table(target.name)}
          WHERE ${sql.ref(`${target.name}.id`)} = ${sql.ref(`${this.table}.${field.name}`)}
          AND (${sql.join(fields.map((f) => containsText(f, word)), sql` OR `)})${scope ? sql` AND ${scope}` : sql``})` : undefined));
        continue;
      }
      if (match === 'prefix') {
        // The very expression of the btree text_pattern_ops index migrate.ts builds, so a key is one index range.
        const value = sql.raw(prefixSql(field.name, !!field.uppercase));
        matchers.push((word) => (fits(word) ? sql<SqlBool>`${value} LIKE ${`${escapeLike(field.uppercase ? word.toUpperCase() : word.toLowerCase())}%`}` : undefined));
        continue;
      }
      matchers.push((word) => (fits(word) ? containsText(field, word) : undefined));
    }
    return matchers;
  }

  /**
   * The top bar's search (resource.json cerca): at most `limit` records in the user's row scope matching `text`, as
   * {id, label, route}. No order in SQL: sorting every match of a common fragment before the LIMIT would read them all,
   * where the planner can stop at the first few; the few found are ordered by label.
   */
  async cerca(db: Database, user: AuthUser, text: string, limit: number): Promise<Array<{ id: number; label: string; route: string }>> {
    const config = this.def.resource.cerca;
    if (!config) return [];
    const words = searchWords(text);
    const matchers = await this.searchMatchers(db, user, config.fields);
    const conditions: Expression<SqlBool>[] = [];
    for (const word of words) {
      const any = matchers.map((match) => match(word)).filter((c): c is Expression<SqlBool> => c !== undefined);
      // A word no entry can hold (digits where only names are searched) finds nothing: no statement at all.
      if (!any.length) return [];
      conditions.push(sql<SqlBool>`(${sql.join(any, sql` OR `)})`);
    }
    if (!conditions.length) return [];
    const scope = await this.scopeFilter(db, user);
    if (scope) conditions.unshift(scope);
    const named = new Set([...`${config.label}${config.route}`.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!));
    const references = [...named].map((name) => this.byName.get(name)).filter((f): f is FieldDefinition => !!f?.ref);
    const columns = [...new Set(['id', ...named])].filter((name) => name === 'id' || this.mayRead(name, user));
    const labels = await this.labelColumns(db, user, references);
    const rows = await sql<Record<string, unknown>>`SELECT ${sql.join([...columns.map((c) => sql.ref(c)), ...labels])}
      FROM ${sql.table(this.table)} WHERE ${sql.join(conditions, sql` AND `)} LIMIT ${limit}`.execute(db);
    const value = (row: Record<string, unknown>, name: string) => {
      const v = this.byName.get(name)?.ref ? row[name + LABEL_SUFFIX] ?? row[name] : row[name];
      return v === null || v === undefined ? '' : String(v);
    };
    return rows.rows.flatMap((row) => {
      let complete = true;
      const route = config.route.replace(/\{([^}]*)\}/g, (_, name: string) => {
        const v = row[name];
        if (v === null || v === undefined) complete = false;
        return encodeURIComponent(String(v));
      });
      // A record whose screen cannot be named (a title without its policy) is left out rather than linked nowhere.
      if (!complete) return [];
      const label = config.label.replace(/\{([^}]*)\}/g, (_, name: string) => value(row, name)).replace(/\s+/g, ' ').replace(/^[\s·,-]+|[\s·,-]+$/g, '');
      return [{ id: Number(row.id), label: label || `#${String(row.id)}`, route }];
    }).sort((a, b) => a.label.localeCompare(b.label, 'it'));
  }

  /** A list query's conditions, its checked order (`-name` descending, ending with id) and its label columns. */
  private async listParts(db: Database, user: AuthUser, query: ListQuery, references = this.listedReferences) {
    const { conditions, ownColumns } = await this.listConditions(db, user, query);
    const canonical = query.sort.map((s) => (s.startsWith('-') ? `-${this.canonicalName(s.slice(1))}` : this.canonicalName(s)));
    // id breaks ties in the first key's direction: one (key, id) index then serves the order both ways, forwards or backwards.
    const order = [...canonical, canonical[0]?.startsWith('-') ? '-id' : 'id'].filter((s, i, all) => all.findIndex((x) => x.replace(/^-/, '') === s.replace(/^-/, '')) === i);
    for (const s of order) {
      const name = s.replace(/^-/, '');
      const field = name === 'id' ? undefined : this.byName.get(name);
      if (name !== 'id' && (!field || field.writeOnly || field.kind === 'json' || !this.mayProbe(name, user))) throw invalid({ sort: [`Ordinamento non consentito: ${name}`] });
    }
    const labels = await this.labelColumns(db, user, references);
    return { conditions, order, labels, ownColumns };
  }

  /**
   * The WHERE, ORDER BY and columns of a list query, and how a row is presented: shared by list() and the streamed full
   * list. `only`: the fields the caller reads (an export's columns), so the rest is neither read nor parsed; not when a
   * hook reshapes the record, as it may read any field.
   */
  async selection(db: Database, user: AuthUser, query: ListQuery, only?: ReadonlySet<string>) {
    const narrow = only && !this.hooks.presentRecord ? only : undefined;
    const parts = await this.listParts(db, user, query, narrow ? this.listedReferences.filter((f) => narrow.has(f.name)) : undefined);
    const readable = narrow ? this.readable.filter((c) => c === 'id' || narrow.has(c)) : this.readable;
    return { ...this.selectionOf(parts, readable), present: this.listedPresenter(user) };
  }

  /**
   * How a row of a list statement is answered. Such a statement reads the readable columns and then the label columns,
   * so its row already is the record when the user may see every field and no hook reshapes it: no copy per row.
   */
  private listedPresenter(user: AuthUser): (row: Record<string, unknown>) => Record<string, unknown> {
    if (!this.hooks.presentRecord && this.readGuards.every((permission) => hasPermission(permission, user))) return (row) => row;
    return (row) => this.present(row, user);
  }

  private selectionOf(
    { conditions, order, labels }: { conditions: Expression<SqlBool>[]; order: string[]; labels: Expression<unknown>[] }, readable = this.readable,
  ) {
    const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
    // PostgreSQL's default null ordering, so the btree indexes can serve the sort.
    const orderBy = sql.join(order.map((s) => (s.startsWith('-') ? sql`${sql.ref(s.slice(1))} DESC` : sql`${sql.ref(s)} ASC`)));
    const columns = sql.join([...readable.map((c) => sql.ref(c)), ...labels]);
    return {
      where,
      /** Whether any condition narrows the table (a filter, a search, the row scope). */
      filtered: conditions.length > 0,
      orderBy,
      columns,
      select: sql`SELECT ${columns} FROM ${sql.table(this.table)} ${where} ORDER BY ${orderBy}`,
    };
  }

  /** The page statement of a list nothing narrows, compiled once per order and label columns; undefined when something narrows it. */
  private unscopedPage(db: Database, parts: { conditions: Expression<SqlBool>[]; order: string[]; labels: Expression<unknown>[] }, perPage: number, offset: number) {
    const { conditions, order, labels } = parts;
    if (conditions.length || !labels.every((label) => this.constantLabels.has(label))) return undefined;
    const key = order.join(',');
    let compiled = this.unscopedPages.get(key);
    if (!compiled || compiled.labels.length !== labels.length || compiled.labels.some((label, i) => label !== labels[i])) {
      const { columns, orderBy } = this.selectionOf(parts);
      const { sql: text, parameters } = sql`SELECT ${columns} FROM ${sql.table(this.table)}
        ORDER BY ${orderBy} LIMIT ${LIMIT_SLOT} OFFSET ${OFFSET_SLOT}`.compile(db);
      const limitAt = parameters.indexOf(LIMIT_SLOT);
      const offsetAt = parameters.indexOf(OFFSET_SLOT);
      if (limitAt < 0 || offsetAt < 0) return undefined;
      // One entry per order a client asked for: bounded by the sortable fields, yet capped against a flood of combinations.
      if (this.unscopedPages.size >= 100) this.unscopedPages.delete(this.unscopedPages.keys().next().value!);
      this.unscopedPages.set(key, (compiled = { labels, text, parameters, limitAt, offsetAt }));
    }
    const parameters = [...compiled.parameters];
    parameters[compiled.limitAt] = perPage;
    parameters[compiled.offsetAt] = offset;
    return CompiledQuery.raw(compiled.text, parameters);
  }

  /**
   * Where a deep page by number of a list on this table's own columns starts: after an anchor of the list's kept
   * anchors (anchors.ts), whose generation the page statement checks. Undefined while there are none (the walk then
   * starts beside this page), for a list reading other tables, or where the table keeps no counter.
   */
  private async anchored(
    db: Database, parts: { conditions: Expression<SqlBool>[]; order: string[]; labels: Expression<unknown>[]; ownColumns: boolean },
    offset: number, every: number, cache?: AnchorCache,
  ): Promise<{ after?: KeyValue[]; skip: number; rows: number; generation: number; walk: (generation: number) => void } | undefined> {
    if (!cache || !parts.ownColumns) return undefined;
    const { where, orderBy } = this.selectionOf(parts);
    const compiled = where.compile(db);
    const keys = parts.order.map((key) => key.replace(/^-/, ''));
    const list = JSON.stringify([this.table, every, parts.order, compiled.sql, compiled.parameters]);
    const walk = () => db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(async (trx) => {
      // The generation and the walk in one snapshot: the anchors are exact for that generation.
      const generation = (await listGeneration(trx, this.table)) ?? -1;
      const unique = sql.join([...new Set(keys)].map((key) => sql.ref(key)));
      const walked = await sql<Record<string, unknown> & { n: number; ultima: boolean }>`
        SELECT * FROM (SELECT ${unique}, row_number() OVER w AS n, lead(true) OVER w IS NULL AS ultima
                       FROM ${sql.table(this.table)} ${where} WINDOW w AS (ORDER BY ${orderBy})) AS walk
        WHERE n % ${every} = 0 OR ultima`.execute(trx);
      const value = (v: unknown): KeyValue => (v instanceof Date ? v.toISOString() : (v ?? null) as KeyValue);
      const rows = walked.rows.length ? Number(walked.rows[walked.rows.length - 1]!.n) : 0;
      // Every `every` rows, or fewer anchors for a long list: a page then skips a few more index entries.
      const step = every * Math.max(1, Math.ceil(rows / MAX_ANCHORS / every));
      const anchorRows = walked.rows.filter((r) => Number(r.n) % step === 0);
      return { generation, rows, every: step, keys: anchorRows.map((r) => keys.map((key) => value(r[key]))) } satisfies Anchors;
    });
    const kept = cache.peek(list);
    if (!kept) {
      // None yet: this page skips its offset, and the walk starts beside it.
      const now = await listGeneration(db, this.table);
      if (now !== undefined) cache.anchors(list, now, walk);
      return undefined;
    }
    // The page seeks from the anchors kept and reads the generation in its own statement (list() checks it).
    return { ...AnchorCache.seek(kept, offset), rows: kept.rows, generation: kept.generation, walk: (now) => cache.anchors(list, now, walk) };
  }

  async list(db: Database, user: AuthUser, query: ListQuery, estimates?: SizeEstimates): Promise<ListResult> {
    const parts = await this.listParts(db, user, query);
    const filtered = parts.conditions.length > 0;
    const all = query.perPage === -1;
    const perPage = all ? MAX_ALL_ROWS : query.perPage;
    const offset = (query.page - 1) * perPage;
    // Page and total as two statements on two connections. The total is counted only up to EXACT_TOTAL_LIMIT rows;
    // an unfiltered table answers from pg_class first (its rows per page times its current size), counting only when small.
    // A large table's estimate is kept by the instance for a few seconds: page 1 is then the page statement alone,
    // compiled once (building and compiling it per request was a share of that page's time).
    const limit = query.exactTotalLimit ?? EXACT_TOTAL_LIMIT;
    const known = filtered ? undefined : estimates?.estimate(this.table);
    const cursor = query.cursor && !all ? decodeCursor(query.cursor, parts.order, (name) => this.byName.get(name)?.kind) : undefined;
    // A deep page by number seeks after the anchor before it; its total is then exact.
    const anchored = !cursor && !all && offset >= (query.anchoredFrom ?? ANCHORED_FROM)
      ? await this.anchored(db, parts, offset, query.anchorEvery ?? ANCHOR_EVERY, estimates?.anchors) : undefined;
    const keyset = cursor ?? anchored?.after;
    const skip = cursor ? 0 : anchored?.after ? anchored.skip : offset;
    const plain = !keyset && !anchored && offset < DEFER_FROM;
    const compiled = plain ? this.unscopedPage(db, parts, perPage, offset) : undefined;
    // Only a list nothing narrows has a compiled page statement: its WHERE is then empty.
    const selection = compiled ? undefined : this.selectionOf(parts);
    const table = sql.table(this.table);
    const where = selection?.where ?? sql``;
    const bounded = () => sql`(SELECT count(*) FROM (SELECT 1 FROM ${table} ${where} LIMIT ${limit + 1}) AS bounded)`;
    const page = () => {
      if (compiled) return db.executeQuery(compiled) as Promise<{ rows: Record<string, unknown>[] }>;
      const { orderBy } = selection!;
      // A page seeking from anchors reads the table's generation in the same snapshot as its rows.
      const columns = anchored ? sql.join([selection!.columns, sql`(SELECT sum(cambi) FROM lista_generazione WHERE tabella = ${this.table})::int8 AS ${sql.ref(GENERATION_COLUMN)}`]) : selection!.columns;
      if (plain) return sql<Record<string, unknown>>`SELECT ${columns} FROM ${table} ${where} ORDER BY ${orderBy} LIMIT ${perPage} OFFSET ${offset}`.execute(db);
      const nullable = keyset && nullsApart(parts.order, keyset);
      if (nullable) {
        const values = this.selectionOf({ ...parts, conditions: [...parts.conditions, afterCondition(parts.order, keyset, true)] }).where;
        const nulls = this.selectionOf({ ...parts, conditions: [...parts.conditions, sql<SqlBool>`${sql.ref(nullable)} IS NULL`] }).where;
        const keys = sql.join([...new Set(parts.order.map((key) => key.replace(/^-/, '')))].map((key) => sql.ref(key)));
        return sql<Record<string, unknown>>`SELECT ${columns} FROM ${table} WHERE id IN (
            SELECT id FROM ((SELECT ${keys} FROM ${table} ${values} ORDER BY ${orderBy} LIMIT ${perPage + skip})
              UNION ALL (SELECT ${keys} FROM ${table} ${nulls} ORDER BY ${orderBy} LIMIT ${perPage + skip})) AS after_key
            ORDER BY ${orderBy} LIMIT ${perPage} OFFSET ${skip})
          ORDER BY ${orderBy}`.execute(db);
      }
      const seek = keyset ? this.selectionOf({ ...parts, conditions: [...parts.conditions, afterCondition(parts.order, keyset)] }).where : where;
      return sql<Record<string, unknown>>`SELECT ${columns} FROM ${table} WHERE id IN (
          SELECT id FROM ${table} ${seek} ORDER BY ${orderBy} LIMIT ${perPage} OFFSET ${skip})
        ORDER BY ${orderBy}`.execute(db);
    };
    const planned = async () => {
      const plan = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} ${where}`.execute(db);
      return plan.rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows'];
    };
    // A filter or search the planner expects to match far more rows than are counted is not counted: counting 10 000
    // matches of a common word cost more than the page itself. Its total is the estimate, as a lower bound.
    const filteredCount = async () => {
      const estimate = await planned();
      if (estimate >= limit * UNCOUNTED_FROM) return { rows: [{ n: limit + 1, estimate }] };
      return sql<{ n: number; estimate: number }>`SELECT ${bounded()}::int AS n, ${estimate}::float8 AS estimate`.execute(db);
    };
    const [rows, counted] = await Promise.all([
      page(),
      anchored
        ? { rows: [{ n: anchored.rows, estimate: anchored.rows }] }
        : known !== undefined
        ? { rows: [{ n: limit + 1, estimate: known }] }
        : filtered
        ? filteredCount()
        : sql<{ n: number; estimate: number }>`SELECT CASE WHEN e.estimate > ${limit} THEN ${limit + 1} ELSE ${bounded()} END::int AS n, e.estimate
            FROM (SELECT CASE WHEN c.relpages > 0 AND c.reltuples >= 0
                    THEN (c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::int))::float8 ELSE 0 END AS estimate
                  FROM pg_class c WHERE c.oid = quote_ident(${this.table})::regclass) AS e`.execute(db),
    ]);
    if (anchored) {
      const seen = rows.rows[0]?.[GENERATION_COLUMN] as number | undefined;
      for (const row of rows.rows) delete row[GENERATION_COLUMN];
      // A write since the walk (or a page the anchors put past the end): the anchors are walked again, and this page
      // is read once more without them.
      if (seen !== anchored.generation) {
        if (seen !== undefined) anchored.walk(seen);
        return this.list(db, user, query, estimates && { estimate: (table) => estimates.estimate(table), rememberEstimate: (table, n) => estimates.rememberEstimate(table, n) });
      }
    }
    let total = counted.rows[0]!.n;
    let estimated = !anchored && total > limit;
    if (estimated && !filtered && known === undefined) estimates?.rememberEstimate(this.table, Number(counted.rows[0]!.estimate));
    if (estimated) {
      const seen = offset + rows.rows.length;
      if (!keyset && rows.rows.length < perPage && (rows.rows.length > 0 || offset === 0)) {
        // A page by number that is not full is the last: the total is then known, whatever was estimated.
        total = seen;
        estimated = false;
      } else {
        // What was seen on this page counts too: page 900 of a list estimated at 10 000 has more.
        total = lowerBound(Number(counted.rows[0]!.estimate), Math.max(limit, seen + (rows.rows.length === perPage ? 1 : 0)));
      }
    }
    return {
      data: rows.rows.map(this.listedPresenter(user)),
      current_page: query.page,
      last_page: Math.max(1, Math.ceil(total / perPage)),
      per_page: all ? -1 : perPage,
      total,
      total_is_estimate: estimated,
      ...(all ? {} : { next_cursor: rows.rows.length === perPage ? encodeCursor(parts.order, rows.rows[rows.rows.length - 1]!) : null }),
    };
  }

  private async fetch(db: Database, user: AuthUser, id: number, lock = false): Promise<Record<string, unknown>> {
    const scope = await this.scopeFilter(db, user);
    const rows = await sql<Record<string, unknown>>`
      SELECT * FROM ${sql.table(this.table)} WHERE id = ${id} ${scope ? sql`AND ${scope}` : sql``}
      ${lock ? sql`FOR UPDATE` : sql``}`.execute(db);
    // Out of scope answers the same as missing, so ids of others' records leak nothing.
    if (!rows.rows[0]) throw notFoundFor(this.def);
    return rows.rows[0];
  }

  /**
   * One record with the label of each of its references (`<field>__label`), read in the same statement.
   * `forGuards`: nested parts and values the user may not read are kept, for the machine's guards only (never answered).
   */
  async get(db: Database, user: AuthUser, id: number, forGuards = false): Promise<Record<string, unknown>> {
    const labels = await this.labelColumns(db, user, this.references);
    if (!labels.length) return this.present(await this.fetch(db, user, id), user, forGuards);
    const scope = await this.scopeFilter(db, user);
    const statement = (idValue: unknown) => sql<Record<string, unknown>>`SELECT ${sql.table(this.table)}.*, ${sql.join(labels)} FROM ${sql.table(this.table)}
      WHERE id = ${idValue} ${scope ? sql`AND ${scope}` : sql``}`;
    let compiled: typeof this.unscopedGet;
    if (!scope && labels.every((label) => this.constantLabels.has(label))) {
      // The same text for every user no row scope applies to: building and compiling it was a share of every get by id.
      compiled = this.unscopedGet;
      if (!compiled || compiled.labels.length !== labels.length || compiled.labels.some((label, i) => label !== labels[i])) {
        const { sql: text, parameters } = statement(ID_SLOT).compile(db);
        const idAt = parameters.indexOf(ID_SLOT);
        compiled = idAt < 0 ? undefined : (this.unscopedGet = { labels, text, parameters, idAt });
      }
    }
    let rows: { rows: Record<string, unknown>[] };
    if (compiled) {
      const parameters = [...compiled.parameters];
      parameters[compiled.idAt] = id;
      rows = await db.executeQuery(CompiledQuery.raw(compiled.text, parameters)) as { rows: Record<string, unknown>[] };
    } else {
      rows = await statement(id).execute(db);
    }
    if (!rows.rows[0]) throw notFoundFor(this.def);
    return this.present(rows.rows[0], user, forGuards);
  }

  /** Refuses unknown and server-owned fields, then normalises what is left. */
  private cleanInput(body: unknown, user: AuthUser): Record<string, unknown> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid({ body: ['Il corpo della richiesta deve essere un oggetto JSON.'] });
    const errors: FieldErrors = {};
    const input: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(canonicalInput(body as Record<string, unknown>, this.def.schema))) {
      if (key === 'version') {
        if (value !== undefined && value !== null && !Number.isInteger(value)) errors.version = ['Deve essere un numero intero'];
        else if (typeof value === 'number' && (value < 0 || value > INT4_MAX)) errors.version = [`Il valore massimo è ${INT4_MAX}`];
        continue;
      }
      const field = this.byName.get(key);
      // A reference's label (read with the record) sent back by a form is the server's own: ignored.
      if (!field && key.endsWith(LABEL_SUFFIX) && this.byName.get(key.slice(0, -LABEL_SUFFIX.length))?.ref) continue;
      if (!field) errors[key] = ['Campo non consentito.'];
      else if (field.readOnly) errors[key] = ['Campo non modificabile.'];
      // Who cannot read a field got null for it: sending that null back means "unchanged", not "erase".
      else if (value === null && !this.mayRead(key, user)) continue;
      // Spec 000 §3.1 gives flags as 0 or 1: both spellings mean the same.
      else if (field.kind === 'boolean' && (value === 0 || value === 1)) input[key] = value === 1;
      else if (field.kind === 'money' && typeof value === 'number' && Math.abs(value) >= 1e12) errors[key] = ['Valore fuori dai limiti consentiti.'];
      else if (field.kind === 'integer' && typeof value === 'number' && Math.abs(value) > INT4_MAX) errors[key] = [`Il valore massimo è ${INT4_MAX}`];
      // Read-only parts of nested records (a vehicle's colour) belong to the server: ignored like the record's own.
      else input[key] = withoutReadOnly(value, this.def.schema.properties?.[key]);
    }
    if (Object.keys(errors).length) throw invalid(errors);
    return normalizeInput(this.def.fields, input);
  }

  private async applyScopeOnWrite(db: Database, user: AuthUser, record: Record<string, unknown>, input: Record<string, unknown>, update = false): Promise<void> {
    const scope = this.def.resource.rowScope;
    if (!scope || (scope.unless && hasPermission(scope.unless, user))) return;
    const mine = scopeValueOf(scope, user);
    const wanted = input[scope.field];
    // Emptying the field would push the record out of its author's own sight.
    const refused = () => invalid({ [scope.field]: [this.scopeRefusal(scope)] });
    if (wanted === null && update) throw refused();
    if (wanted === undefined || wanted === null) {
      record[scope.field] = mine;
      return;
    }
    if (wanted === mine) return;
    if (mine !== null && scope.network && hasPermission(scope.network.permission, user) && typeof wanted === 'number') {
      const found = await sql`SELECT 1 FROM (${this.networkOf(mine, scope.network.parentField)}) n WHERE n.id = ${wanted}`.execute(db);
      if (found.rows.length) return;
    }
    throw refused();
  }

  /** Worded from the declaration: the resource the scope field points at ("Collaboratore"), else the field's own title. */
  private scopeRefusal(scope: RowScope): string {
    const field = this.byName.get(scope.field);
    const target = field?.ref ? this.deps.definitions.resources.get(field.ref)?.resource : undefined;
    const label = target?.singular ?? target?.title ?? field?.title ?? scope.field;
    return `Valore di «${label}» non consentito: il record deve restare tra quelli che puoi vedere.`;
  }

  /** Conditional fields hidden by the record's values are emptied, computed ones filled (or a disagreeing value refused). */
  private applyRules(record: Record<string, unknown>, input: Record<string, unknown>): void {
    // A value sent for a field the record's rules hide is emptied, never stored; a malformed one is still refused at its field.
    const sentHidden = [...hiddenProperties(this.def.schema, record)].filter((name) => input[name] !== undefined && input[name] !== null && input[name] !== '');
    if (sentHidden.length) {
      const found = this.validateShapes(withoutNulls(Object.fromEntries(sentHidden.map((name) => [name, input[name]]))));
      const malformed = Object.fromEntries(Object.entries(found ?? {}).filter(([field]) => sentHidden.includes(field.split('.')[0]!)));
      if (Object.keys(malformed).length) throw invalid(malformed);
    }
    const errors = applyRecordRules(this.def.schema, record, input, (expected) => computedMismatchMessage(formatEuro(expected)));
    if (Object.keys(errors).length) throw invalid(errors);
  }

  private validateRecord(record: Record<string, unknown>): void {
    const secretsLeftOut = this.def.fields.filter((f) => f.secret && record[f.name] === undefined).map((f) => f.name);
    const candidate = withoutNulls(record);
    for (const name of secretsLeftOut) delete candidate[name];
    const errors = this.validate(candidate) ?? {};
    // A secret is a password (hashed below): one of the most common ones is refused at its field.
    for (const f of this.def.fields) {
      const value = record[f.name];
      if (f.secret && typeof value === 'string' && !errors[f.name] && isCommonPassword(value)) errors[f.name] = [PASSWORD_COMMON];
    }
    if (Object.keys(errors).length) throw invalid(errors);
  }

  /** Column values for INSERT/UPDATE: secrets hashed, JSON serialised, nothing the table lacks. */
  private async columnValues(input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const field = this.byName.get(key)!;
      if (field.secret) {
        if (value !== null && value !== undefined) out[key] = await hashPassword(String(value));
      } else if (field.kind === 'json') out[key] = value === null ? null : JSON.stringify(value);
      else out[key] = value;
    }
    return out;
  }

  async create(db: Database, user: AuthUser, body: unknown): Promise<WriteResult> {
    const record = await this.prepareCreate(db, user, body);
    return translate('write', () => db.transaction().execute(async (trx) => {
      const { model, warnings } = await this.insertPrepared(trx, user, record);
      return { model, warnings };
    }));
  }

  /** The same create inside a transaction the caller owns (a domain writing two records at once, all or nothing). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async createWithin(trx: Transaction<any>, user: AuthUser, body: unknown): Promise<WriteResult> {
    const record = await this.prepareCreate(trx, user, body);
    return translate('write', async () => {
      const { model, warnings } = await this.insertPrepared(trx, user, record);
      return { model, warnings };
    });
  }

  /**
   * A record the server creates from another one's data (a policy copied from the insurer's issue): read-only fields
   * may be given, scope and references were checked on the source; the rules and validation still apply, and the hooks
   * unless `hooks: false` (a resource whose hooks refuse every write by hand, born only from the insurer's answer).
   * `history` leaves the record's first row in workflow_history (from no status to its status).
   */
  async createOwned(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    trx: Transaction<any>, user: AuthUser, values: Record<string, unknown>,
    options: { hooks?: boolean; history?: { event: string; note?: string | null } } = {},
  ): Promise<Record<string, unknown>> {
    const unknownField = Object.keys(values).find((k) => !this.byName.has(k));
    if (unknownField) throw new Error(`${this.def.name}: unknown field ${unknownField}`);
    const record = { ...this.defaults(), ...values };
    this.applyRules(record, record);
    this.validateRecord(record);
    return translate('write', async () => {
      const { model, row } = await this.insertPrepared(trx, user, record, options.hooks !== false);
      if (options.history) {
        const status = this.workflow ? Number(row[this.workflow.statusField]) : null;
        await trx.insertInto('workflow_history').values({
          resource: this.def.name, record_id: Number(row.id), event: options.history.event, from_status: null, to_status: status,
          user_id: user.id || null, user_name: user.name, note: options.history.note?.trim() || null,
        }).execute();
      }
      return model;
    });
  }

  private async prepareCreate(db: Database, user: AuthUser, body: unknown): Promise<Record<string, unknown>> {
    const input = this.cleanInput(body, user);
    const record = { ...this.defaults(), ...input };
    if (this.workflow) record[this.workflow.statusField] = this.workflow.initialStatus.id;
    await this.applyScopeOnWrite(db, user, record, input);
    await this.assertReferencesVisible(db, user, record);
    this.applyRules(record, record);
    this.validateRecord(record);
    // A record of nothing (every field the server's, or none sent) is no record to create.
    if (!Object.values(input).some((v) => v !== null && v !== undefined)) throw invalid({ body: [EMPTY_BODY] });
    return record;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async insertPrepared(trx: Transaction<any>, user: AuthUser, record: Record<string, unknown>, withHooks = true): Promise<WriteResult & { row: Record<string, unknown> }> {
    const hooks = withHooks ? this.deps.extensions.hooksFor(this.def.name) : {};
    await hooks.beforeWrite?.('create', { trx, user, def: this.def, input: record, tokenId: user.tokenId });
    const values = await this.columnValues(record);
    const inserted = await trx.insertInto(this.table).values(values).returningAll().executeTakeFirstOrThrow();
    await hooks.afterWrite?.('create', { trx, user, def: this.def, input: record, after: inserted, tokenId: user.tokenId });
    return { model: this.present(inserted, user), warnings: await runRecordChecks(this.deps.extensions.recordChecks(), this.def, inserted, trx, user), row: inserted };
  }

  private defaults(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(this.def.schema.properties ?? {})) {
      if (prop.default !== undefined && !this.byName.get(name)?.readOnly) out[name] = prop.default;
    }
    return out;
  }

  async update(db: Database, user: AuthUser, id: number, body: unknown, version: number | undefined): Promise<WriteResult> {
    if (version === undefined) {
      throw new HttpError(428, 'Indica la versione del record che stai modificando (campo version o intestazione If-Match).');
    }
    const input = this.cleanInput(body, user);
    const hooks = this.deps.extensions.hooksFor(this.def.name);
    return translate('write', () => db.transaction().execute(async (trx) => {
      const before = await this.fetch(trx, user, id, true);
      if (before.version !== version) throw new HttpError(409, STALE_MESSAGE, undefined, { current: this.present(before, user) }, 'STALE_VERSION');
      this.assertWorkflowAllows(user, before, 'update', input);
      const stored: Record<string, unknown> = {};
      for (const f of this.def.fields) if (!f.readOnly && !f.secret) stored[f.name] = before[f.name] ?? null;
      for (const name of this.conditionFields) if (before[name] !== null && before[name] !== undefined) stored[name] = before[name];
      const record = { ...stored, ...input };
      this.applyRules(record, input);
      const scopeField = this.def.resource.rowScope?.field;
      await this.applyScopeOnWrite(trx, user, record, scopeField ? { ...input, [scopeField]: record[scopeField] } : input, true);
      await this.assertReferencesVisible(trx, user, input, before);
      this.validateRecord(record);
      await hooks.beforeWrite?.('update', { trx, user, def: this.def, input, before, tokenId: user.tokenId });
      const updated = await this.writeRow(trx, id, await this.columnValues(input));
      await hooks.afterWrite?.('update', { trx, user, def: this.def, input, before, after: updated, tokenId: user.tokenId });
      return { model: this.present(updated, user), warnings: await runRecordChecks(this.deps.extensions.recordChecks(), this.def, updated, trx, user) };
    }));
  }

  /** Every change of a stored row bumps its version, which is what optimistic locking compares. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private writeRow(trx: Kysely<any>, id: number, values: Record<string, unknown>): Promise<Record<string, unknown>> {
    return trx.updateTable(this.table)
      .set({ ...values, version: sql`version + 1`, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Edits and deletes are events of the workflow too: the machine decides in which statuses they are allowed. */
  private assertWorkflowAllows(user: AuthUser, before: Record<string, unknown>, kind: 'update' | 'delete', input: Record<string, unknown> = {}): void {
    if (!this.workflow) return;
    const status = Number(before[this.workflow.statusField]);
    // The guards judge the stored values: a colour hidden from this user still calls for a derogation.
    const record = this.present(before, user, true);
    const events = Object.entries(this.workflow.definition.meta.events) as Array<[string, EventMeta]>;
    const changed = Object.keys(input).filter((f) => input[f] !== (before[f] ?? null));
    const guardedFields = new Set(events.flatMap(([, meta]) => (meta.kind === 'field' ? meta.fields ?? [] : [])));
    const touched = (meta: EventMeta) => (meta.fields ?? []).some((f) => changed.includes(f));
    // A change of only field-guarded fields (the premium) needs only their events, not the general edit.
    const onlyGuarded = kind === 'update' && changed.length > 0 && changed.every((f) => guardedFields.has(f));
    const needed = events.filter(([, meta]) => (meta.kind === kind && !onlyGuarded) || (kind === 'update' && meta.kind === 'field' && touched(meta)));
    for (const [type, meta] of needed) {
      if (!this.workflow.can(status, user, record, { type })) {
        const nome = this.workflow.status(status).nome;
        throw new HttpError(409, `Operazione non consentita nello stato "${nome}": ${meta.label.toLowerCase()}.`, undefined, undefined, 'WORKFLOW_REFUSED');
      }
    }
  }

  /**
   * Inputs for a computation (a quotation's pricing) cleaned and checked like a PUT's, without writing:
   * only `keys` are taken from the body, and only their own errors count.
   */
  computationInput(body: Record<string, unknown>, user: AuthUser, keys: string[]): Record<string, unknown> {
    const canonical = canonicalInput(body, this.def.schema);
    const picked = Object.fromEntries(keys.filter((k) => canonical[k] !== undefined).map((k) => [k, canonical[k]]));
    const input = this.cleanInput(picked, user);
    const errors = this.validate(withoutNulls(input));
    const own = errors ? Object.fromEntries(Object.entries(errors).filter(([field]) => keys.includes(field.split('.')[0]!))) : {};
    if (Object.keys(own).length) throw invalid(own);
    return input;
  }

  /**
   * A write the server makes on the user's behalf (a calculation): the user's inputs are cleaned like a PUT's,
   * the version is checked (required when the user changes inputs), the workflow consulted, and the merged record,
   * computed fields included, validated before anything is stored.
   */
  async updateComputed(
    db: Database, user: AuthUser, id: number, userInput: Record<string, unknown>, version: number | undefined,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    compute: (record: Record<string, unknown>, trx: Transaction<any>) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    if (Object.keys(userInput).length && version === undefined) {
      throw new HttpError(428, 'Indica la versione del record che stai modificando (campo version o intestazione If-Match).');
    }
    const hooks = this.deps.extensions.hooksFor(this.def.name);
    return translate('write', () => db.transaction().execute(async (trx) => {
      const before = await this.fetch(trx, user, id, true);
      if (version !== undefined && before.version !== version) throw new HttpError(409, STALE_MESSAGE, undefined, { current: this.present(before, user) }, 'STALE_VERSION');
      const stored: Record<string, unknown> = {};
      for (const f of this.def.fields) if (!f.readOnly && !f.secret) stored[f.name] = before[f.name] ?? null;
      const computed = await compute({ ...stored, ...userInput }, trx);
      const changes = { ...userInput, ...computed };
      this.assertWorkflowAllows(user, before, 'update', changes);
      const record = { ...stored, ...changes };
      // The definition's conditional and computed rules hold for the server's writes as for the user's.
      this.applyRules(record, changes);
      this.validateRecord(record);
      await hooks.beforeWrite?.('update', { trx, user, def: this.def, input: changes, before, tokenId: user.tokenId });
      const updated = await this.writeRow(trx, id, await this.columnValues(changes));
      await hooks.afterWrite?.('update', { trx, user, def: this.def, input: changes, before, after: updated, tokenId: user.tokenId });
      return this.present(updated, user);
    }));
  }

  /**
   * Writes server-owned fields (computed premiums, registry data, ...) after the same scope, version and workflow checks
   * as an edit. `changes` may be computed from the locked row, so a merge into a JSON field loses no concurrent edit.
   */
  async updateOwned(
    db: Database, user: AuthUser, id: number,
    changesOrMerge: Record<string, unknown> | ((before: Record<string, unknown>) => Record<string, unknown>),
    options: Omit<OnBehalfOptions, 'asEdit'> = {},
  ): Promise<Record<string, unknown>> {
    return translate('write', () => db.transaction().execute(async (trx) => {
      const before = await this.fetch(trx, user, id, true);
      const changes = typeof changesOrMerge === 'function' ? changesOrMerge(before) : changesOrMerge;
      return this.present(await this.writeOnBehalf(trx, user, before, changes, { ...options, asEdit: true }), user);
    }));
  }

  /** Locks a row for a write on the user's behalf whose scope the caller checked on its source (the policy of a quotation). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async lockRow(trx: Kysely<any>, id: number): Promise<Record<string, unknown>> {
    const row = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(this.table)} WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0];
    if (!row) throw notFoundFor(this.def);
    return row;
  }

  /**
   * The one way the server changes a stored row on the user's behalf (workflow side effects, registry data, insurer
   * answers), inside the caller's transaction on a row it locked: like a PUT, the version is checked when the request
   * named one, the merged record passes the definition's rules and validation before anything is stored (an invalid one
   * is refused with 422 and nothing written), the version is bumped, and `history` leaves a row in workflow_history.
   * Answers the stored row.
   */
  async writeOnBehalf(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    trx: Kysely<any>, user: { id: number; name: string } & Partial<AuthUser>, before: Record<string, unknown>,
    changes: Record<string, unknown>, options: OnBehalfOptions = {},
  ): Promise<Record<string, unknown>> {
    const unknownField = Object.keys(changes).find((k) => !this.byName.has(k));
    if (unknownField) throw new Error(`${this.def.name}: unknown field ${unknownField}`);
    const id = Number(before.id);
    if (options.version !== undefined && before.version !== options.version) {
      throw new HttpError(409, STALE_MESSAGE, undefined, user.permissions ? { current: this.present(before, user as AuthUser) } : undefined, 'STALE_VERSION');
    }
    if (options.asEdit) this.assertWorkflowAllows(user as AuthUser, before, 'update', changes);
    const stored: Record<string, unknown> = {};
    for (const f of this.def.fields) if (!f.readOnly && !f.secret) stored[f.name] = before[f.name] ?? null;
    for (const name of this.conditionFields) if (before[name] !== null && before[name] !== undefined) stored[name] = before[name];
    const written = { ...changes };
    const record = { ...stored, ...written };
    // The definition's conditional and computed rules hold for the server's writes as for the user's.
    this.applyRules(record, written);
    // What the record's rules hide is emptied only among the changes: the stored values a side effect did not touch
    // stay as the last edit (and its hooks) left them.
    const hidden = hiddenProperties(this.def.schema, record);
    for (const key of Object.keys(written)) if (!(key in changes) && hidden.has(key)) delete written[key];
    this.validateRecord(record);
    const statusField = this.workflow?.statusField;
    const from = statusField ? Number(before[statusField]) : null;
    const to = options.history?.to ?? from;
    if (statusField && to !== from) written[statusField] = to;
    // A transition bumps the version even when it stays in its status; a history note alone changes no row.
    const values = await this.columnValues(written);
    // A workflow event names its change in the record's history (src/server/storico), even one that changes no field.
    const updated = Object.keys(written).length || options.history?.to !== undefined
      ? await (options.history ? conAzione(trx, { evento: options.history.event }, () => this.writeRow(trx, id, values)) : this.writeRow(trx, id, values))
      : before;
    if (options.history) {
      await trx.insertInto('workflow_history').values({
        resource: this.def.name, record_id: id, event: options.history.event, from_status: from, to_status: to,
        user_id: user.id || null, user_name: user.name, note: options.history.note?.trim() || null,
      }).execute();
    }
    return updated;
  }

  /** Sends an event to the record's workflow: new status, history row and side effects commit together or not at all. */
  async transition(db: Database, user: AuthUser, id: number, event: WorkflowEvent): Promise<Record<string, unknown>> {
    return translate('write', () => db.transaction().execute((trx) => this.transitionWithin(trx, user, id, event)));
  }

  /** The same inside a caller's transaction (a signature completed together with its signed file). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async transitionWithin(trx: Transaction<any>, user: AuthUser, id: number, event: WorkflowEvent): Promise<Record<string, unknown>> {
    const before = await this.fetch(trx, user, id, true);
    return this.transitionLocked(trx, user, before, event);
  }

  /**
   * The transition itself, on a row the caller has already found and locked in its own transaction
   * (the customer's link finds its quotation by uuid, not through a staff user's row scope).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async transitionLocked(trx: Transaction<any>, user: AuthUser, before: Record<string, unknown>, event: WorkflowEvent): Promise<Record<string, unknown>> {
    const workflow = this.workflow!;
    const field = workflow.statusField;
    const meta = workflow.definition.meta.events[event.type];
    await this.deps.extensions.hooksFor(this.def.name).beforeTransition?.(event.type, { trx, user, def: this.def, input: {}, before, tokenId: user.tokenId });
    const from = Number(before[field]);
    // The guards judge the stored values: a colour hidden from this user still calls for a derogation.
    const record = this.present(before, user, true);
    const result = workflow.apply(from, user, record, event);
    if (!result) {
      if (meta?.note === 'required' && !event.nota?.trim() && workflow.can(from, user, record, { ...event, nota: 'x' })) {
        throw invalid({ [meta.noteField ?? 'nota']: ['Campo Obbligatorio.'] });
      }
      throw new HttpError(409, `Azione "${meta?.label ?? event.type}" non consentita nello stato "${workflow.status(from).nome}".`, undefined, undefined, 'WORKFLOW_REFUSED');
    }
    if (meta?.requires) {
      const errors = requirementsOf(this.deps.ajv, meta.requires)(withoutNulls(record));
      if (errors) throw invalid(errors);
    }
    let current = await this.writeOnBehalf(trx, user, before, {}, { history: { event: event.type, note: event.nota, to: result.to.id } });
    // Side effects change the record only through writeOnBehalf: validated, versioned, in this transaction.
    const write = async (changes: Record<string, unknown>, history?: OnBehalfOptions['history']) => {
      current = await this.writeOnBehalf(trx, user, current, changes, { history });
      return current;
    };
    for (const action of result.actions) {
      await runAction(this.deps.extensions.action(action.type), action, { trx, def: this.def, workflow: workflow.definition, record: current, event: event.type, note: event.nota, user, write });
    }
    return this.present(current, user);
  }

  async history(db: Database, user: AuthUser, id: number) {
    await this.fetch(db, user, id);
    const rows = await db.selectFrom('workflow_history')
      .select(['id', 'event', 'from_status', 'to_status', 'user_name', 'note', 'at'])
      .where('resource', '=', this.def.name).where('record_id', '=', id).orderBy('at').orderBy('id').execute();
    return rows;
  }

  /**
   * Records per status within the user's row scope, every status listed (zero included). Read from workflow_count,
   * which a trigger keeps in every writing transaction (migrate.ts), so this never counts the table itself.
   */
  async statusCounts(db: Database, user: AuthUser): Promise<Array<{ id: number; code: string; nome: string; count: number }>> {
    const scope = await this.scopeFilter(db, user);
    // The scope condition names the resource's scope field: the counts' scope column takes that name here.
    const scopeField = this.def.resource.rowScope?.field ?? 'scope';
    const rows = await sql<{ status: number; n: number }>`
      SELECT status, sum(n)::int AS n FROM (
        SELECT scope AS ${sql.ref(scopeField)}, status, n FROM workflow_count WHERE resource = ${this.table}) AS counts
      ${scope ? sql`WHERE ${scope}` : sql``} GROUP BY 1`.execute(db);
    const counts = new Map(rows.rows.map((r) => [Number(r.status), r.n]));
    return this.workflow!.statuses.map((s) => ({ id: s.id, code: s.code, nome: s.nome, count: counts.get(s.id) ?? 0 }));
  }

  /**
   * A deleted record brought back with its own id (a restore from the history): the rules, validation, row scope and
   * hooks of a create apply; a reference to a record that is gone answers 409 naming the field.
   */
  async reinsert(db: Database, user: AuthUser, id: number, values: Record<string, unknown>): Promise<WriteResult> {
    const record: Record<string, unknown> = { ...this.defaults() };
    for (const f of this.def.fields) if (!f.secret && values[f.name] !== undefined) record[f.name] = values[f.name];
    await this.applyScopeOnWrite(db, user, record, record);
    this.applyRules(record, record);
    this.validateRecord(record);
    const hooks = this.deps.extensions.hooksFor(this.def.name);
    try {
      return await db.transaction().execute(async (trx) => {
        await hooks.beforeWrite?.('create', { trx, user, def: this.def, input: record, tokenId: user.tokenId });
        const inserted = await trx.insertInto(this.table).values({ ...(await this.columnValues(record)), id }).returningAll().executeTakeFirstOrThrow();
        await hooks.afterWrite?.('create', { trx, user, def: this.def, input: record, after: inserted, tokenId: user.tokenId });
        return { model: this.present(inserted, user), warnings: {} };
      });
    } catch (error) {
      const pg = error as { code?: string; detail?: string };
      if (pg.code === '23503') {
        const column = /\(([A-Za-z0-9_]+)\)=/.exec(pg.detail ?? '')?.[1] ?? '';
        const field = this.byName.get(column);
        const what = field?.ref ? this.titleOf(field.ref) : column;
        throw new HttpError(409, `Impossibile ripristinare: il record collegato in ${field?.title ?? column} (${what}) non esiste più.`, undefined, { campo: column }, 'CONFLICT');
      }
      if (pg.code === '23505' && /\(id\)=/.test(pg.detail ?? '')) throw new HttpError(409, 'Il record esiste già: non è stato eliminato.', undefined, undefined, 'CONFLICT');
      throw fromDatabaseError(error, 'write', this.titleOf) ?? error;
    }
  }

  async remove(db: Database, user: AuthUser, id: number): Promise<void> {
    const hooks = this.deps.extensions.hooksFor(this.def.name);
    await translate('delete', () => db.transaction().execute(async (trx) => {
      const before = await this.fetch(trx, user, id, true);
      this.assertWorkflowAllows(user, before, 'delete');
      await hooks.beforeDelete?.({ trx, user, def: this.def, input: {}, before, tokenId: user.tokenId });
      await trx.deleteFrom(this.table).where('id', '=', id).execute();
    }), this.titleOf);
  }
}

/** The value without the properties its schema marks readOnly, at any depth below the record. */
export function withoutReadOnly(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return schema.items ? value.map((v) => withoutReadOnly(v, schema.items)) : value;
  if (!schema.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const prop = schema.properties[k];
    if (prop?.readOnly === true) continue;
    out[k] = withoutReadOnly(v, prop);
  }
  return out;
}

/**
 * The column holds the text, whatever the case and the accents ('niccolo' finds NICCOLÒ): both sides through
 * testo_cercabile, the very expression of the field's trigram index (migrate.ts). The pattern is one constant once
 * planned (the function is immutable), so the planner matches it against that index.
 */
function containsText(field: FieldDefinition | string, text: string): Expression<SqlBool> {
  const name = typeof field === 'string' ? field : field.name;
  return sql<SqlBool>`${sql.raw(searchableSql(name))} LIKE testo_cercabile(${`%${escapeLike(text)}%`})`;
}

/** The words of a search (five at most): each must be found. */
function searchWords(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean).slice(0, 5);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

async function translate<T>(operation: 'write' | 'delete', run: () => Promise<T>, titleOf?: (table: string) => string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw fromDatabaseError(error, operation, titleOf) ?? error;
  }
}

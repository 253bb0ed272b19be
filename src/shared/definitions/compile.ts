// Turns the raw JSON of schemas/ into checked resource definitions; every error names file and JSON pointer.
import { Ajv, type ValidateFunction } from 'ajv';
import { dashboardMetaSchema, listMetaSchema, menuMetaSchema, resourceMetaSchema } from './meta.ts';
import type {
  DashboardCard, Definitions, FieldDefinition, FieldKind, JsonSchema, ListConfig, MenuEntry, ResourceConfig, ResourceDefinition,
} from './types.ts';
import { SYSTEM_FIELDS, cercaEntry } from './types.ts';
import { ExpressionError, conditionalBlocks, expressionFields, parseExpression } from '../rules.ts';
import { localizeIt } from '../validation-runtime.ts';

/** A form field's width in its section's row (form.ui.json "ui:width"); without it the widget decides. */
export const FIELD_WIDTHS = ['full', 'half', 'third', 'quarter'] as const;

export class DefinitionError extends Error {
  constructor(readonly file: string, readonly pointer: string, readonly detail: string) {
    super(`${file}#${pointer}: ${detail}`);
    this.name = 'DefinitionError';
  }
}

export interface RawResource {
  dir: string;
  resource: unknown;
  entity: unknown;
  list: unknown;
  form: unknown;
}

export interface RawDefinitions {
  /** Shared documents keyed by their path under schemas/, e.g. "_shared/defs.json". */
  shared: Record<string, unknown>;
  resources: RawResource[];
  menu?: { file: string; value: unknown };
  dashboard?: { file: string; value: unknown };
}

const metaAjv = new Ajv({ allErrors: false, strict: false });
const checkResource: ValidateFunction = metaAjv.compile(resourceMetaSchema);
const checkList: ValidateFunction = metaAjv.compile(listMetaSchema);
const checkMenu: ValidateFunction = metaAjv.compile(menuMetaSchema);
const checkDashboard: ValidateFunction = metaAjv.compile(dashboardMetaSchema);

// Analysts read these messages (start-up, lint:definitions, the studio): Italian, naming what is at fault.
const unknownProperty = (name: string) => `proprietà sconosciuta "${name}"`;

/** The first error of a meta-schema (allErrors: false stops there), in ajv-i18n's Italian. */
function assertShape(check: ValidateFunction, value: unknown, file: string): void {
  if (check(value)) return;
  const err = { ...check.errors![0] };
  localizeIt([err]);
  const where = err.instancePath || '/';
  const extra = err.params && 'additionalProperty' in err.params ? ` ("${String(err.params.additionalProperty)}")` : '';
  throw new DefinitionError(file, where, `${err.message ?? 'non valido'}${extra}`);
}

function pointerGet(doc: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return doc;
  let node: unknown = doc;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in (node as object))) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Inlines every $ref (local "#/..." or shared "_shared/file.json#/..."); sibling keywords override the target. */
function resolveRefs(node: unknown, file: string, pointer: string, shared: Record<string, unknown>, root: unknown, depth = 0): unknown {
  if (depth > 32) throw new DefinitionError(file, pointer, 'riferimento circolare: i $ref rimandano l\'uno all\'altro');
  if (Array.isArray(node)) return node.map((item, i) => resolveRefs(item, file, `${pointer}/${i}`, shared, root, depth));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  let base: Record<string, unknown> = {};
  if (typeof obj.$ref === 'string') {
    const [docPath, frag = ''] = obj.$ref.split('#');
    const doc = docPath ? shared[docPath] : root;
    const target = doc === undefined ? undefined : pointerGet(doc, frag);
    if (target === undefined || target === null || typeof target !== 'object') {
      throw new DefinitionError(file, `${pointer}/$ref`, `riferimento "${obj.$ref}" non trovato`);
    }
    base = resolveRefs(target, docPath || file, frag, shared, doc, depth + 1) as Record<string, unknown>;
  }
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(obj)) {
    if (key === '$ref' || key === '$defs') continue;
    out[key] = resolveRefs(value, file, `${pointer}/${key}`, shared, root, depth);
  }
  return out;
}

function mainType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  const options = (schema.oneOf ?? schema.enum) as unknown[] | undefined;
  if (Array.isArray(options) && options.length) {
    const sample = schema.enum ? options[0] : (options[0] as JsonSchema).const;
    return typeof sample === 'number' ? (Number.isInteger(sample) ? 'integer' : 'number') : typeof sample;
  }
  return undefined;
}

function fieldKind(schema: JsonSchema, file: string, pointer: string): FieldKind {
  const type = mainType(schema);
  switch (type) {
    case 'string':
      if (schema.format === 'date') return 'date';
      if (schema.format === 'date-time') return 'datetime';
      return 'text';
    case 'integer': return 'integer';
    case 'number': return schema['x-money'] ? 'money' : 'number';
    case 'boolean': return 'boolean';
    case 'object':
    case 'array': return 'json';
    default: throw new DefinitionError(file, `${pointer}/type`, `tipo "${String(type)}" mancante o non supportato`);
  }
}

function closedValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (Array.isArray(schema.oneOf) && schema.oneOf.every((o) => o && typeof o === 'object' && 'const' in o)) {
    return (schema.oneOf as JsonSchema[]).map((o) => o.const);
  }
  return undefined;
}

function deriveFields(schema: JsonSchema, file: string): FieldDefinition[] {
  if (schema.type !== 'object' || !schema.properties || typeof schema.properties !== 'object') {
    throw new DefinitionError(file, '/type', 'lo schema dell\'entità deve essere un oggetto ("type": "object") con le sue proprietà ("properties")');
  }
  return Object.entries(schema.properties).map(([name, prop]) => {
    const pointer = `/properties/${name}`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new DefinitionError(file, pointer, 'il nome di una proprietà deve avere solo lettere, cifre e _, e non iniziare con una cifra');
    const renamedFrom = prop['x-renamed-from'];
    if (renamedFrom !== undefined) {
      if (typeof renamedFrom !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(renamedFrom) || renamedFrom === name) {
        throw new DefinitionError(file, `${pointer}/x-renamed-from`, 'deve essere il nome precedente della proprietà');
      }
      if (schema.properties![renamedFrom]) throw new DefinitionError(file, `${pointer}/x-renamed-from`, `"${renamedFrom}" è ancora una proprietà`);
      // The old spelling stays accepted by the API until the analyst removes x-renamed-from.
      const aliases = (prop['x-aliases'] as string[] | undefined) ?? [];
      if (!aliases.includes(renamedFrom)) prop['x-aliases'] = [...aliases, renamedFrom];
    }
    const secret = prop['x-secret'];
    if (secret !== undefined && secret !== 'argon2') throw new DefinitionError(file, `${pointer}/x-secret`, 'è ammesso solo "argon2"');
    return {
      name,
      kind: fieldKind(prop, file, pointer),
      title: typeof prop.title === 'string' ? prop.title : undefined,
      readOnly: prop.readOnly === true || (SYSTEM_FIELDS as readonly string[]).includes(name),
      writeOnly: prop.writeOnly === true || secret !== undefined,
      uppercase: prop['x-uppercase'] === true,
      format: typeof prop.format === 'string' ? prop.format : undefined,
      secret: secret as 'argon2' | undefined,
      ref: typeof prop['x-ref'] === 'string' ? prop['x-ref'] : undefined,
      values: closedValues(prop),
      readPermission: typeof prop['x-read-permission'] === 'string' ? prop['x-read-permission'] : undefined,
      filterPermission: typeof prop['x-filter-permission'] === 'string' ? prop['x-filter-permission'] : undefined,
      renamedFrom: renamedFrom as string | undefined,
    };
  });
}

/** Takes the properties marked "x-removed": true out of the schema (they no longer exist for the API) and names them. */
function withoutRemoved(schema: JsonSchema, file: string): string[] {
  const removed: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (prop?.['x-removed'] === undefined) continue;
    if (prop['x-removed'] !== true) throw new DefinitionError(file, `/properties/${name}/x-removed`, 'deve essere true');
    if ((SYSTEM_FIELDS as readonly string[]).includes(name)) throw new DefinitionError(file, `/properties/${name}/x-removed`, 'una colonna di sistema non si può togliere');
    removed.push(name);
    delete schema.properties![name];
  }
  return removed;
}

const NUMERIC = new Set(['number', 'integer']);

/**
 * Conditional and computed fields of one object schema (the entity, or the items of an array property): checked, and
 * turned into the form's rules, so the analyst writes them once in JSON Schema. `ui` is that object's form.ui node.
 */
function deriveRules(schema: JsonSchema, ui: Record<string, unknown>, file: string, base: string): void {
  const props = schema.properties ?? {};
  const node = (name: string) => ((ui[name] ??= {}) as Record<string, unknown>);
  conditionalBlocks(schema).forEach((block, i) => {
    const where = base;
    const hidden = [...block.thenHidden, ...block.elseHidden];
    if (!hidden.length) return;
    const tested = Object.keys(block.when);
    if (tested.length !== 1 || !block.required.includes(tested[0]!)) {
      throw new DefinitionError(file, `${where}/if`, 'una condizione che nasconde dei campi deve controllare una sola proprietà (con const o enum) e renderla obbligatoria (required)');
    }
    const [field] = tested as [string];
    if (!props[field]) throw new DefinitionError(file, `${where}/if/properties/${field}`, unknownProperty(field));
    const values = block.when[field]!;
    const expected = values.length === 1 ? values[0] : values;
    for (const name of hidden) {
      if (!props[name]) throw new DefinitionError(file, `${where}`, `la condizione ${i + 1} nasconde la proprietà sconosciuta "${name}"`);
      const target = node(name);
      if (block.thenHidden.includes(name)) target['ui:hideWhen'] = { ...(target['ui:hideWhen'] as object | undefined), [field]: expected };
      else target['ui:showWhen'] = { ...(target['ui:showWhen'] as object | undefined), [field]: expected };
    }
  });
  for (const [name, prop] of Object.entries(props)) {
    const expression = prop?.['x-computed'];
    if (expression !== undefined) {
      const pointer = `${base}/properties/${name}/x-computed`;
      if (typeof expression !== 'string') throw new DefinitionError(file, pointer, 'deve essere un\'espressione come "premio_base + competenze"');
      let fields: string[];
      try {
        fields = expressionFields(parseExpression(expression));
      } catch (error) {
        if (error instanceof ExpressionError) throw new DefinitionError(file, pointer, error.message);
        throw error;
      }
      const own = mainType(prop);
      if (!own || !NUMERIC.has(own)) throw new DefinitionError(file, pointer, 'una proprietà calcolata deve essere un numero');
      for (const field of fields) {
        const type = props[field] ? mainType(props[field]!) : undefined;
        if (!type || !NUMERIC.has(type) || field === name) throw new DefinitionError(file, pointer, `"${field}" non è una proprietà numerica dello stesso record`);
      }
      // Shown, never typed: the form recomputes it as the user types.
      node(name)['ui:readonly'] = true;
    }
    if (prop?.items && typeof prop.items === 'object' && prop.items.properties) {
      const existing = (ui[name] as Record<string, unknown> | undefined)?.items as Record<string, unknown> | undefined;
      const itemsUi = structuredClone(existing ?? {});
      deriveRules(prop.items, itemsUi, file, `${base}/properties/${name}/items`);
      if (Object.keys(itemsUi).length) node(name).items = itemsUi;
    }
  }
}

/** The kinds a range filter (list.json filters: property + bound) may bound, with the filter input that edits the value. */
const BOUND_WIDGETS: Partial<Record<FieldKind, 'date' | 'number'>> = { date: 'date', datetime: 'date', integer: 'number', number: 'number', money: 'number' };
/** A field's kind in an analyst's words (the kind is derived from the JSON Schema type and format). */
const KIND_NAMES: Record<FieldKind, string> = {
  text: 'testo', integer: 'intero', number: 'numero', money: 'importo', boolean: 'sì/no', date: 'data', datetime: 'data e ora', json: 'oggetto o lista',
};

function checkCrossReferences(def: ResourceDefinition, names: Set<string>, dir: string): void {
  const fieldNames = new Set(def.fields.map((f) => f.name).concat(SYSTEM_FIELDS));
  const { resource, list, schema, form } = def;
  const rf = `${dir}/resource.json`;
  if (resource.name !== dir.split('/').pop()) throw new DefinitionError(rf, '/name', `deve essere uguale al nome della cartella "${dir}"`);
  for (const [i, name] of (schema.required ?? []).entries()) {
    if (!fieldNames.has(name)) throw new DefinitionError(`${dir}/entity.schema.json`, `/required/${i}`, unknownProperty(name));
  }
  for (const field of Object.keys(resource.media?.trackWhere ?? {})) {
    if (!fieldNames.has(field)) throw new DefinitionError(rf, `/media/trackWhere/${field}`, unknownProperty(field));
  }
  def.fields.forEach((f) => {
    if (f.ref && !names.has(f.ref)) {
      throw new DefinitionError(`${dir}/entity.schema.json`, `/properties/${f.name}/x-ref`, `risorsa sconosciuta "${f.ref}"`);
    }
  });
  for (const [i, name] of (resource.autocomplete?.label ?? []).entries()) {
    const field = def.fields.find((f) => f.name === name);
    if (!field || field.writeOnly || field.readPermission || field.filterPermission) throw new DefinitionError(rf, `/autocomplete/label/${i}`, `"${name}" non è una proprietà leggibile da tutti gli utenti`);
  }
  if (resource.rowScope && !fieldNames.has(resource.rowScope.field)) {
    throw new DefinitionError(rf, '/rowScope/field', unknownProperty(resource.rowScope.field));
  }
  if (resource.rowScope && def.fields.find((f) => f.name === resource.rowScope!.field)?.kind !== 'integer') {
    throw new DefinitionError(rf, '/rowScope/field', `"${resource.rowScope.field}" deve essere una proprietà intera (contiene il ${resource.rowScope.user} dell'utente)`);
  }
  if (resource.view) {
    const ops = resource.api.operations;
    if (!ops || ops.some((op) => op !== 'list' && op !== 'read')) throw new DefinitionError(rf, '/api/operations', 'una vista è in sola lettura: le sue operazioni sono solo "list" e "read"');
    if (def.fields.some((f) => f.ref)) throw new DefinitionError(`${dir}/entity.schema.json`, `/properties/${def.fields.find((f) => f.ref)!.name}/x-ref`, 'una vista non ha riferimenti ad altre risorse (x-ref)');
  }
  if (resource.activeField && def.fields.find((f) => f.name === resource.activeField)?.kind !== 'boolean') {
    throw new DefinitionError(rf, '/activeField', `"${resource.activeField}" non è una proprietà booleana (sì/no)`);
  }
  list.columns.forEach((c, i) => {
    if (!fieldNames.has(c.field)) throw new DefinitionError(`${dir}/list.json`, `/columns/${i}/field`, unknownProperty(c.field));
  });
  (list.filters ?? []).forEach((f, i) => {
    if (!f.property) return;
    const at = `/filters/${i}`;
    if (fieldNames.has(f.field)) throw new DefinitionError(`${dir}/list.json`, `${at}/field`, `"${f.field}" è una proprietà: un filtro per intervallo ha un nome suo`);
    const target = def.fields.find((d) => d.name === f.property);
    if (!target || target.writeOnly) throw new DefinitionError(`${dir}/list.json`, `${at}/property`, unknownProperty(f.property));
    const widget = BOUND_WIDGETS[target.kind];
    if (!widget) throw new DefinitionError(`${dir}/list.json`, `${at}/property`, `"${f.property}" (${KIND_NAMES[target.kind]}) non ha un ordine: non si filtra per intervallo`);
    if (f.filter !== widget) throw new DefinitionError(`${dir}/list.json`, `${at}/filter`, `per un intervallo di "${f.property}" (${KIND_NAMES[target.kind]}) "filter" deve essere "${widget}"`);
  });
  // A saved filter names only what the list filters and sorts by: a filter the list does not offer would be ignored.
  const filterNames = new Set([...list.columns.filter((c) => c.filter).map((c) => c.field), ...(list.filters ?? []).map((f) => f.field)]);
  (list.savedFilters ?? []).forEach((saved, i) => {
    for (const name of Object.keys(saved.filters ?? {})) {
      if (!filterNames.has(name)) throw new DefinitionError(`${dir}/list.json`, `/savedFilters/${i}/filters/${name}`, `"${name}" non è un filtro di questa lista`);
    }
    if (saved.sort && !fieldNames.has(saved.sort.replace(/^-/, ''))) throw new DefinitionError(`${dir}/list.json`, `/savedFilters/${i}/sort`, unknownProperty(saved.sort));
  });
  if (list.defaultSort && !fieldNames.has(list.defaultSort.replace(/^-/, ''))) {
    throw new DefinitionError(`${dir}/list.json`, '/defaultSort', unknownProperty(list.defaultSort));
  }
  // A uiSchema key is an option (ui:*) or a property's own options: anything else is a typo the form would ignore.
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith('ui:') || key === '$comment') continue;
    if (!fieldNames.has(key)) throw new DefinitionError(`${dir}/form.ui.json`, `/${key}`, unknownProperty(key));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DefinitionError(`${dir}/form.ui.json`, `/${key}`, 'deve essere un oggetto');
    const width = (value as Record<string, unknown>)['ui:width'];
    if (width !== undefined && !(FIELD_WIDTHS as readonly unknown[]).includes(width)) {
      throw new DefinitionError(`${dir}/form.ui.json`, `/${key}/ui:width`, `deve essere uno tra ${FIELD_WIDTHS.join(', ')}`);
    }
  }
  const layout = form['ui:layout'];
  if (layout !== undefined) {
    if (!Array.isArray(layout)) throw new DefinitionError(`${dir}/form.ui.json`, '/ui:layout', 'deve essere una lista di sezioni');
    layout.forEach((section: { fields?: unknown }, i: number) => {
      if (!Array.isArray(section?.fields)) throw new DefinitionError(`${dir}/form.ui.json`, `/ui:layout/${i}/fields`, 'deve essere una lista');
      section.fields.forEach((name, j) => {
        if (!fieldNames.has(String(name))) {
          throw new DefinitionError(`${dir}/form.ui.json`, `/ui:layout/${i}/fields/${j}`, unknownProperty(String(name)));
        }
      });
    });
  }
}

/** A text property a search compares words with. */
function searchableText(field: FieldDefinition | undefined): boolean {
  return !!field && field.kind === 'text' && !field.writeOnly && !field.secret;
}

/** The text fields a reference's search reaches on its target (its own search, references aside). */
export function referenceSearchFields(target: ResourceDefinition): string[] {
  return (target.resource.search ?? []).filter((name) => searchableText(target.fields.find((f) => f.name === name)));
}

/**
 * A search entry (resource.json search, cerca.fields) is a text property or a reference whose record has text search
 * fields; cerca.fields may also name `id` and an array's text property (`veicoli_storici[].targa`). Answers the error.
 */
function searchEntryError(def: ResourceDefinition, resources: Map<string, ResourceDefinition>, entry: string, cerca: boolean): string | undefined {
  const nested = /^([A-Za-z_]\w*)\[\]\.([A-Za-z_]\w*)$/.exec(entry);
  if (nested) {
    if (!cerca) return `"${entry}": la ricerca della lista indica solo proprietà del record, non degli elementi di un array`;
    const item = def.schema.properties?.[nested[1]!]?.items;
    const prop = item && !Array.isArray(item) ? item.properties?.[nested[2]!] : undefined;
    const type = Array.isArray(prop?.type) ? prop.type.find((t) => t !== 'null') : prop?.type;
    return type === 'string' ? undefined : `"${entry}" non è una proprietà di testo degli elementi di una proprietà array`;
  }
  if (entry === 'id') return cerca ? undefined : '"id" non si cerca come testo';
  const field = def.fields.find((f) => f.name === entry);
  if (field?.ref) {
    const target = resources.get(field.ref);
    return target && referenceSearchFields(target).length ? undefined : `"${entry}" rimanda a "${field.ref}", che non dichiara campi di ricerca di testo`;
  }
  return searchableText(field) ? undefined : `"${entry}" non è una proprietà di testo`;
}

function checkSearch(def: ResourceDefinition, resources: Map<string, ResourceDefinition>): void {
  const rf = `${def.name}/resource.json`;
  (def.resource.search ?? []).forEach((entry, i) => {
    const error = searchEntryError(def, resources, entry, false);
    if (error) throw new DefinitionError(rf, `/search/${i}`, error);
  });
  // A list screen has a search box: without fields it would answer every row whatever is typed.
  if (def.resource.routes?.list && !def.resource.search?.length) throw new DefinitionError(rf, '/search', 'una risorsa con la schermata di lista deve dichiarare i campi in cui cerca la sua casella di ricerca');
  const cerca = def.resource.cerca;
  if (!cerca) return;
  cerca.fields.forEach((raw, i) => {
    const entry = cercaEntry(raw);
    const error = searchEntryError(def, resources, entry.field, true);
    if (error) throw new DefinitionError(rf, `/cerca/fields/${i}`, error);
    // A prefix is looked up in a btree index on the property's own value: a plain text property only.
    const field = def.fields.find((f) => f.name === entry.field);
    if (entry.match === 'prefix' && (!field || field.ref)) throw new DefinitionError(rf, `/cerca/fields/${i}/match`, `"${entry.field}": si cerca per prefisso solo una proprietà di testo del record`);
    if (entry.shape !== undefined) {
      try {
        new RegExp(entry.shape, 'u');
      } catch (error) {
        throw new DefinitionError(rf, `/cerca/fields/${i}/shape`, `non è un'espressione regolare valida: ${(error as Error).message}`);
      }
    }
  });
  const known = new Set(['id', ...def.fields.filter((f) => !f.writeOnly && !f.secret).map((f) => f.name)]);
  for (const key of ['label', 'route'] as const) {
    for (const [, name] of cerca[key].matchAll(/\{([^}]*)\}/g)) {
      if (!known.has(name!)) throw new DefinitionError(rf, `/cerca/${key}`, unknownProperty(name!));
    }
  }
  // The result opens a screen the client has: the route, its values aside, is a declared route's path.
  const shape = (path: string) => path.replace(/\{[^}]*\}|:[A-Za-z_]\w*/g, ':');
  const screens = [...resources.values()].flatMap((r) => Object.values(r.resource.routes ?? {}).flatMap((route) => [route.path, ...(route.aliases ?? [])]));
  if (!screens.some((path) => shape(path) === shape(cerca.route))) throw new DefinitionError(rf, '/cerca/route', `"${cerca.route}" non è una schermata dichiarata`);
}

/** A row scope's network follows parentField on the resource its field points at (else on the resource itself). */
function checkNetwork(def: ResourceDefinition, resources: Map<string, ResourceDefinition>): void {
  const scope = def.resource.rowScope;
  if (!scope?.network) return;
  const ref = def.fields.find((f) => f.name === scope.field)?.ref;
  const owner = ref ? resources.get(ref) : def;
  if (!owner?.fields.some((f) => f.name === scope.network!.parentField && f.ref === owner.name)) {
    throw new DefinitionError(`${def.name}/resource.json`, '/rowScope/network/parentField',
      `"${scope.network.parentField}" non è una proprietà di ${owner?.name ?? def.name} che rimanda a ${owner?.name ?? def.name} (x-ref)`);
  }
}

/**
 * resource.json "related": a list tab names a resource whose field points at this one (or a match between readable
 * properties), a table tab a route under this resource's path; the history needs nothing else.
 */
function checkRelated(def: ResourceDefinition, resources: Map<string, ResourceDefinition>): void {
  const rf = `${def.name}/resource.json`;
  (def.resource.related ?? []).forEach((tab, i) => {
    const at = `/related/${i}`;
    const kind = tab.kind ?? 'list';
    const extra = (['resource', 'field', 'match', 'sort', 'path', 'columns'] as const).filter((key) => tab[key] !== undefined);
    const allowed = kind === 'list' ? ['resource', 'field', 'match', 'sort'] : kind === 'tabella' ? ['path', 'columns'] : [];
    const stray = extra.find((key) => !allowed.includes(key));
    if (stray) throw new DefinitionError(rf, `${at}/${stray}`, `non serve a una scheda di tipo "${kind}"`);
    if (kind === 'tabella') {
      const base = def.resource.api.path;
      if (!tab.path?.startsWith(`${base}/{id}/`)) throw new DefinitionError(rf, `${at}/path`, `deve essere un percorso sotto "${base}/{id}/"`);
      if (!tab.columns) throw new DefinitionError(rf, `${at}/columns`, 'una scheda di tipo "tabella" deve elencare le sue colonne');
      return;
    }
    if (kind !== 'list') return;
    const target = tab.resource === undefined ? undefined : resources.get(tab.resource);
    if (!target) throw new DefinitionError(rf, `${at}/resource`, `risorsa sconosciuta "${String(tab.resource)}"`);
    if (target.resource.api.operations && !target.resource.api.operations.includes('list')) throw new DefinitionError(rf, `${at}/resource`, `"${target.name}" non ha l'operazione "list"`);
    const readable = (d: ResourceDefinition, name: string) => {
      const f = d.fields.find((x) => x.name === name);
      return !!f && !f.writeOnly && !f.secret && !f.readPermission && !f.filterPermission;
    };
    if ((tab.field === undefined) === (tab.match === undefined)) throw new DefinitionError(rf, at, 'una scheda di tipo "list" indica "field" oppure "match" (uno solo dei due)');
    if (tab.field !== undefined) {
      const field = target.fields.find((f) => f.name === tab.field);
      if (!field) throw new DefinitionError(rf, `${at}/field`, `${unknownProperty(tab.field)} di "${target.name}"`);
      if (field.ref !== def.name) throw new DefinitionError(rf, `${at}/field`, `"${target.name}.${tab.field}" non rimanda a "${def.name}" (x-ref)`);
      if (!readable(target, field.name)) throw new DefinitionError(rf, `${at}/field`, `"${target.name}.${tab.field}" non è filtrabile da tutti gli utenti`);
    }
    for (const [theirs, ours] of Object.entries(tab.match ?? {})) {
      if (!readable(target, theirs)) throw new DefinitionError(rf, `${at}/match/${theirs}`, `"${theirs}" non è una proprietà di "${target.name}" leggibile da tutti gli utenti`);
      if (!readable(def, ours)) throw new DefinitionError(rf, `${at}/match/${theirs}`, `"${ours}" non è una proprietà di "${def.name}" leggibile da tutti gli utenti`);
    }
    const fields = new Set([...target.fields.map((f) => f.name), ...SYSTEM_FIELDS]);
    if (tab.sort !== undefined && !tab.sort.split(',').every((key) => fields.has(key.trim().replace(/^-/, '')))) {
      throw new DefinitionError(rf, `${at}/sort`, `proprietà sconosciuta in "${tab.sort}"`);
    }
  });
}

export function compileDefinitions(raw: RawDefinitions): Definitions {
  const resources = new Map<string, ResourceDefinition>();
  for (const r of raw.resources) {
    assertShape(checkResource, r.resource, `${r.dir}/resource.json`);
    assertShape(checkList, r.list, `${r.dir}/list.json`);
    if (r.form === null || typeof r.form !== 'object' || Array.isArray(r.form)) {
      throw new DefinitionError(`${r.dir}/form.ui.json`, '/', 'deve essere un oggetto');
    }
    const file = `${r.dir}/entity.schema.json`;
    const schema = resolveRefs(r.entity, file, '', raw.shared, r.entity) as JsonSchema;
    const removed = withoutRemoved(schema, file);
    const form = structuredClone(r.form) as Record<string, unknown>;
    deriveRules(schema, form, file, '');
    const resource = r.resource as ResourceConfig;
    resources.set(resource.name, {
      name: resource.name,
      resource,
      schema,
      list: r.list as ListConfig,
      form,
      fields: deriveFields(schema, file),
      removed,
    });
  }
  const names = new Set(resources.keys());
  const paths = new Map<string, string>();
  for (const [name, def] of resources) {
    checkCrossReferences(def, names, name);
    checkNetwork(def, resources);
    checkSearch(def, resources);
    checkRelated(def, resources);
    for (const p of [def.resource.api.path, ...(def.resource.api.aliases ?? [])]) {
      if (paths.has(p)) throw new DefinitionError(`${name}/resource.json`, '/api/path', `il percorso ${p} è già usato da ${paths.get(p)}`);
      paths.set(p, name);
    }
  }
  let staticMenu: MenuEntry[] = [];
  if (raw.menu) {
    assertShape(checkMenu, raw.menu.value, raw.menu.file);
    staticMenu = (raw.menu.value as MenuEntry[]).map((m) => ({ ...m, order: m.order ?? 0 }));
  }
  let dashboard: DashboardCard[] = [];
  if (raw.dashboard) {
    assertShape(checkDashboard, raw.dashboard.value, raw.dashboard.file);
    dashboard = (raw.dashboard.value as DashboardCard[]).map((c) => ({ ...c, order: c.order ?? 0 })).sort((a, b) => a.order - b.order);
  }
  return { resources, staticMenu, dashboard, workflows: new Map() };
}

// Shapes of the JSON definitions under schemas/ as the engine reads them.

export type PermissionAction = 'list' | 'read' | 'create' | 'update' | 'delete';

export interface RouteConfig {
  name: string;
  path: string;
  aliases?: string[];
}

export interface ResourceConfig {
  name: string;
  title: string;
  singular?: string;
  feminine?: boolean;
  newTitle?: string;
  recordTitle?: string;
  icon?: string;
  /** `operations`: the generic routes served (default all five). */
  api: { path: string; aliases?: string[]; operations?: PermissionAction[] };
  messages?: { created?: string; updated?: string; deleted?: string };
  routes?: { list?: RouteConfig; new?: RouteConfig; edit?: RouteConfig };
  menu?: { title: string; order?: number; icon?: string };
  permissions: Record<PermissionAction, string>;
  /** Rows whose `field` equals the signed-in user's attribute `user`, unless the user holds `unless`. */
  rowScope?: RowScope;
  /** Status workflow: the machine under workflows/ and where the per-status counts are served. */
  workflow?: { machine: string; countsPath?: string };
  /**
   * The list's search box: every word must appear in one of these. A text property, or a reference (x-ref) whose
   * record is matched by its own resource's text search fields (a policy by its customer's name).
   */
  search?: string[];
  /** The one search of the top bar (GET /api/cerca): what finds a record, how a result reads and the screen it opens. */
  cerca?: CercaConfig;
  /** An {id, label} picker at `path`; the label joins these fields, which also order it. */
  autocomplete?: { path: string; label: string[] };
  activeField?: string;
  /** Rows are a read-only SQL view registered by the resource's domain (app.extensions.view), not a table. */
  view?: boolean;
  headers?: string;
  media?: MediaConfig;
  /** Tabs of the record's screen with related rows (the customer card), checked at start. */
  related?: RelatedTab[];
  /** The change history of its records (default on); `false` for tables that are a log themselves (the outbox). */
  storico?: boolean;
}

/**
 * resource.json "related": one tab of the record's screen. `list` (default): `resource`'s generic list narrowed to
 * this record, by `field` (its x-ref to this resource) or by `match` (its property -> this record's property);
 * `storico`: the record's change history (GET {api.path}/{id}/storico); `tabella`: the rows of `path` with `columns`.
 */
export interface RelatedTab {
  title: string;
  kind?: 'list' | 'storico' | 'tabella';
  resource?: string;
  field?: string;
  match?: Record<string, string>;
  sort?: string;
  path?: string;
  columns?: Array<Pick<ListColumn, 'field' | 'headerName' | 'format'>>;
}

/**
 * resource.json "cerca". `fields`: text properties, `id` (equal to a number typed), a text property of an array's
 * objects as `array[].key` (a quotation's plates), or a reference matched by its record's search fields.
 * An entry may be `{field, match, shape}`: `match` "prefix" finds values starting with the typed word (keys: codice
 * fiscale, partita IVA, e-mail; served by a btree index) where "contains" (default) finds it anywhere (trigram index);
 * `shape` is a regular expression the typed word must match for the entry to be searched at all (a word with digits
 * is no surname, one with "@" is only an e-mail), so a key typed is looked up where it can be and nowhere else.
 * `label` and `route` are templates: `{field}` is the record's value, a reference's label for an x-ref field.
 */
export interface CercaConfig {
  fields: CercaField[];
  label: string;
  route: string;
}

export type CercaField = string | { field: string; match?: 'contains' | 'prefix'; shape?: string };

/** A cerca entry in its full form. */
export function cercaEntry(entry: CercaField): { field: string; match: 'contains' | 'prefix'; shape?: string } {
  return typeof entry === 'string' ? { field: entry, match: 'contains' } : { match: 'contains', ...entry };
}

/** The signed-in user's attributes a row scope may compare a record's field with. */
export const SCOPE_USER_ATTRIBUTES = ['collaboratore_id'] as const;
export type ScopeUserAttribute = (typeof SCOPE_USER_ATTRIBUTES)[number];

/**
 * Row scope (resource.json "rowScope"), applied by the repository to every read and write: a user sees the rows whose
 * `field` holds their `user` attribute (a user without it sees none), every row with `unless`, and with
 * `network.permission` also the rows of the records below theirs (following `network.parentField` of the resource
 * `field` points at).
 */
export interface RowScope {
  field: string;
  user: ScopeUserAttribute;
  unless?: string;
  network?: { permission: string; parentField: string };
}

export type MediaType = 'pdf' | 'jpeg' | 'png';

export interface MediaCollectionConfig {
  title: string;
  types: MediaType[];
  maxSizeMb: number;
  maxCount?: number;
  publicMaxCount?: number;
  generated?: boolean;
  fields?: Array<'versione' | 'valido_dal'>;
  /** One file per record: an accepted upload replaces the stored one. */
  single?: boolean;
  /** Expected of every tracked record (documents desk). */
  required?: boolean;
  /** Holds the signed copies. */
  signature?: boolean;
}

/** The files a resource's records own (resource.json "media"). */
export interface MediaConfig {
  model: string;
  collections: Record<string, MediaCollectionConfig>;
  /** Multipart field of the file (default "file"). */
  fileField?: string;
  items?: Array<{ model: string; field: string; collections: Record<string, MediaCollectionConfig> }>;
  paths?: { upload?: string[]; download?: string[]; list?: string[]; delete?: string[] };
  events?: { upload?: string; delete?: string; confirm?: string; revise?: string };
  trackStatuses?: number[];
  /** field -> values (null: empty): the documents desk follows only the records matching every entry. */
  trackWhere?: Record<string, Array<string | number | boolean | null>>;
  readPermission?: string;
}

export interface ListColumn {
  field: string;
  headerName: string;
  sortable?: boolean;
  filter?: 'text' | 'number' | 'set' | 'boolean' | 'date';
  /** An engine cell or the name of a cell a feature registered (an x-ref column needs none: it reads `<field>__label`). */
  format?: 'date' | 'money' | 'boolean' | 'chip' | 'datetime' | 'expand' | (string & {});
  width?: number;
  /** Kept in view while the grid scrolls sideways. */
  pinned?: 'left' | 'right';
  /** Visible without scrolling sideways (pinned at the left when the columns overflow the screen). */
  important?: boolean;
  hide?: boolean;
  chips?: Record<string, string>;
  thresholds?: Record<string, [number, number]>;
  itemKey?: string;
  itemValue?: string;
  /** format 'expand': other fields of the row shown with the nested items. */
  details?: string[];
}

/**
 * A list filter that is no column: a property of the entity, a domain's own filter (listFilters hook), or with
 * `property` and `bound` one end of a range on a property (filter[pagato_dal] = data_pagamento from that day).
 */
export interface ListFilter {
  field: string;
  headerName: string;
  filter: NonNullable<ListColumn['filter']>;
  property?: string;
  bound?: 'from' | 'to';
}

export interface ListConfig {
  columns: ListColumn[];
  defaultSort?: string;
  perPage?: number;
  actions?: Array<'add' | 'edit' | 'delete'>;
  emptyText?: string;
  deleteConfirm?: string;
  rowLink?: string;
  filters?: ListFilter[];
  /** The list's own saved filters, offered to every user before their own. */
  savedFilters?: Array<{ nome: string; search?: string; sort?: string; filters?: Record<string, string> }>;
  /** false: the list's API has no free-text search, so no search box is shown. */
  search?: boolean;
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  [keyword: string]: unknown;
};

export type FieldKind = 'text' | 'integer' | 'number' | 'money' | 'boolean' | 'date' | 'datetime' | 'json';

/** One stored property of an entity, derived from its schema. */
export interface FieldDefinition {
  name: string;
  kind: FieldKind;
  title?: string;
  readOnly: boolean;
  writeOnly: boolean;
  uppercase: boolean;
  /** The schema's format (a phone's "telefono"): its normaliser, when it has one, applies to the input. */
  format?: string;
  /** Hash with this algorithm before storing; never returned. */
  secret?: 'argon2';
  /** Name of the resource this field points at (foreign key). */
  ref?: string;
  /** Closed set of values when the schema gives one (enum or oneOf const). */
  values?: unknown[];
  /** Only holders of this permission expression read, filter or sort by this field ("x-read-permission"). */
  readPermission?: string;
  /** Only holders filter or sort by it ("x-filter-permission"), e.g. a value others see only in part. */
  filterPermission?: string;
  /** The column's former name ("x-renamed-from"): migration renames it, the API accepts the old name as an alias. */
  renamedFrom?: string;
}

export interface ResourceDefinition {
  name: string;
  resource: ResourceConfig;
  schema: JsonSchema;
  list: ListConfig;
  form: Record<string, unknown>;
  fields: FieldDefinition[];
  /** Properties marked "x-removed": true: gone from schema and API, their columns dropped by the migration. */
  removed?: string[];
}

export interface MenuEntry {
  title: string;
  route: string;
  icon?: string;
  permission: string;
  order: number;
}

/** A card of the dashboard (_shared/dashboard.json). */
export interface DashboardCard {
  title: string;
  route: string;
  icon?: string;
  permission: string;
  order: number;
  page?: string;
  count?: 'titoli_scaduti' | 'documenti_mancanti';
  countLabel?: string;
}

export interface Definitions {
  resources: Map<string, ResourceDefinition>;
  staticMenu: MenuEntry[];
  dashboard: DashboardCard[];
  /** Workflow machines by name (workflows/<name>.json), as JSON. */
  workflows: Map<string, unknown>;
  /** _shared/pianificazioni.json as read: the scheduler checks each entry against the jobs it knows. */
  schedules?: unknown;
}

/** Columns the engine owns on every table; clients never set them. */
export const SYSTEM_FIELDS = ['id', 'version', 'created_at', 'updated_at'] as const;

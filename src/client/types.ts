// Shapes the client receives from /api/definitions, /api/login and the CRUD endpoints.
import type { DashboardCard, JsonSchema, ListColumn, ListConfig, MenuEntry, ResourceConfig } from '../shared/definitions/types.ts';
import type { WorkflowDefinition } from '../shared/workflow/machine.ts';

export type { DashboardCard, JsonSchema, ListColumn, ListConfig, MenuEntry, ResourceConfig };

export interface ResourceCan {
  list: boolean;
  read: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
}

/** One resource as served by GET /api/definitions ($refs already inlined in `schema`). */
export interface ResourceDef {
  name: string;
  resource: ResourceConfig;
  schema: JsonSchema;
  list: ListConfig;
  form: FormUi;
  can: ResourceCan;
  /** The status machine (workflows/<name>.json) of a resource that declares one. */
  workflow?: WorkflowDefinition;
}

export interface DefinitionsPayload {
  resources: ResourceDef[];
  menu: MenuEntry[];
  /** The dashboard's cards the user may open (schemas/_shared/dashboard.json). */
  dashboard?: DashboardCard[];
}

/** form.ui.json: an rjsf uiSchema plus a root "ui:layout". */
export type FormUi = Record<string, unknown> & { 'ui:layout'?: LayoutSection[] };

export interface LayoutSection {
  title: string;
  fields: string[];
}

export interface SessionUser {
  id: number;
  name: string;
  initials: string;
  email: string;
  collaboratore_id?: number | null;
}

export interface SessionData {
  permissions: string[];
  roles: string[];
  user: SessionUser;
  environment: Record<string, unknown>;
  /** The role requires two-step verification and the user has none: the session may only enrol. */
  mfa_da_attivare?: boolean;
}

export type RecordData = Record<string, unknown> & { id?: number | string; version?: number };

/** A stored file of a record (GET {media list path}). */
export interface MediaItem {
  id: number;
  name: string;
  collection_name: string;
  file_name: string;
  mime_type: string;
  size: number;
  /** Download (GET) and delete (DELETE) address, given by the server. */
  url: string;
  item_model: string | null;
  item_id: string | null;
  created_by_name: string | null;
  created_at: string;
  meta: { versione?: number | string; valido_dal?: string; tag?: string; verifica?: { esito: string; nota?: string } } & Record<string, unknown>;
}

/** A collection of files a record may hold, with its limits (resource.json "media"). */
export interface MediaCollection {
  name: string;
  /** The owner model the collection belongs to (Quotazione, or Veicolo for a vehicle's booklet). */
  model?: string;
  title: string;
  types: string[];
  maxSizeMb: number;
  maxCount?: number;
  generated?: boolean;
  /** One file: an upload replaces it. */
  single?: boolean;
  /** Asked at upload: a notice's version and validity date. */
  fields?: Array<'versione' | 'valido_dal'>;
}

export interface MediaList {
  data: MediaItem[];
  collections: MediaCollection[];
}

export interface Page<T = RecordData> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  /** The server did not count a large list: total is a lower bound ('più di N'). */
  total_is_estimate?: boolean;
}

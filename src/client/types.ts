// Shapes the client receives from /api/definitions, /api/login and the CRUD endpoints.
import type { JsonSchema, ListColumn, ListConfig, MenuEntry, ResourceConfig } from '../shared/definitions/types.ts';
import type { WorkflowDefinition } from '../shared/workflow/machine.ts';

export type { JsonSchema, ListColumn, ListConfig, MenuEntry, ResourceConfig };

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
}

export type RecordData = Record<string, unknown> & { id?: number | string; version?: number };

export interface Page<T = RecordData> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  /** The server did not count a large list: total is a lower bound ('più di N'). */
  total_is_estimate?: boolean;
}

// A dashboard desk (a list no single resource owns) as a definition the generic list draws: its card's title, icon and
// permission, the desk's API, row schema and list.
import type { DashboardCard, JsonSchema, ListConfig, ResourceDef } from '../types.ts';

export interface DeskFile {
  api: string;
  schema: unknown;
  list: unknown;
}

/** `schema` is the desk's own (a copy the caller may have filled with options). */
export function deskDef(card: DashboardCard, name: string, desk: DeskFile, schema: JsonSchema = structuredClone(desk.schema) as JsonSchema): ResourceDef {
  const permission = card.permission;
  return {
    name,
    resource: {
      name,
      title: card.title,
      icon: card.icon,
      api: { path: desk.api },
      permissions: { list: permission, read: permission, create: permission, update: permission, delete: permission },
    },
    schema,
    list: desk.list as ListConfig,
    form: {},
    can: { list: true, read: true, create: false, update: false, delete: false },
  };
}

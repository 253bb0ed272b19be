// The one access check of the client: menu, routes, buttons and row actions all ask can(resource, action, record?).
// It answers from the definitions' per-user grants (the server's permissions for the resource) and, for a
// record of a resource with a status machine, from the machine: editing and deleting are events (kind
// update/delete) that the record's status must allow, exactly as the server decides.
import type { PermissionAction } from '../../shared/definitions/types.ts';
import type { MenuEntry, RecordData, ResourceDef } from '../types.ts';
import { can as hasGrant } from '../api/session.ts';
import { sessionUser, workflowOf } from './workflow.ts';

export type Action = PermissionAction;

export function can(def: ResourceDef | undefined, action: Action, record?: RecordData): boolean {
  if (!def?.can[action]) return false;
  if (!record || !def.workflow || (action !== 'update' && action !== 'delete')) return true;
  const workflow = workflowOf(def.workflow);
  const events = Object.entries(workflow.definition.meta.events).filter(([, meta]) => meta.kind === action);
  // A machine that does not model the action leaves it to the permission.
  if (!events.length) return true;
  const status = Number(record[workflow.statusField] ?? workflow.initialStatus.id);
  const user = sessionUser();
  return events.some(([type]) => workflow.can(status, user, record, { type }));
}

/** A menu entry: a resource's list asks can(resource, 'list'); a static page (dashboard, tools) its permission. */
export function canOpen(entry: MenuEntry, resources: ResourceDef[]): boolean {
  const def = resources.find((d) => d.resource.routes?.list?.path === entry.route);
  return def ? can(def, 'list') : hasGrant(entry.permission);
}

// The one access check of the client: menu, routes, buttons and row actions all ask can(resource, action, record?).
// It answers from the definitions' per-user grants (the server's permissions for the resource) and, for a
// record of a resource with a status machine, from the machine: editing and deleting are events (kind
// update/delete) that the record's status must allow, exactly as the server decides.
import { use } from 'react';
import type { PermissionAction } from '../../shared/definitions/types.ts';
import type { MenuEntry, RecordData, ResourceDef } from '../types.ts';
import { can as hasGrant } from '../api/session.ts';
import { sessionUser } from './workflowGuards.ts';

export type Action = PermissionAction;

// The status machines (XState) are not part of the shell: they load for the screens of resources that have one.
let machines: typeof import('./workflow.ts') | undefined;
let loading: Promise<void> | undefined;

/** Loads the status machines once; can() answers for a record's status after it settles. */
export function loadWorkflows(): Promise<void> {
  return (loading ??= import('./workflow.ts').then((module) => {
    machines = module;
  }));
}

/**
 * For a screen that asks can() about records: suspends until the machines are there when the resource has one
 * (the route starts the download beside the page's own chunk: see preloadWorkflows).
 */
export function useWorkflows(def: ResourceDef | undefined): void {
  if (def?.workflow && !machines) use(loadWorkflows());
}

/** Starts loading the machines a resource's screens will ask, without waiting. */
export function preloadWorkflows(def: ResourceDef | undefined): void {
  if (def?.workflow && !machines) void loadWorkflows().catch(() => undefined);
}

export function can(def: ResourceDef | undefined, action: Action, record?: RecordData): boolean {
  if (!def?.can[action]) return false;
  if (!record || !def.workflow || (action !== 'update' && action !== 'delete')) return true;
  // A screen that forgot useWorkflows would otherwise show or hide actions against the server's rule: say so.
  if (!machines) throw new Error(`can(${def.name}, ${action}): le macchine di stato non sono caricate (useWorkflows).`);
  const workflow = machines.workflowOf(def.workflow);
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

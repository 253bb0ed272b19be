// The record's status machine on the client: the same JSON and guards the server enforces, so the buttons shown are the ones it accepts.
import { useMemo } from 'react';
import { createActor } from 'xstate';
import { useSelector } from '@xstate/react';
import { workflowOf } from '../../lib/workflow.ts';
import { sessionUser } from '../../lib/workflowGuards.ts';
import type { EventMeta, Status, Workflow, WorkflowDefinition } from '../../../shared/workflow/machine.ts';

// The machine cache (lib/workflow.ts) and the session's user (lib/workflowGuards.ts) are shared with the access check.
export { sessionUser, workflowOf };
import type { RecordData } from '../../types.ts';

export interface AvailableEvent {
  type: string;
  meta: EventMeta;
  /** Where the event leads when it changes the status. */
  target?: Status;
  /** Allowed targets of a manual status change. */
  targets?: Status[];
}

export interface RecordWorkflow {
  workflow: Workflow;
  status: Status;
  events: AvailableEvent[];
  warnings: string[];
  allows: (type: string) => boolean;
}

/** The events of GET …/workflow, judged by the server on the stored record (values the user may not read included). */
export interface ServerEvents {
  version: unknown;
  eventi: Array<{ type: string; target?: Status; targets?: Status[] }>;
  /** The status's warnings judged the same way (a derogation a hidden colour calls for). */
  avvisi?: string[];
}

/**
 * The server's events with this machine's metadata. A masked value (a collaborator gets no green/yellow colour) makes
 * the client's own guards judge differently: the server's answer names the real target (CONFERMA → in_attesa_di_deroga).
 */
export function serverAvailable(workflow: Workflow, server: ServerEvents): AvailableEvent[] {
  return server.eventi.flatMap((e) => {
    const meta = workflow.definition.meta.events[e.type];
    if (!meta) return [];
    const target = e.target ? workflow.statuses.find((s) => s.key === e.target!.key) : undefined;
    const targets = e.targets?.flatMap((t) => workflow.statuses.filter((s) => s.key === t.key));
    return [{ type: e.type, meta, ...(target ? { target } : {}), ...(targets ? { targets } : {}) }];
  });
}

/** What the confirm dialog of an event asks: its text for the status it leads to, else its own, else its label. */
export function confirmTextOf(event: AvailableEvent): string {
  return (event.target && event.meta.confirmWhenTarget?.[event.target.key]) ?? event.meta.confirm ?? `${event.meta.label}?`;
}

/** Buttons of the action bar: events with a route of their own (manual change, edits, later features and panels' own excluded). */
export function actionEvents(events: AvailableEvent[]): AvailableEvent[] {
  return events.filter((e) => e.meta.route && !e.meta.later && !e.meta.public && !e.meta.kind && !e.meta.panel);
}

/**
 * An actor restored at the record's status (XState's resolveState), read with useSelector; the events come from
 * Workflow.available, the very function the server's GET …/workflow answers with.
 */
export function useRecordWorkflow(definition: WorkflowDefinition, record: RecordData | undefined, server?: ServerEvents): RecordWorkflow {
  const workflow = workflowOf(definition);
  const statusId = Number(record?.[workflow.statusField] ?? workflow.initialStatus.id);
  const data = useMemo(() => record ?? {}, [record]);
  const actor = useMemo(() => {
    const status = workflow.status(statusId);
    const user = sessionUser();
    const snapshot = workflow.machine.resolveState({ value: status.key, context: { user, record: data, stato: { id: status.id, code: status.code } } });
    return createActor(workflow.machine, { snapshot });
  }, [workflow, statusId, data]);
  const key = useSelector(actor, (snapshot) => String(snapshot.value));
  return useMemo(() => {
    const status = workflow.statuses.find((s) => s.key === key) ?? workflow.status(statusId);
    const user = sessionUser();
    // The server's answer for this very version wins: it judged the values this user is not shown.
    const fresh = server && record && server.version !== undefined && server.version === (record.version ?? null);
    const events = fresh ? serverAvailable(workflow, server) : workflow.available(status.id, user, data) as AvailableEvent[];
    const types = new Set(events.map((e) => e.type));
    const warnings = fresh && server.avvisi ? server.avvisi : workflow.warnings(status.id, user, data);
    return { workflow, status, events, warnings, allows: (type: string) => types.has(type) };
  }, [workflow, key, statusId, data, server, record]);
}

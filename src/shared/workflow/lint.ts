// Checks a workflow definition: statuses reachable, guards and actions implemented, every event labelled in Italian.
import type { GuardRef } from './guards.ts';
import type { WorkflowDefinition } from './machine.ts';

interface Transition {
  target?: string;
  guard?: GuardRef;
  actions?: Array<{ type: string; params?: Record<string, unknown> }>;
}

function transitions(on: Record<string, unknown> | undefined): Array<[string, Transition]> {
  return Object.entries(on ?? {}).flatMap(([event, t]) => (Array.isArray(t) ? t : [t]).map((x) => [event, x as Transition] as [string, Transition]));
}

function guardNames(guard: GuardRef | undefined): string[] {
  if (!guard) return [];
  const nested = (guard.params?.guards as GuardRef[] | undefined) ?? [];
  return [guard.type, ...nested.flatMap(guardNames)];
}

/** What the app implements for a machine: action names and guard names (generic and the machine's own). */
export interface Implemented {
  actions: string[];
  guards: string[];
}

/**
 * Problems found, as readable sentences; empty when the machine is sound. Actions and guards are checked when
 * `implemented` is given (they come with the domains: the start-up checks them once the domains registered).
 */
export function lintWorkflow(definition: WorkflowDefinition, implemented?: Implemented): string[] {
  const problems: string[] = [];
  const events = definition.meta?.events ?? {};
  const states = Object.keys(definition.states);
  const all: Array<[string, string, Transition]> = [
    ...states.flatMap((s) => transitions(definition.states[s]!.on).map(([e, t]) => [s, e, t] as [string, string, Transition])),
    ...transitions(definition.on).map(([e, t]) => ['(root)', e, t] as [string, string, Transition]),
  ];
  const ids = new Set<number>();
  for (const [key, state] of Object.entries(definition.states)) {
    if (!state.meta || typeof state.meta.id !== 'number' || !state.meta.nome) problems.push(`state ${key}: meta needs id, code and nome`);
    else if (ids.has(state.meta.id)) problems.push(`state ${key}: status id ${state.meta.id} used twice`);
    else ids.add(state.meta.id);
  }
  for (const [state, event, t] of all) {
    const meta = events[event];
    if (!meta) problems.push(`${state}: event ${event} has no meta (label)`);
    else if (!meta.label?.trim()) problems.push(`event ${event}: empty label`);
    for (const name of guardNames(t.guard)) if (implemented && !implemented.guards.includes(name)) problems.push(`${state} ${event}: guard "${name}" is not implemented`);
    for (const action of t.actions ?? []) {
      if (implemented && !implemented.actions.includes(action.type)) problems.push(`${state} ${event}: action "${action.type}" is not implemented`);
      const template = action.params?.template;
      if (template !== undefined && !definition.meta.emails?.[String(template)]) problems.push(`${state} ${event}: email template "${String(template)}" missing`);
    }
    const target = t.target?.replace(`#${definition.id}.`, '');
    if (target && !definition.states[target]) problems.push(`${state} ${event}: unknown target ${t.target}`);
  }
  for (const [event, meta] of Object.entries(events)) {
    if (meta.historyOnly) {
      if (all.some(([, e]) => e === event)) problems.push(`event ${event} is history-only but a state uses it`);
    } else if (!all.some(([, e]) => e === event)) problems.push(`event ${event} is labelled but no state uses it`);
    if (!meta.label?.trim()) problems.push(`event ${event}: empty label`);
  }
  for (const warning of definition.meta.warnings ?? []) {
    for (const name of guardNames(warning.guard)) if (implemented && !implemented.guards.includes(name)) problems.push(`warning "${warning.message}": guard "${name}" is not implemented`);
  }
  // Reachable through the ordinary events; the manual status change would make everything reachable trivially.
  const manual = new Set(Object.entries(events).filter(([, m]) => m.kind === 'manual').map(([e]) => e));
  // Records may also start in an entry state (a renewal starts as 'Bozza rinnovo').
  const reached = new Set([definition.initial, ...(definition.meta.entries ?? [])]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [state, event, t] of all) {
      const target = t.target?.replace(`#${definition.id}.`, '');
      if (state !== '(root)' && reached.has(state) && target && !manual.has(event) && !reached.has(target)) {
        reached.add(target);
        grew = true;
      }
    }
  }
  for (const state of states) if (!reached.has(state)) problems.push(`state ${state} is not reachable from ${definition.initial}`);
  return problems;
}

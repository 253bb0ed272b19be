// Checks a workflow definition: statuses reachable, guards and actions implemented, every event labelled in Italian.
// Its problems are read by analysts (start-up, lint:definitions, the studio): Italian sentences, states by their name.
import type { GuardRef } from './guards.ts';
import type { WorkflowDefinition } from './machine.ts';

interface Transition {
  target?: string;
  guard?: GuardRef;
  actions?: Array<{ type: string; params?: Record<string, unknown> }>;
}

/** The machine's own transitions (a manual status change), taken from any state. */
const ROOT = '(root)';

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
 * Problems found, as Italian sentences; empty when the machine is sound. Actions and guards are checked when
 * `implemented` is given (they come with the domains: the start-up checks them once the domains registered).
 */
export function lintWorkflow(definition: WorkflowDefinition, implemented?: Implemented): string[] {
  const problems: string[] = [];
  const events = definition.meta?.events ?? {};
  const states = Object.keys(definition.states);
  // A state as the analyst knows it: its Italian name when it has one; root transitions apply to every state.
  const nome = (s: string) => (definition.states[s]?.meta?.nome ? `«${definition.states[s].meta.nome}»` : s === ROOT ? 'ogni stato' : s);
  const all: Array<[string, string, Transition]> = [
    ...states.flatMap((s) => transitions(definition.states[s]!.on).map(([e, t]) => [s, e, t] as [string, string, Transition])),
    ...transitions(definition.on).map(([e, t]) => [ROOT, e, t] as [string, string, Transition]),
  ];
  const ids = new Set<number>();
  for (const [key, state] of Object.entries(definition.states)) {
    if (!state.meta || typeof state.meta.id !== 'number' || !state.meta.nome) problems.push(`Lo stato ${nome(key)} deve avere id, codice e nome.`);
    else if (ids.has(state.meta.id)) problems.push(`Lo stato ${nome(key)} usa l'id ${state.meta.id}, già di un altro stato.`);
    else ids.add(state.meta.id);
  }
  for (const [state, event, t] of all) {
    const meta = events[event];
    const where = `${nome(state)}, evento ${event}`;
    if (!meta) problems.push(`${nome(state)}: l'evento ${event} non ha un'etichetta (meta.events).`);
    else if (!meta.label?.trim()) problems.push(`L'evento ${event} ha l'etichetta vuota.`);
    for (const name of guardNames(t.guard)) if (implemented && !implemented.guards.includes(name)) problems.push(`${where}: la condizione «${name}» non è implementata.`);
    for (const action of t.actions ?? []) {
      if (implemented && !implemented.actions.includes(action.type)) problems.push(`${where}: l'azione «${action.type}» non è implementata.`);
      const template = action.params?.template;
      if (template !== undefined && !definition.meta.emails?.[String(template)]) problems.push(`${where}: manca il modello di e-mail «${String(template)}».`);
    }
    const target = t.target?.replace(`#${definition.id}.`, '');
    if (target && !definition.states[target]) problems.push(`${where}: lo stato di arrivo ${t.target} non esiste.`);
  }
  for (const [event, meta] of Object.entries(events)) {
    if (meta.historyOnly) {
      if (all.some(([, e]) => e === event)) problems.push(`L'evento ${event} è solo storico ma uno stato lo usa.`);
    } else if (!all.some(([, e]) => e === event)) problems.push(`L'evento ${event} ha un'etichetta ma nessuno stato lo usa.`);
    if (!meta.label?.trim()) problems.push(`L'evento ${event} ha l'etichetta vuota.`);
  }
  for (const warning of definition.meta.warnings ?? []) {
    for (const name of guardNames(warning.guard)) if (implemented && !implemented.guards.includes(name)) problems.push(`Avviso «${warning.message}»: la condizione «${name}» non è implementata.`);
  }
  // Reachable through the ordinary events; the manual status change would make everything reachable trivially.
  const manual = new Set(Object.entries(events).filter(([, m]) => m.kind === 'manual').map(([e]) => e));
  // Records may also start in an entry state (a renewal starts as 'Bozza rinnovo').
  const reached = new Set([definition.initial, ...(definition.meta.entries ?? [])]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [state, event, t] of all) {
      const target = t.target?.replace(`#${definition.id}.`, '');
      if (state !== ROOT && reached.has(state) && target && !manual.has(event) && !reached.has(target)) {
        reached.add(target);
        grew = true;
      }
    }
  }
  for (const state of states) {
    if (!reached.has(state)) problems.push(`Lo stato ${nome(state)} non è raggiungibile da ${nome(definition.initial)}: aggiungi una transizione che vi arrivi.`);
  }
  return problems;
}

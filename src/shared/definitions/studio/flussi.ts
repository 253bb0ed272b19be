// The studio's workflows: a machine read as a diagram (states in columns by their distance from the initial one,
// transitions with the event's label, guard and permission), the lint in Italian, and the files that adding a state, a
// transition's guard writes: what the Analyst guide describes by hand in workflows/<machine>.json.
import { lintWorkflow, type Implemented } from '../../workflow/lint.ts';
import type { GuardRef } from '../../workflow/guards.ts';
import type { WorkflowDefinition } from '../../workflow/machine.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- definition files are free JSON

/** The generic guards (src/shared/workflow/guards.ts) as an analyst reads them, with the parameter each takes. */
export const GUARDIE: Record<string, { titolo: string; parametro?: 'permission' | 'stato' | 'code' }> = {
  hasPermission: { titolo: 'L\'utente ha il permesso', parametro: 'permission' },
  lacksPermission: { titolo: 'L\'utente non ha il permesso', parametro: 'permission' },
  notaPresente: { titolo: 'È stata scritta una nota' },
  statoRichiesto: { titolo: 'È lo stato richiesto (cambio manuale)', parametro: 'stato' },
  statoSotto: { titolo: 'Lo stato attuale ha un id minore di', parametro: 'stato' },
  statoCodice: { titolo: 'Lo stato attuale ha il codice', parametro: 'code' },
  attoreCliente: { titolo: 'Lo esegue il cliente dal suo link' },
};

/** The guards a studio form may add: those implemented for the machine, without the all/any combinators. */
export function guardieScelte(implementate: string[]): Array<{ const: string; title: string }> {
  return implementate.filter((g) => g !== 'all' && g !== 'any').map((g) => ({ const: g, title: GUARDIE[g] ? `${GUARDIE[g].titolo} (${g})` : `${g} (del dominio)` }));
}

/** A guard in words: 'permesso conferma_quotazione e calcolata'. */
export function descriviGuardia(guard: GuardRef | undefined): string {
  if (!guard) return '';
  const nested = (guard.params?.guards as GuardRef[] | undefined) ?? [];
  if (guard.type === 'all') return nested.map(descriviGuardia).join(' e ');
  if (guard.type === 'any') return `(${nested.map(descriviGuardia).join(' oppure ')})`;
  if (guard.type === 'hasPermission') return `permesso ${String(guard.params?.permission)}`;
  if (guard.type === 'lacksPermission') return `senza il permesso ${String(guard.params?.permission)}`;
  const param = guard.params && Object.values(guard.params).map(String).join(', ');
  return param ? `${guard.type} ${param}` : guard.type;
}

/** The permissions a guard requires (hasPermission anywhere under all; under any they are alternatives, still shown). */
export function permessiDi(guard: GuardRef | undefined): string[] {
  if (!guard) return [];
  if (guard.type === 'hasPermission') return [String(guard.params?.permission)];
  return ((guard.params?.guards as GuardRef[] | undefined) ?? []).flatMap(permessiDi);
}

export interface Arco {
  id: string;
  da: string;
  a: string;
  evento: string;
  etichetta: string;
  guardia: string;
  permessi: string[];
}

export interface Nodo {
  stato: string;
  nome: string;
  colonna: number;
  riga: number;
  iniziale: boolean;
  finale: boolean;
  /** Events that keep the state (save, upload...): listed in the box, not drawn. */
  restano: string[];
}

export interface Schema {
  nodi: Nodo[];
  archi: Arco[];
  /** Events of the machine's root (a manual status change from any state), in words. */
  globali: string[];
}

function transizioni(on: Json | undefined): Array<[string, Json]> {
  return Object.entries<Json>(on ?? {}).flatMap(([event, t]) => (Array.isArray(t) ? t : [t]).map((x: Json) => [event, x] as [string, Json]));
}

/**
 * The diagram's layout: each state's column is its BFS depth from the initial state (entry states start at 0 too;
 * unreachable ones go last), rows in the machine's order; a transition to another state is an arrow.
 */
export function schemaFlusso(machine: Json): Schema {
  const states = Object.keys(machine.states ?? {});
  const label = (e: string) => String(machine.meta?.events?.[e]?.label ?? e);
  const archi: Arco[] = [];
  const restano = new Map<string, string[]>(states.map((s) => [s, []]));
  for (const s of states) {
    transizioni(machine.states[s].on).forEach(([evento, t], i) => {
      const a = String(t.target ?? s).replace(`#${machine.id}.`, '');
      if (a === s) {
        if (!restano.get(s)!.includes(label(evento))) restano.get(s)!.push(label(evento));
        return;
      }
      archi.push({ id: `${s}-${evento}-${i}`, da: s, a, evento, etichetta: label(evento), guardia: descriviGuardia(t.guard), permessi: permessiDi(t.guard) });
    });
  }
  const depth = new Map<string, number>();
  const queue = [machine.initial, ...(machine.meta?.entries ?? [])].filter((s: string) => states.includes(s));
  for (const s of queue) depth.set(s, 0);
  while (queue.length) {
    const s = queue.shift()!;
    for (const arco of archi.filter((x) => x.da === s && states.includes(x.a) && !depth.has(x.a))) {
      depth.set(arco.a, depth.get(s)! + 1);
      queue.push(arco.a);
    }
  }
  const last = Math.max(0, ...depth.values()) + 1;
  const righe = new Map<number, number>();
  const nodi = states.map((stato) => {
    const colonna = depth.get(stato) ?? last;
    const riga = righe.get(colonna) ?? 0;
    righe.set(colonna, riga + 1);
    const def = machine.states[stato];
    return {
      stato, nome: String(def.meta?.nome ?? stato), colonna, riga, iniziale: stato === machine.initial,
      finale: def.type === 'final' || !archi.some((x) => x.da === stato), restano: restano.get(stato)!,
    };
  });
  const globali = [...new Set(transizioni(machine.on).map(([e]) => label(e)))].map((l) => `${l}: da ogni stato`);
  return { nodi, archi, globali };
}

/** The lint's sentences (src/shared/workflow/lint.ts, Italian already); a machine too broken to lint, said in one. */
export function lintFlusso(machine: Json, implemented?: Implemented): string[] {
  try {
    return lintWorkflow(machine as WorkflowDefinition, implemented);
  } catch (error) {
    return [`Il flusso non si legge: ${(error as Error).message}`];
  }
}

export interface NuovoStato {
  stato: string;
  nome: string;
  codice?: string;
  /** The transition that reaches it (optional in the form: without it the lint says the state is unreachable). */
  da?: string;
  evento?: string;
  etichetta?: string;
  permesso?: string;
}

/** The next free status id of a machine. */
export const prossimoId = (machine: Json) => Math.max(0, ...Object.values<Json>(machine.states ?? {}).map((s) => Number(s.meta?.id) || 0)) + 1;

const rotta = (evento: string) => evento.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A new state (meta id, code, nome) and, when given, the permission-guarded transition reaching it. */
export function fileStato(machine: Json, s: NuovoStato): Json {
  const next = structuredClone(machine);
  const id = prossimoId(machine);
  next.states[s.stato] = { meta: { id, code: s.codice || String(id), nome: s.nome }, on: {} };
  if (s.da && s.evento) {
    const t = { ...(s.permesso ? { guard: { type: 'hasPermission', params: { permission: s.permesso } } } : {}), target: s.stato };
    const prima = next.states[s.da].on?.[s.evento];
    next.states[s.da].on = { ...(next.states[s.da].on ?? {}), [s.evento]: prima ? [...(Array.isArray(prima) ? prima : [prima]), t] : t };
    if (!next.meta.events[s.evento]) next.meta.events = { ...next.meta.events, [s.evento]: { label: s.etichetta ?? '', route: rotta(s.evento) } };
  }
  return next;
}

/** Every transition of a machine as a choice: 'stato|EVENTO|indice'. */
export function transizioniScelte(machine: Json): Array<{ const: string; title: string }> {
  const nome = (s: string) => String(machine.states?.[s]?.meta?.nome ?? s);
  return Object.keys(machine.states ?? {}).flatMap((s) => Object.entries<Json>(machine.states[s].on ?? {}).flatMap(([e, x]) => (Array.isArray(x) ? x : [x]).map((t: Json, i) => {
    const a = String(t.target ?? s).replace(`#${machine.id}.`, '');
    const guardia = descriviGuardia(t.guard as GuardRef | undefined);
    return { const: `${s}|${e}|${i}`, title: `${nome(s)} → ${nome(a)}: ${String(machine.meta?.events?.[e]?.label ?? e)}${guardia ? ` [${guardia}]` : ''}` };
  })));
}

export interface NuovaGuardia {
  transizione: string;
  guardia: string;
  permesso?: string;
  stato?: number;
  codice?: string;
}

/** The guard as the machine writes it, with its parameter; an error message when the parameter is missing. */
export function guardiaDi(g: Pick<NuovaGuardia, 'guardia' | 'permesso' | 'stato' | 'codice'>): GuardRef | string {
  const parametro = GUARDIE[g.guardia]?.parametro;
  if (parametro === 'permission') return g.permesso ? { type: g.guardia, params: { permission: g.permesso } } : 'Scegli il permesso della condizione.';
  if (parametro === 'stato') return g.stato !== undefined ? { type: g.guardia, params: { stato: g.stato } } : 'Scegli lo stato della condizione.';
  if (parametro === 'code') return g.codice ? { type: g.guardia, params: { code: g.codice } } : 'Scrivi il codice dello stato della condizione.';
  return { type: g.guardia };
}

/** A guard added to one transition: with the existing one under `all` (both must hold). */
export function fileGuardia(machine: Json, g: NuovaGuardia): Json | string {
  const guard = guardiaDi(g);
  if (typeof guard === 'string') return guard;
  const [stato, evento, indice] = g.transizione.split('|');
  const next = structuredClone(machine);
  const on = next.states[stato!]?.on;
  if (!on?.[evento!]) return 'Scegli la transizione.';
  const list: Json[] = Array.isArray(on[evento!]) ? on[evento!] : [on[evento!]];
  const t = list[Number(indice)];
  if (!t) return 'Scegli la transizione.';
  t.guard = !t.guard ? guard : t.guard.type === 'all' ? { type: 'all', params: { guards: [...t.guard.params.guards, guard] } } : { type: 'all', params: { guards: [t.guard, guard] } };
  return next;
}

// Named guards of the workflow machines: the server calls them to enforce, the client to show buttons.
import { hasPermission, type Grants } from '../permissions.ts';

export interface WorkflowUser extends Grants {
  /** 'cliente' for the customer's public link, else staff. */
  kind?: 'staff' | 'cliente';
}

export interface WorkflowContext {
  user: WorkflowUser;
  record: Record<string, unknown>;
  /** The current status as the machine's meta declares it. */
  stato: { id: number; code: string };
}

export interface WorkflowEvent {
  type: string;
  /** Target status id of a manual change. */
  stato?: number;
  nota?: string;
}

export interface GuardRef {
  type: string;
  params?: Record<string, unknown>;
}

export type GuardArgs = { context: WorkflowContext; event: WorkflowEvent };
export type Guard = (args: GuardArgs, params: Record<string, unknown> | undefined) => boolean;
/** A machine's own guards (e.g. the quotation's, beside its domain), added to the generic ones below. */
export type GuardSet = Record<string, Guard>;

/** Generic guards every machine may name; a machine's own come with it (new Workflow(definition, guards)). */
const GENERIC: GuardSet = {
  hasPermission: ({ context }, params) => hasPermission(String(params?.permission), context.user),
  lacksPermission: ({ context }, params) => !hasPermission(String(params?.permission), context.user),
  notaPresente: ({ event }) => typeof event.nota === 'string' && event.nota.trim().length > 0,
  statoRichiesto: ({ event }, params) => Number(event.stato) === Number(params?.stato),
  statoSotto: ({ context }, params) => context.stato.id < Number(params?.stato),
  statoCodice: ({ context }, params) => context.stato.code === String(params?.code),
  attoreCliente: ({ context }) => context.user.kind === 'cliente',
};

/** The generic guards, the machine's own, and all/any combining any of them. */
export function guardsWith(own: GuardSet = {}): GuardSet {
  const set: GuardSet = {
    ...GENERIC,
    ...own,
    all: (args, params) => (params?.guards as GuardRef[]).every((g) => evaluateGuard(g, args, set)),
    any: (args, params) => (params?.guards as GuardRef[]).some((g) => evaluateGuard(g, args, set)),
  };
  return set;
}

export const workflowGuards: GuardSet = guardsWith();

export function evaluateGuard(guard: GuardRef, args: GuardArgs, guards: GuardSet = workflowGuards): boolean {
  const implementation = guards[guard.type];
  if (!implementation) throw new Error(`guard "${guard.type}" is not implemented`);
  return implementation(args, guard.params);
}

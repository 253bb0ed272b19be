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

type GuardArgs = { context: WorkflowContext; event: WorkflowEvent };
type Guard = (args: GuardArgs, params: Record<string, unknown> | undefined) => boolean;

const DEROGA_COLOURS = new Set(['g', 'r', 'giallo', 'rosso']);

function derogaNecessaria({ context }: GuardArgs): boolean {
  const colore = String(context.record.colore ?? '').toLowerCase();
  return context.record.minoreAnni === true || DEROGA_COLOURS.has(colore);
}

export const workflowGuards: Record<string, Guard> = {
  hasPermission: ({ context }, params) => hasPermission(String(params?.permission), context.user),
  lacksPermission: ({ context }, params) => !hasPermission(String(params?.permission), context.user),
  // Drivers under 25 or a yellow/red vehicle need an approver's derogation (spec 001 §4).
  derogaNecessaria: (args) => derogaNecessaria(args),
  derogaNonNecessaria: (args) => !derogaNecessaria(args),
  // A quotation can be confirmed only with a calculated preview.
  calcolata: ({ context }) => Array.isArray(context.record.preventivi) && context.record.preventivi.length > 0,
  notaPresente: ({ event }) => typeof event.nota === 'string' && event.nota.trim().length > 0,
  statoRichiesto: ({ event }, params) => Number(event.stato) === Number(params?.stato),
  statoSotto: ({ context }, params) => context.stato.id < Number(params?.stato),
  statoCodice: ({ context }, params) => context.stato.code === String(params?.code),
  attoreCliente: ({ context }) => context.user.kind === 'cliente',
  senzaRinnovo: ({ context }) => !context.record.rinnovo_id,
  // 'Policy issued successfully' is code above 8 and id not 11 (spec 001 §4).
  polizzaEmessa: ({ context }) => Number(context.stato.code) > 8 && context.stato.id !== 11,
  all: (args, params) => (params?.guards as GuardRef[]).every((g) => evaluateGuard(g, args)),
  any: (args, params) => (params?.guards as GuardRef[]).some((g) => evaluateGuard(g, args)),
};

export function evaluateGuard(guard: GuardRef, args: GuardArgs): boolean {
  const implementation = workflowGuards[guard.type];
  if (!implementation) throw new Error(`guard "${guard.type}" is not implemented`);
  return implementation(args, guard.params);
}

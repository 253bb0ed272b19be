// Builds an XState machine from a workflows/*.json definition and answers what a user may do at a given status.
import { setup, transition, type AnyStateMachine } from 'xstate';
import { evaluateGuard, guardsWith, type GuardRef, type GuardSet, type WorkflowContext, type WorkflowEvent, type WorkflowUser } from './guards.ts';

export interface EventMeta {
  label: string;
  route?: string;
  /** Other full paths (without /{id}) that send the same event, e.g. the spec's /api/v1/goold/quotations/directConfirm. */
  paths?: string[];
  kind?: 'update' | 'field' | 'delete' | 'manual';
  fields?: string[];
  confirm?: string;
  confirmWhenTarget?: Record<string, string>;
  note?: 'required' | 'optional';
  noteField?: string;
  public?: boolean;
  /** Declared now, carried out by a later part of the product. */
  later?: boolean;
  /** Carried out by a domain route of its own (path with {id}, {field} placeholders), shown as a named dialog. */
  dialog?: string;
  path?: string;
  method?: 'POST' | 'PUT';
  /** Recorded by the server from a third party's answer; never a button. */
  system?: boolean;
  /** Only a row of the change history the server writes (no transition): declared for its label. */
  historyOnly?: boolean;
  /** Further Italian texts of the event's dialog (success message, warnings). */
  texts?: Record<string, string>;
  /** Shown by a named panel of the screen (its own button), not in the action bar. */
  panel?: string;
  /**
   * A JSON Schema the record must satisfy to take the event (what a draft may leave empty, the next step needs):
   * refused with 422 and the fields' errors.
   */
  requires?: Record<string, unknown>;
}

export interface EmailTemplate {
  to: string;
  subject: string;
  body: string;
}

export interface WorkflowDefinition {
  id: string;
  initial: string;
  states: Record<string, { meta: { id: number; code: string; nome: string }; on?: Record<string, unknown> }>;
  on?: Record<string, unknown>;
  meta: {
    statusField: string;
    /** States a record may be created in besides the initial one. */
    entries?: string[];
    events: Record<string, EventMeta>;
    warnings?: Array<{ guard: GuardRef; message: string }>;
    emails?: Record<string, EmailTemplate>;
    /** Values the server adds for the e-mail templates besides the record's ({APP_URL}), from its configuration. */
    templateValues?: Record<string, string>;
  };
}

export interface Status {
  key: string;
  id: number;
  code: string;
  nome: string;
}

export interface ActionRef {
  type: string;
  params?: Record<string, unknown>;
}

export class Workflow {
  readonly machine: AnyStateMachine;
  readonly statuses: Status[];
  private readonly byId: Map<number, Status>;

  private readonly guards: GuardSet;

  /** `own`: the machine's own guards (its domain's), beside the generic ones. */
  constructor(readonly definition: WorkflowDefinition, own: GuardSet = {}) {
    this.guards = guardsWith(own);
    // XState passes ({context, event}, params); the same functions serve client and server.
    this.machine = setup({ guards: this.guards as never }).createMachine(definition as never) as unknown as AnyStateMachine;
    this.statuses = Object.entries(definition.states).map(([key, s]) => ({ key, ...s.meta }));
    this.byId = new Map(this.statuses.map((s) => [s.id, s]));
  }

  get statusField(): string {
    return this.definition.meta.statusField;
  }

  get initialStatus(): Status {
    return this.statuses.find((s) => s.key === this.definition.initial)!;
  }

  status(id: number): Status {
    const status = this.byId.get(Number(id));
    if (!status) throw new Error(`${this.definition.id}: unknown status ${id}`);
    return status;
  }

  private context(statusId: number, user: WorkflowUser, record: Record<string, unknown>): WorkflowContext {
    const status = this.status(statusId);
    return { user, record, stato: { id: status.id, code: status.code } };
  }

  private snapshot(statusId: number, user: WorkflowUser, record: Record<string, unknown>) {
    return this.machine.resolveState({ value: this.status(statusId).key, context: this.context(statusId, user, record) });
  }

  can(statusId: number, user: WorkflowUser, record: Record<string, unknown>, event: WorkflowEvent): boolean {
    return this.snapshot(statusId, user, record).can(event as never);
  }

  /** The next status and the actions to run, or undefined when the machine refuses the event. */
  apply(statusId: number, user: WorkflowUser, record: Record<string, unknown>, event: WorkflowEvent): { to: Status; actions: ActionRef[] } | undefined {
    const snapshot = this.snapshot(statusId, user, record);
    if (!snapshot.can(event as never)) return undefined;
    const [next, actions] = transition(this.machine, snapshot, event as never);
    const key = String(next.value);
    return {
      to: this.statuses.find((s) => s.key === key)!,
      actions: (actions as Array<{ type: string; params?: Record<string, unknown> }>)
        .filter((a) => !a.type.startsWith('xstate.'))
        .map((a) => ({ type: a.type, params: a.params })),
    };
  }

  /** Events the user may send now, with their meta; a manual change lists its allowed target statuses. */
  available(statusId: number, user: WorkflowUser, record: Record<string, unknown>) {
    const out: Array<{ type: string; meta: EventMeta; targets?: Status[]; target?: Status }> = [];
    for (const [type, meta] of Object.entries(this.definition.meta.events)) {
      if (meta.kind === 'manual') {
        const targets = this.statuses.filter((s) => s.id !== Number(statusId) && this.can(statusId, user, record, { type, stato: s.id }));
        if (targets.length) out.push({ type, meta, targets });
      } else if (this.can(statusId, user, record, { type, nota: meta.note ? 'x' : undefined })) {
        const target = this.apply(statusId, user, record, { type, nota: meta.note ? 'x' : undefined })?.to;
        out.push({ type, meta, ...(target && target.id !== Number(statusId) ? { target } : {}) });
      }
    }
    return out;
  }

  warnings(statusId: number, user: WorkflowUser, record: Record<string, unknown>): string[] {
    const context = this.context(statusId, user, record);
    return (this.definition.meta.warnings ?? [])
      .filter((w) => evaluateGuard(w.guard, { context, event: { type: '' } }, this.guards))
      .map((w) => w.message);
  }
}

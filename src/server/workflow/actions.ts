// Side effects named by workflow transitions, run inside the transaction that changes the status.
import { sql, type Transaction } from 'kysely';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';
import type { ActionRef, WorkflowDefinition } from '../../shared/workflow/machine.ts';
import { invalid } from '../errors.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import { loadConfig } from '../config.ts';

export interface ActionContext {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any>;
  def: ResourceDefinition;
  workflow: WorkflowDefinition;
  record: Record<string, unknown>;
  event: string;
  note?: string;
  /** Who sent the event (the system user for a provider's callback). */
  user?: { id: number; name: string };
  /**
   * Changes the record on the user's behalf, as a PUT would be checked (rules, validation, version bumped; optionally a
   * history row): the only way an action writes its record. Answers the stored row.
   */
  write?(changes: Record<string, unknown>, history?: { event: string; note?: string | null }): Promise<Record<string, unknown>>;
}

const DEFAULT_APP_URL = loadConfig().APP_URL;

function fill(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = values[name];
    return value === null || value === undefined ? '' : String(value);
  });
}

/** 'email' is a field of the record; 'collaboratore_id.email' follows that field's x-ref to another resource. */
async function recipient(path: string, ctx: ActionContext): Promise<string | undefined> {
  const [field, column] = path.split('.');
  if (!column) return ctx.record[field!] ? String(ctx.record[field!]) : undefined;
  const ref = ctx.def.fields.find((f) => f.name === field)?.ref;
  const id = ctx.record[field!];
  if (!ref || id === null || id === undefined) return undefined;
  const row = await sql<{ v: string | null }>`SELECT ${sql.ref(column)} AS v FROM ${sql.table(ref)} WHERE id = ${id}`.execute(ctx.trx);
  return row.rows[0]?.v ?? undefined;
}

export type WorkflowAction = (params: Record<string, unknown>, ctx: ActionContext) => Promise<void>;

/** The engine's own actions; domains add theirs (app.extensions.workflowAction). */
export const BUILT_IN_ACTIONS: Record<string, WorkflowAction> = {
  async inviaEmail(params, ctx) {
    const template = ctx.workflow.meta.emails?.[String(params.template)];
    if (!template) throw new Error(`email template ${String(params.template)} missing`);
    const to = await recipient(template.to, ctx);
    if (!to) {
      // Refuse the whole transition: a status that promises an e-mail must not be reached without one.
      throw invalid({ [template.to.split('.')[0]!]: ['Serve un indirizzo email per inviare la comunicazione.'] });
    }
    // The app's workflows carry the configured APP_URL; a demo seed's own workflow takes the default.
    const values = { ...ctx.record, nota: ctx.note ?? '', APP_URL: DEFAULT_APP_URL, ...ctx.workflow.meta.templateValues };
    await enqueueEmail(ctx.trx, {
      to,
      subject: fill(template.subject, values),
      body: fill(template.body, values),
      resource: ctx.def.name,
      recordId: Number(ctx.record.id),
      event: ctx.event,
    });
  },
};

export async function runAction(run: WorkflowAction | undefined, action: ActionRef, ctx: ActionContext): Promise<void> {
  if (!run) throw new Error(`workflow action ${action.type} is not implemented`);
  await run(action.params ?? {}, ctx);
}

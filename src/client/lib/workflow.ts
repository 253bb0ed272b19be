// The client's status machines: one Workflow per definition, and the session's user as the guards see it.
import { getSessionData } from '../api/session.ts';
import { Workflow } from '../../shared/workflow/machine.ts';
import type { WorkflowDefinition } from '../../shared/workflow/machine.ts';
import type { GuardSet, WorkflowUser } from '../../shared/workflow/guards.ts';

export function sessionUser(): WorkflowUser {
  const session = getSessionData();
  return { permissions: session?.permissions ?? [], roles: session?.roles ?? [], kind: 'staff' };
}

/** A machine's own guards by machine id, registered by its feature at start (features.ts), like its widgets. */
const machineGuards = new Map<string, GuardSet>();
export function registerWorkflowGuards(machine: string, guards: GuardSet): void {
  if (machineGuards.has(machine)) throw new Error(`guards for workflow "${machine}" registered twice`);
  machineGuards.set(machine, guards);
}

/** One Workflow per definition: building the XState machine is not free. */
const cache = new WeakMap<WorkflowDefinition, Workflow>();
export function workflowOf(definition: WorkflowDefinition): Workflow {
  let found = cache.get(definition);
  if (!found) cache.set(definition, (found = new Workflow(definition, machineGuards.get(definition.id))));
  return found;
}

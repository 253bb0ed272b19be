// The client's status machines: one Workflow per definition, and the session's user as the guards see it.
import { getSessionData } from '../api/session.ts';
import { Workflow } from '../../shared/workflow/machine.ts';
import type { WorkflowDefinition } from '../../shared/workflow/machine.ts';
import type { WorkflowUser } from '../../shared/workflow/guards.ts';

export function sessionUser(): WorkflowUser {
  const session = getSessionData();
  return { permissions: session?.permissions ?? [], roles: session?.roles ?? [], kind: 'staff' };
}

/** One Workflow per definition: building the XState machine is not free. */
const cache = new WeakMap<WorkflowDefinition, Workflow>();
export function workflowOf(definition: WorkflowDefinition): Workflow {
  let found = cache.get(definition);
  if (!found) cache.set(definition, (found = new Workflow(definition)));
  return found;
}

// The client's status machines: one Workflow (XState) per definition, with the guards its feature registered.
import { Workflow } from '../../shared/workflow/machine.ts';
import type { WorkflowDefinition } from '../../shared/workflow/machine.ts';
import { guardsOf } from './workflowGuards.ts';

/** One Workflow per definition: building the XState machine is not free. */
const cache = new WeakMap<WorkflowDefinition, Workflow>();
export function workflowOf(definition: WorkflowDefinition): Workflow {
  let found = cache.get(definition);
  if (!found) cache.set(definition, (found = new Workflow(definition, guardsOf(definition.id))));
  return found;
}

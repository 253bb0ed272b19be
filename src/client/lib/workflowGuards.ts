// What the client's status machines need from the shell, without XState: the session's user as the guards see it and
// each machine's own guards, registered by its feature at start (features.ts). The machines themselves (workflow.ts)
// load only on screens that ask a record's status.
import { getSessionData } from '../api/session.ts';
import type { GuardSet, WorkflowUser } from '../../shared/workflow/guards.ts';

export function sessionUser(): WorkflowUser {
  const session = getSessionData();
  return { permissions: session?.permissions ?? [], roles: session?.roles ?? [], kind: 'staff' };
}

/** A machine's own guards by machine id, like its widgets. */
const machineGuards = new Map<string, GuardSet>();
export function registerWorkflowGuards(machine: string, guards: GuardSet): void {
  if (machineGuards.has(machine)) throw new Error(`guards for workflow "${machine}" registered twice`);
  machineGuards.set(machine, guards);
}

export function guardsOf(machine: string): GuardSet | undefined {
  return machineGuards.get(machine);
}

// Record checks named by a root annotation of an entity schema (e.g. "x-codice-fiscale"): advice returned as warnings.
import type { Transaction } from 'kysely';
import type { ResourceDefinition } from '../../shared/definitions/types.ts';
import type { FieldErrors } from '../../shared/validation.ts';
import type { AuthUser } from '../auth/user.ts';
import { patternWarning, warnPatternsOf } from '../../shared/warnPattern.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RecordCheck = (config: unknown, record: Record<string, unknown>, trx: Transaction<any>, user: AuthUser) => Promise<FieldErrors>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function runRecordChecks(checks: Iterable<[string, RecordCheck]>, def: ResourceDefinition, record: Record<string, unknown>, trx: Transaction<any>, user: AuthUser): Promise<FieldErrors> {
  const warnings: FieldErrors = {};
  for (const [annotation, check] of checks) {
    const config = def.schema[annotation];
    if (config === undefined) continue;
    for (const [field, messages] of Object.entries(await check(config, record, trx, user))) (warnings[field] ??= []).push(...messages);
  }
  return warnings;
}

// Built in: "x-warn-pattern": {"field": {"pattern": "...", "message": "..."}} warns when a value does not match.
export const BUILT_IN_CHECKS: Record<string, RecordCheck> = {
  'x-warn-pattern': async (config, record) => {
    const warnings: FieldErrors = {};
    for (const [field, rule] of Object.entries(warnPatternsOf({ 'x-warn-pattern': config }))) {
      const message = patternWarning(rule, record[field]);
      if (message) warnings[field] = [message];
    }
    return warnings;
  },
};

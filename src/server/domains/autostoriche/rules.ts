// Rules of historic-car models that JSON Schema cannot state: consistent ranges, years up to today, who sees which colour.
import type { AuthUser } from '../../auth/user.ts';
import type { FieldErrors } from '../../../shared/validation.ts';
import { hasPermission } from '../../../shared/permissions.ts';

export const RESOURCE = 'autostoriche';

/** Spec 000 §2.9: holders see every colour chip; everyone else sees only red ones. */
export const ALL_COLOURS_PERMISSION = 'show_quotazioni_suoi_collaboratori';

const YEAR_FIELDS = ['anno', 'anno_da', 'anno_a'] as const;

const RANGES: Array<{ from: string; to: string; message: string }> = [
  { from: 'cilindrata_da', to: 'cilindrata_a', message: 'La cilindrata finale deve essere uguale o maggiore della cilindrata iniziale' },
  { from: 'anno_da', to: 'anno_a', message: "L'anno finale deve essere uguale o successivo all'anno iniziale" },
];

function add(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** Errors of one complete record (stored values merged with the changes); values of the wrong type are left to the schema. */
export function rangeErrors(record: Record<string, unknown>, today: Date = new Date()): FieldErrors {
  const errors: FieldErrors = {};
  const year = today.getFullYear();
  for (const field of YEAR_FIELDS) {
    const value = record[field];
    if (typeof value === 'number' && value > year) add(errors, field, `L'anno non può essere successivo al ${year}`);
  }
  for (const { from, to, message } of RANGES) {
    const low = record[from];
    const high = record[to];
    if (typeof low === 'number' && typeof high === 'number' && low > high) add(errors, to, message);
  }
  return errors;
}

/** The record as this user may see it: without the permission, colore is shown only when it is rosso. */
export function presentModel(record: Record<string, unknown>, user: AuthUser): Record<string, unknown> {
  if (!('colore' in record) || hasPermission(ALL_COLOURS_PERMISSION, user)) return record;
  return { ...record, colore: record.colore === 'rosso' ? 'rosso' : null };
}

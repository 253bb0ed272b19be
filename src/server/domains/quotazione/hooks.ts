// Quotations: the customer's link code, sesso A for legal persons, and the forced-premium warning.
import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import { registerHooks } from '../../resources/hooks.ts';
import { HttpError, invalid } from '../../errors.ts';
import { withoutReadOnly } from '../../resources/repository.ts';
import { PRICING_INPUTS } from './calcolo.ts';
import type { JsonSchema } from '../../../shared/definitions/types.ts';
import { registerRecordCheck } from '../../resources/checks.ts';
import { registerDomainMigration } from '../../db/domain-migrations.ts';
import { hasPermission } from '../../../shared/permissions.ts';

registerHooks('quotazione', {
  listFilters: {
    // A plate of any historic or daily-use vehicle of the quotation, as a fragment.
    targa: (value) => {
      const pattern = `%${value.trim().toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // The text of both vehicle lists narrows through its trigram index; EXISTS then checks the plate itself.
      return sql<SqlBool>`quotazione_targhe(veicoli_storici, veicoli_moderni) LIKE ${pattern}
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(veicoli_storici, '[]') || coalesce(veicoli_moderni, '[]')) v WHERE v->>'targa' LIKE ${pattern})`;
    },
    // The yearly cover that starts on decorrenza ends next month (renewals to prepare).
    // Written as a range on decorrenza itself, so its index answers it.
    scade_il_mese_prossimo: (value) => (['1', 'true'].includes(value)
      ? sql<SqlBool>`decorrenza >= (date_trunc('month', now()) + interval '1 month' - interval '1 year')::date
          AND decorrenza < (date_trunc('month', now()) + interval '2 months' - interval '1 year')::date`
      : sql<SqlBool>`true`),
  },
  async beforeWrite(operation, { input, before, def }) {
    if (operation === 'create') input.uuid = randomUUID();
    if (operation === 'update' && before && input.preventivi === undefined) clearStaleCalculation(input, before, def.schema);
    const persona = input.persona ?? before?.persona;
    // A legal person has no sex: the spec forces A.
    if (persona === 'g') input.sesso = 'A';
    // The daily-use vehicles listed follow the declared count (spec 001 §5).
    const quotidiano = Number(input.quotidiano ?? before?.quotidiano ?? 1);
    const moderni = (input.veicoli_moderni ?? before?.veicoli_moderni ?? []) as unknown[];
    if (moderni.length > quotidiano) {
      throw invalid({ veicoli_moderni: [`I veicoli di uso quotidiano indicati sono ${moderni.length}, ma ne sono stati dichiarati ${quotidiano}.`] });
    }
  },
  // Every action that relies on the price refuses a calculation whose inputs changed since (spec 001 §4).
  async beforeTransition(event, { before }) {
    if (NEEDS_CALCULATION.has(event) && !(Array.isArray(before.preventivi) && before.preventivi.length > 0)) {
      throw new HttpError(409, STALE_CALCULATION);
    }
  },
});

const NEEDS_CALCULATION = new Set(['CONFERMA', 'CONFERMA_DIRETTA', 'APPROVA', 'RICHIEDI_EMISSIONE', 'EMETTI_DIRETTA']);
export const STALE_CALCULATION = 'Il calcolo non corrisponde ai dati attuali della quotazione: ricalcola il premio prima di procedere.';

/** JSON with sorted keys: jsonb gives keys back in its own order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined && (value as Record<string, unknown>)[k] !== null)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sameInput = (a: unknown, b: unknown, schema: JsonSchema | undefined) =>
  canonical(withoutReadOnly(a ?? null, schema)) === canonical(withoutReadOnly(b ?? null, schema));

/**
 * A calculation is bound to what it priced: a change of vehicles, province, age flag or fees empties colour,
 * premiums and previews in the same write. Vehicles sent back unchanged keep the colours the calculation gave them.
 */
function clearStaleCalculation(input: Record<string, unknown>, before: Record<string, unknown>, schema: JsonSchema): void {
  const changed = PRICING_INPUTS.filter((k) => input[k] !== undefined && !sameInput(input[k], before[k], schema.properties?.[k]));
  if (input.veicoli_storici !== undefined && !changed.includes('veicoli_storici')) input.veicoli_storici = before.veicoli_storici;
  if (!changed.length || before.preventivi === null) return;
  Object.assign(input, { colore: null, premio: null, premio_verti: null, preventivi: null });
}

// A forced premium under the calculated one is allowed but flagged, except for super_admin (spec 001 §4).
registerRecordCheck('x-premio-forzato', async (config, record, _trx, user) => {
  const { premio, forzato, esente } = config as { premio: string; forzato: string; esente: string };
  const calcolato = record[premio] as number | null;
  const forced = record[forzato] as number | null;
  if (forced === null || forced === undefined || calcolato === null || calcolato === undefined || hasPermission(esente, user)) return {};
  return forced < calcolato ? { [forzato]: ['Il premio forzato è inferiore al premio calcolato.'] } : {};
});

// The plates of a quotation as one text, indexed with trigrams for the plate filter.
registerDomainMigration('quotazione', [
  `CREATE OR REPLACE FUNCTION quotazione_targhe(storici jsonb, moderni jsonb) RETURNS text
     LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT coalesce(string_agg(v->>'targa', E'\\n'), '') FROM jsonb_array_elements(coalesce(storici, '[]') || coalesce(moderni, '[]')) v $$`,
  { requires: 'pg_trgm', sql: `CREATE INDEX IF NOT EXISTS quotazione_targhe_trgm ON quotazione USING gin (quotazione_targhe(veicoli_storici, veicoli_moderni) gin_trgm_ops)` },
]);

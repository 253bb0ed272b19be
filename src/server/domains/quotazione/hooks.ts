// Quotations: the customer's link code, sesso A for legal persons, and the forced-premium warning.
import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import { registerHooks } from '../../resources/hooks.ts';
import { invalid } from '../../errors.ts';
import { registerRecordCheck } from '../../resources/checks.ts';
import { hasPermission } from '../../../shared/permissions.ts';

registerHooks('quotazione', {
  listFilters: {
    // A plate of any historic or daily-use vehicle of the quotation, as a fragment.
    targa: (value) => {
      const pattern = `%${value.trim().toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(veicoli_storici, '[]') || coalesce(veicoli_moderni, '[]')) v WHERE v->>'targa' LIKE ${pattern})`;
    },
    // The yearly cover that starts on decorrenza ends next month (renewals to prepare).
    scade_il_mese_prossimo: (value) => (['1', 'true'].includes(value)
      ? sql<SqlBool>`(decorrenza + interval '1 year') >= date_trunc('month', now()) + interval '1 month' AND (decorrenza + interval '1 year') < date_trunc('month', now()) + interval '2 months'`
      : sql<SqlBool>`true`),
  },
  async beforeWrite(operation, { input, before }) {
    if (operation === 'create') input.uuid = randomUUID();
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
});

// A forced premium under the calculated one is allowed but flagged, except for super_admin (spec 001 §4).
registerRecordCheck('x-premio-forzato', async (config, record, _trx, user) => {
  const { premio, forzato, esente } = config as { premio: string; forzato: string; esente: string };
  const calcolato = record[premio] as number | null;
  const forced = record[forzato] as number | null;
  if (forced === null || forced === undefined || calcolato === null || calcolato === undefined || hasPermission(esente, user)) return {};
  return forced < calcolato ? { [forzato]: ['Il premio forzato è inferiore al premio calcolato.'] } : {};
});

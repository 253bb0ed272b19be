// Quotations: the customer's link code, sesso A for legal persons, and the forced-premium warning.
import { randomUUID } from 'node:crypto';
import { registerHooks } from '../../resources/hooks.ts';
import { registerRecordCheck } from '../../resources/checks.ts';
import { hasPermission } from '../../../shared/permissions.ts';

registerHooks('quotazione', {
  async beforeWrite(operation, { input, before }) {
    if (operation === 'create') input.uuid = randomUUID();
    const persona = input.persona ?? before?.persona;
    // A legal person has no sex: the spec forces A.
    if (persona === 'g') input.sesso = 'A';
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

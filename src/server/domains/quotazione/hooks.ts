// Quotations: the customer's link code, sesso A for legal persons, and the forced-premium warning.
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import { HttpError, invalid } from '../../errors.ts';
import { withoutReadOnly } from '../../resources/repository.ts';
import { PRICING_INPUTS } from '../../adapters/auto-storiche/calcolo.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import type { JsonSchema } from '../../../shared/definitions/types.ts';
import type { MigrationStatement } from '../../extensions.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import { latestRequest, presentRequest, SIGNATURE_REQUEST_SCHEMA } from '../../firma/service.ts';
import { conDatiDelServer, DEL_CALCOLO, righeConIdPropri } from './veicoli.ts';

const NEEDS_CALCULATION = new Set(['CONFERMA', 'CONFERMA_DIRETTA', 'APPROVA', 'RICHIEDI_EMISSIONE', 'EMETTI_DIRETTA']);
const NEEDS_POLICYHOLDER = new Set(['EMETTI_DIRETTA']);
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

/** What of a vehicle the price depends on; the rest (chassis, plate type, ...) may change without a new calculation. */
const PRICED = ['auto_storica_id', 'marca', 'modello', 'anno', 'tipologia_ania', 'valore', 'targa'];

function priced(value: unknown, key: string, schema: JsonSchema | undefined): unknown {
  const plain = withoutReadOnly(value ?? null, schema);
  if (key !== 'veicoli_storici' || !Array.isArray(plain)) return plain;
  return plain.map((v: Record<string, unknown>) => ({ ...Object.fromEntries(PRICED.map((k) => [k, v?.[k] ?? null])), furto: v?.furto === true }));
}

const sameInput = (key: string, a: unknown, b: unknown, schema: JsonSchema | undefined) =>
  canonical(priced(a, key, schema)) === canonical(priced(b, key, schema));

/**
 * A calculation is bound to what it priced: a change of vehicles, province or age flag empties colour,
 * premiums and previews in the same write; a change of the fees alone recomputes the totals. Vehicles sent back unchanged keep the colours the calculation gave them.
 */
function clearStaleCalculation(input: Record<string, unknown>, before: Record<string, unknown>, schema: JsonSchema): void {
  const changed = PRICING_INPUTS.filter((k) => input[k] !== undefined && !sameInput(k, input[k], before[k], schema.properties?.[k]));
  if (Array.isArray(input.veicoli_storici) && Array.isArray(before.veicoli_storici) && !changed.includes('veicoli_storici')) {
    // Same priced vehicles in the same order: each row's colour comes back from the calculation, found by row id.
    const stored = new Map((before.veicoli_storici as Array<Record<string, unknown>>).map((v) => [v?.id, v]));
    input.veicoli_storici = (input.veicoli_storici as Array<Record<string, unknown>>).map((v) => {
      const prima = stored.get(v?.id);
      return { ...v, ...Object.fromEntries([...DEL_CALCOLO].filter((k) => prima?.[k] !== undefined).map((k) => [k, prima![k]])) };
    });
  }
  if (!changed.length || before.preventivi === null) return;
  const previews = before.preventivi as Array<Record<string, unknown>>;
  if (changed.length === 1 && changed[0] === 'competenze' && Array.isArray(previews) && previews.length) {
    // The fees are added to the insurer's price, not priced by it: recomputed here, in the same write (spec 001 §4).
    const competenze = toCents(Number(input.competenze ?? 0));
    const preventivi = previews.map((p) => ({ ...p, competenze: fromCents(competenze), premio_totale: fromCents(toCents(Number(p.premio_base ?? 0)) + competenze) }));
    Object.assign(input, { preventivi, premio: preventivi[0]!.premio_totale });
    return;
  }
  Object.assign(input, { colore: null, premio: null, premio_verti: null, preventivi: null });
}

// The plates of a quotation as one text, indexed with trigrams for the plate filter.
export const QUOTAZIONE_MIGRATION: MigrationStatement[] = [
  `CREATE OR REPLACE FUNCTION quotazione_targhe(storici jsonb, moderni jsonb) RETURNS text
     LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT coalesce(string_agg(v->>'targa', E'\\n'), '') FROM jsonb_array_elements(coalesce(storici, '[]') || coalesce(moderni, '[]')) v $$`,
  { requires: 'pg_trgm', sql: `CREATE INDEX IF NOT EXISTS quotazione_targhe_trgm ON quotazione USING gin (quotazione_targhe(veicoli_storici, veicoli_moderni) gin_trgm_ops)` },
];

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('quotazione', {
    listFilters: {
      // A plate of any historic or daily-use vehicle of the quotation, as a fragment.
      targa: (value) => {
        const pattern = `%${value.trim().toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        // The text of both vehicle lists narrows through its trigram index; EXISTS then checks the plate itself.
        return sql<SqlBool>`quotazione_targhe(veicoli_storici, veicoli_moderni) LIKE ${pattern}
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(veicoli_storici, '[]') || coalesce(veicoli_moderni, '[]')) v WHERE v->>'targa' LIKE ${pattern})`;
      },
      // The yearly cover that starts on decorrenza ends next month (renewals to prepare): decorrenza in that month a year
      // back. Written as the month of decorrenza, the expression of index quotazione_scadenza_mese (migration 0003).
      scade_il_mese_prossimo: (value) => (['1', 'true'].includes(value)
        ? sql<SqlBool>`date_trunc('month', decorrenza::timestamp) = (date_trunc('month', now()) + interval '1 month' - interval '1 year')::date::timestamp`
        : sql<SqlBool>`true`),
    },
    async beforeWrite(operation, { trx, input, before, def }) {
      if (operation === 'create') input.uuid = randomUUID();
      if (Array.isArray(input.veicoli_storici)) {
        const stored = (operation === 'update' && Array.isArray(before?.veicoli_storici) ? before.veicoli_storici : []) as Array<Record<string, unknown>>;
        // Every historic vehicle has a row id of its own, by which registry refreshes and appendices name it: a copied
        // quotation's rows (a renewal) get new ones.
        await righeConIdPropri(trx, input.veicoli_storici as Array<Record<string, unknown>>, stored, operation === 'update' ? Number(before!.id) : undefined);
        // What the server stored on a row stays with it, whatever the writer sent (only a calculation sets the colour);
        // a new record's rows are the client's (cleaned of read-only parts) or a server copy, kept as given.
        if (operation === 'update') {
          input.veicoli_storici = conDatiDelServer(input.veicoli_storici as Array<Record<string, unknown>>, stored, def.schema.properties?.veicoli_storici?.items, input.preventivi !== undefined);
        }
      }
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
        throw new HttpError(409, STALE_CALCULATION, undefined, undefined, 'STALE_CALCULATION');
      }
      // The direct screen is where staff enter the policyholder: it goes to issue only with what the insurer is sent.
      if (NEEDS_POLICYHOLDER.has(event) && !before.cfisc && !before.piva) {
        throw invalid({ [before.persona === 'g' ? 'piva' : 'cfisc']: ['Campo Obbligatorio.'] });
      }
    },
    // The quotation carries its latest signature request (spec 001 §3), as stored: reading it asks the provider nothing.
    readOne: {
      properties: { last_signature_request: SIGNATURE_REQUEST_SCHEMA },
      async load(db, record) {
        return { last_signature_request: presentRequest(await latestRequest(db, { resource: 'quotazione', id: Number(record.id) })) };
      },
    },
  });
  // A forced premium under the calculated one is allowed but flagged, except for super_admin (spec 001 §4).
  app.extensions.recordCheck('x-premio-forzato', async (config, record, _trx, user) => {
    const { premio, forzato, esente } = config as { premio: string; forzato: string; esente: string };
    const calcolato = record[premio] as number | null;
    const forced = record[forzato] as number | null;
    if (forced === null || forced === undefined || calcolato === null || calcolato === undefined || hasPermission(esente, user)) return {};
    return forced < calcolato ? { [forzato]: ['Il premio forzato è inferiore al premio calcolato.'] } : {};
  });
}

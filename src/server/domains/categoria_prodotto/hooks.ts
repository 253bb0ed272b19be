// Mandate rows: start date today when absent, names unique per supplier and contractual company, terms frozen while inactive.
import type { FastifyInstance } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import { countDependants, describeDependants } from '../../resources/dependants.ts';
import { HttpError, invalid } from '../../errors.ts';
import { REQUIRED_MESSAGE, type FieldErrors } from '../../../shared/validation.ts';

export const DUPLICATE_MESSAGE = 'Categoria già presente per questa compagnia.';
export const FROZEN_MESSAGE = 'Attiva il prodotto per modificarne provvigione e data di inizio.';
/** The mandate terms: kept while the row is inactive, but not editable until it is active again (spec 000 §2.8). */
const TERMS = ['percentuale_provvigione_attiva', 'data_inizio_mandato'] as const;

const DEPENDANT_NOUNS: Record<string, [string, string]> = {
  prodotto_assegnato: ['assegnazione a un collaboratore', 'assegnazioni a collaboratori'],
  polizza: ['polizza', 'polizze'],
};

/** Today in Italy, as the spec's default start date means the brokerage's day, not the server's. */
export function oggi(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function checkTerms(input: Record<string, unknown>, before: Record<string, unknown>): void {
  const errors: FieldErrors = {};
  const active = input.mandato_attivo !== undefined ? input.mandato_attivo : before.mandato_attivo;
  for (const field of TERMS) {
    if (!(field in input)) continue;
    // The client may send the whole row back: an unchanged value is no change.
    const changed = field === 'percentuale_provvigione_attiva' && input[field] !== null && before[field] !== null
      ? Number(input[field]) !== Number(before[field])
      : input[field] !== (before[field] ?? null);
    if (!changed) continue;
    if (active === false) errors[field] = [FROZEN_MESSAGE];
    else if (input[field] === null) errors[field] = [REQUIRED_MESSAGE];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

/** A name fragment as a LIKE pattern, wildcards of the user escaped. */
function fragment(value: string): string {
  return `%${value.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('categoria_prodotto', {
    // The products desk (/prodotti) filters by the supplier's and the contractual company's name.
    listFilters: {
      fornitore: (value) => sql<SqlBool>`EXISTS (SELECT 1 FROM compagnia f WHERE f.id = compagnia_fornitore_id AND lower(f."ragioneSociale") LIKE ${fragment(value)})`,
      compagnia: (value) => sql<SqlBool>`EXISTS (SELECT 1 FROM compagnia_contrattuale c WHERE c.id = compagnia_contrattuale_id AND lower(c.nome) LIKE ${fragment(value)})`,
    },
    async beforeWrite(operation, { trx, input, before, def }) {
      if (operation === 'create') {
        // JSON Schema defaults cannot say "today"; the commission default 0 comes from the schema.
        input.data_inizio_mandato ??= oggi();
        input.percentuale_provvigione_attiva ??= 0;
      } else {
        checkTerms(input, before!);
      }
      const pick = (name: string) => (input[name] !== undefined ? input[name] : before?.[name]);
      const [nome, fornitore, contrattuale] = [pick('nome'), pick('compagnia_fornitore_id'), pick('compagnia_contrattuale_id')];
      if (typeof nome !== 'string' || fornitore == null || contrattuale == null) return;
      // Serialises writers under the same supplier and company, so two concurrent requests cannot both pass the check.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`${def.name}:${String(fornitore)}:${String(contrattuale)}`}::text))`.execute(trx);
      const taken = await sql`
        SELECT 1 FROM ${sql.table(def.name)}
        WHERE compagnia_fornitore_id = ${fornitore} AND compagnia_contrattuale_id = ${contrattuale}
          AND lower(nome) = lower(${nome}) AND id <> ${(before?.id as number | undefined) ?? 0}
        LIMIT 1`.execute(trx);
      if (taken.rows.length) throw invalid({ nome: [DUPLICATE_MESSAGE] });
    },
    async beforeDelete({ trx, def, before }) {
      const dependants = await countDependants(trx, def.name, before!.id as number);
      if (dependants.length) {
        throw new HttpError(409, `Impossibile eliminare il prodotto a mandato: ha ancora ${describeDependants(dependants, DEPENDANT_NOUNS)}.`, undefined, {
          dependants: Object.fromEntries(dependants.map((d) => [d.table, d.count])),
        }, 'IN_USE');
      }
    },
  });
}

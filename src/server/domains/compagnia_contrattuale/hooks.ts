// Contractual companies: deleted only when no mandate row (or, later, policy) still refers to them.
import type { FastifyInstance } from 'fastify';
import { countDependants, describeDependants } from '../../resources/dependants.ts';
import { HttpError } from '../../errors.ts';

const DEPENDANT_NOUNS: Record<string, [string, string]> = {
  categoria_prodotto: ['prodotto a mandato', 'prodotti a mandato'],
  polizza: ['polizza', 'polizze'],
};

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('compagnia_contrattuale', {
    async beforeDelete({ trx, def, before }) {
      const dependants = await countDependants(trx, def.name, before!.id as number);
      if (dependants.length) {
        throw new HttpError(409, `Impossibile eliminare la compagnia contrattuale: ha ancora ${describeDependants(dependants, DEPENDANT_NOUNS)}.`, undefined, {
          dependants: Object.fromEntries(dependants.map((d) => [d.table, d.count])),
        }, 'IN_USE');
      }
    },
  });
}

// Suppliers: deleted only when nothing depends on them (the SIC ANIA password's visibility is x-read-permission in the schema).
import type { FastifyInstance } from 'fastify';
import { countDependants, describeDependants } from '../../resources/dependants.ts';
import { HttpError } from '../../errors.ts';

const DEPENDANT_NOUNS: Record<string, [string, string]> = {
  categoria_prodotto: ['prodotto a mandato', 'prodotti a mandato'],
  polizza: ['polizza', 'polizze'],
};

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('compagnia', {
    async beforeDelete({ trx, def, before }) {
      const dependants = await countDependants(trx, def.name, before!.id as number);
      if (dependants.length) {
        throw new HttpError(409, `Impossibile eliminare il fornitore: ha ancora ${describeDependants(dependants, DEPENDANT_NOUNS)}.`, undefined, {
          dependants: Object.fromEntries(dependants.map((d) => [d.table, d.count])),
        }, 'IN_USE');
      }
    },
  });
}

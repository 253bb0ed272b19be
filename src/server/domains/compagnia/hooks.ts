// Suppliers: deleted only when nothing depends on them (the SIC ANIA password's visibility is x-read-permission in the schema).
import { registerHooks } from '../../resources/hooks.ts';
import { countDependants, describeDependants } from '../../resources/dependants.ts';
import { HttpError } from '../../errors.ts';

const DEPENDANT_NOUNS: Record<string, [string, string]> = {
  categoria_prodotto: ['prodotto a mandato', 'prodotti a mandato'],
  polizza: ['polizza', 'polizze'],
};

registerHooks('compagnia', {
  async beforeDelete({ trx, def, before }) {
    const dependants = await countDependants(trx, def.name, before!.id as number);
    if (dependants.length) {
      throw new HttpError(409, `Impossibile eliminare il fornitore: ha ancora ${describeDependants(dependants, DEPENDANT_NOUNS)}.`, undefined, {
        dependants: Object.fromEntries(dependants.map((d) => [d.table, d.count])),
      });
    }
  },
});

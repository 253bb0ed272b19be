// Historic-car policies: born only from the insurer's issue call, changed only by reversal, Koala resends and document regeneration.
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance } from 'fastify';
import type { MigrationStatement } from '../../extensions.ts';
import { HttpError } from '../../errors.ts';
import { register as routes } from './routes.ts';
import { CHIAMATE_TABLES } from './chiamate.ts';

const SOLO_EMISSIONE = 'Le polizze nascono solo dall\'emissione presso la compagnia e cambiano solo con storno o reinvio: non si creano né si modificano a mano.';

// One policy in force per quotation, whatever the code paths: a second one is refused by the database itself.
export const POLIZZA_AUTO_STORICA_MIGRATION: MigrationStatement[] = [
  `CREATE UNIQUE INDEX IF NOT EXISTS polizza_auto_storica_in_vigore ON polizza_auto_storica (quotazione_id) WHERE stornata IS NOT TRUE`,
  // One draft per quotation and operation (the request being prepared survives a reload).
  `CREATE UNIQUE INDEX IF NOT EXISTS appendice_bozza_unica ON appendice (quotazione_id, operazione) WHERE stato = 'bozza'`,
  `CREATE UNIQUE INDEX IF NOT EXISTS quotazione_rinnovo_unico ON quotazione ((rinnovo_della_polizza->>'numero_polizza')) WHERE rinnovo_della_polizza IS NOT NULL`,
  // A deleted renewal draft frees its policy for a new renewal, in the same transaction as the delete.
  `CREATE OR REPLACE FUNCTION quotazione_rinnovo_eliminato() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE quotazione SET rinnovo_id = NULL, version = version + 1, updated_at = now() WHERE rinnovo_id = OLD.id;
     RETURN OLD;
   END $$`,
  `CREATE OR REPLACE TRIGGER quotazione_rinnovo_eliminato AFTER DELETE ON quotazione FOR EACH ROW WHEN (OLD.rinnovo_della_polizza IS NOT NULL) EXECUTE FUNCTION quotazione_rinnovo_eliminato()`,
];

function register(app: FastifyInstance): void {
  app.extensions.resourceHooks('polizza_auto_storica', {
    async beforeWrite() {
      throw new HttpError(409, SOLO_EMISSIONE);
    },
    async beforeDelete() {
      throw new HttpError(409, 'Una polizza emessa non si elimina: si storna.');
    },
  });
  // Appendices are born from the calculation and change only by the insurer's issue.
  app.extensions.resourceHooks('appendice', {
    async beforeWrite() {
      throw new HttpError(409, 'Le appendici nascono dal calcolo e si emettono presso la compagnia: non si creano né si modificano a mano.');
    },
    async beforeDelete() {
      throw new HttpError(409, 'Un\'appendice non si elimina.');
    },
  });
}

export default defineDomain('polizza_auto_storica', (app) => {
  register(app);
  routes(app);
  app.extensions.migration('polizza_auto_storica', [...POLIZZA_AUTO_STORICA_MIGRATION, ...CHIAMATE_TABLES]);
}, ['quotazione', 'polizza']);

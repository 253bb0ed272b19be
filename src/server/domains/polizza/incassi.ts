// The cashier's payment of several titles at once (GESTIONE INCASSI): each title through registraPagamento, all in one
// transaction, so a title refused half-way leaves every title as it was.
import type { FastifyInstance } from 'fastify';
import { HttpError, invalid } from '../../errors.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { formatEuro } from '../../../shared/money.ts';
import { centesimi, euro } from '../../../shared/premi.ts';
import { puoRegistrarePagamenti, registraPagamento } from './pagamenti.ts';

const MAX_TITOLI = 200;

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('polizza_incassi', async (app: FastifyInstance) => {
    const db = app.ctx.db;
    const titoloDef = app.ctx.definitions.resources.get('titolo')!;
    const titoli = new ResourceRepository(titoloDef, app.ctx);
    const archivi = { titoli, polizze: new ResourceRepository(app.ctx.definitions.resources.get('polizza')!, app.ctx) };
    // Also under the cashier's desk, whose users may hold no permission on the titles' own resource.
    const desk = app.ctx.definitions.resources.get('incasso')?.resource.api.path;
    for (const base of [titoloDef.resource.api.path, ...(titoloDef.resource.api.aliases ?? []), ...(desk ? [desk] : [])]) {
      app.post(`${base}/pagamenti`, {
        preHandler: puoRegistrarePagamenti,
        schema: {
          body: {
            type: 'object',
            required: ['titoli'],
            properties: {
              titoli: { type: 'array', minItems: 1, maxItems: MAX_TITOLI, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 2147483647 } },
              data_pagamento: { type: 'string', maxLength: 10 },
              tipo_pagamento: { type: 'string', maxLength: 60 },
              importo: { anyOf: [{ type: 'number' }, { type: 'string', maxLength: 20 }] },
            },
          },
        },
      }, async (request) => {
        const body = request.body as { titoli: number[]; data_pagamento?: string; tipo_pagamento?: string; importo?: number | string };
        const user = request.user;
        const ids = body.titoli;
        return db.transaction().execute(async (trx) => {
          // Titles in id order (each locked with its policy by registraPagamento), so two cashiers paying overlapping
          // titles wait for each other instead of deadlocking.
          const ordine = [...ids].sort((a, b) => a - b);
          const premi = new Map<number, number>();
          for (const id of ordine) premi.set(id, centesimi((await titoli.get(trx, user, id)).premio as number));
          const totale = [...premi.values()].reduce((a, b) => a + b, 0);
          const raw = body.importo;
          const importo = typeof raw === 'number' || (typeof raw === 'string' && /^\d+([.,]\d{1,2})?$/.test(raw)) ? centesimi(raw) : NaN;
          if (!Number.isFinite(importo)) throw invalid({ importo: ['Importo obbligatorio.'] });
          if (importo !== totale) throw invalid({ importo: [`L'importo deve essere uguale alla somma dei premi dei titoli scelti: ${formatEuro(euro(totale))}.`] });
          for (const id of ordine) {
            try {
              await registraPagamento(trx, archivi, user, id, { data_pagamento: body.data_pagamento, tipo_pagamento: body.tipo_pagamento, importo: euro(premi.get(id)!) });
            } catch (error) {
              // Which title stopped the payment: the rollback undoes the titles already written.
              if (error instanceof HttpError && error.statusCode === 409) throw error.restated({ message: `Titolo ${id}: ${error.message} Nessun pagamento registrato.` });
              throw error;
            }
          }
          return { message: ids.length === 1 ? 'Pagamento registrato.' : `Pagamento registrato su ${ids.length} titoli.`, data: { titoli: ids, importo: euro(totale) } };
        });
      });
    }
  });
}

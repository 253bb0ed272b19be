// QUIETANZE (issue 18): the receipts of paid titles, a view over titolo; each prints as a PDF receipt.
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance } from 'fastify';
import { CONTRAENTE_SQL } from '../../resources/viste.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { requirePermission } from '../../auth/guards.ts';
import { notFoundFor } from '../../errors.ts';
import { parsePathId } from '../../http/contract.ts';
import { documentoPdf } from '../../pdf/documento.ts';
import { formatEuro } from '../../../shared/money.ts';
import { dataItaliana } from '../../../shared/dates.ts';

const importo = (v: unknown) => formatEuro(typeof v === 'number' ? v : Number(v ?? 0));

function register(app: FastifyInstance): void {
  // The broker named on the receipt: the policy's broker, else the brokerage itself (the collaborator of type BROKER).
  app.extensions.view('quietanza', `
    SELECT t.id, t.version, t.polizza_id, p.polizza_numero, t.cliente_id, ${CONTRAENTE_SQL} AS contraente,
           coalesce(c.cf, c.piva) AS codice_fiscale, t.collaboratore_id,
           coalesce((SELECT nullif(trim(concat_ws(' ', b.cognome, b.nome)), '') FROM collaboratore b WHERE b.id = p.broker_id),
                    (SELECT nullif(trim(concat_ws(' ', b.cognome, b.nome)), '') FROM collaboratore b WHERE b.tipo = 'BROKER' ORDER BY b.id LIMIT 1)) AS broker,
           f."ragioneSociale" AS fornitore, pr.nome AS prodotto, t.numero_rata, t.data_inizio, t.data_fine, t.premio, t.totale_netto,
           t.imposte, t.diritti, t.spese, t.competenze, t.tipo_pagamento, t.data_pagamento, t.pagato_da
    FROM titolo t
    JOIN polizza p ON p.id = t.polizza_id
    LEFT JOIN cliente c ON c.id = t.cliente_id
    LEFT JOIN compagnia f ON f.id = p.fornitore_id
    LEFT JOIN categoria_prodotto pr ON pr.id = p.mandato_prodotto_id
    WHERE t.saldato`);

  app.extensions.routes('quietanza', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('quietanza')!;
    const repo = new ResourceRepository(def, app.ctx);
    const tipi = new Map(((def.schema.properties?.tipo_pagamento?.oneOf ?? []) as Array<{ const: string; title: string }>).map((o) => [o.const, o.title]));
    app.get(`${def.resource.api.path}/:id/pdf`, {
      preHandler: requirePermission(def.resource.permissions.read),
      schema: { params: { type: 'object', properties: { id: { type: 'string', maxLength: 20 } }, required: ['id'] } },
    }, async (request, reply) => {
      const id = parsePathId((request.params as { id: string }).id, () => notFoundFor(def));
      // The view's row scope: another collaborator's receipt answers 404, as for the record.
      const q = await repo.get(app.ctx.db, request.user, id);
      const pdf = await documentoPdf(`Quietanza n. ${String(q.id)}`, [
        { tipo: 'testo', testo: `Broker: ${String(q.broker ?? '')}` },
        { tipo: 'spazio' },
        { tipo: 'titolo', testo: 'Contraente' },
        { tipo: 'campi', campi: [['Nome', String(q.contraente ?? '')], ['Codice fiscale / P. IVA', String(q.codice_fiscale ?? '')]] },
        { tipo: 'titolo', testo: 'Polizza' },
        { tipo: 'campi', campi: [
          ['Numero', String(q.polizza_numero ?? '')], ['Compagnia', String(q.fornitore ?? '')], ['Prodotto', String(q.prodotto ?? '')],
          ['Rata', String(q.numero_rata ?? '')], ['Periodo', `dal ${dataItaliana(q.data_inizio)} al ${dataItaliana(q.data_fine)}`],
        ] },
        { tipo: 'titolo', testo: 'Importi' },
        { tipo: 'campi', campi: [
          ['Premio netto', importo(q.totale_netto)], ['Imposte', importo(q.imposte)], ['Diritti', importo(q.diritti)],
          ['Spese', importo(q.spese)], ['Competenze', importo(q.competenze)], ['Totale pagato', importo(q.premio)],
        ] },
        { tipo: 'titolo', testo: 'Pagamento' },
        { tipo: 'campi', campi: [
          ['Tipo di pagamento', tipi.get(String(q.tipo_pagamento)) ?? String(q.tipo_pagamento ?? '')], ['Data', dataItaliana(q.data_pagamento)],
          ['Incassato da', String(q.pagato_da ?? '')],
        ] },
        { tipo: 'spazio' },
        { tipo: 'testo', testo: `Si rilascia quietanza per l'importo di ${importo(q.premio)} a saldo della rata indicata.` },
      ]);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `inline; filename="quietanza-${String(q.id)}.pdf"`);
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    });
  });
}

export default defineDomain('quietanza', register);

// The cashier's desk (issue 18, GESTIONE INCASSI): every title with how due it is, a view over titolo. Payments and reversals
// go through the titles' own routes (POST /api/titolo/pagamenti, /api/titolo/{id}/storno), one way to pay.
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance } from 'fastify';
import { CONTRAENTE_SQL } from '../../resources/viste.ts';

function register(app: FastifyInstance): void {
  app.extensions.view('incasso', `
    SELECT t.id, t.version, t.polizza_id, p.polizza_numero, t.cliente_id, ${CONTRAENTE_SQL} AS contraente,
           t.collaboratore_id, p.fornitore_id, f."ragioneSociale" AS fornitore, t.numero_rata,
           t.data_inizio AS scadenza, t.data_fine, t.premio, t.saldato,
           CASE WHEN t.saldato THEN 'PAGATO' WHEN t.data_inizio < oggi THEN 'SCADUTO'
                WHEN t.data_inizio <= oggi + 30 THEN 'IN_SCADENZA' ELSE 'FUTURO' END AS situazione,
           CASE WHEN NOT t.saldato AND t.data_inizio < oggi THEN oggi - t.data_inizio ELSE 0 END AS giorni_ritardo,
           t.data_pagamento, t.tipo_pagamento, t.pagato_da
    FROM titolo t
    -- The brokerage works on Italian dates: "today" is the date in Rome, whatever the server's zone.
    CROSS JOIN (SELECT (now() AT TIME ZONE 'Europe/Rome')::date AS oggi) d
    JOIN polizza p ON p.id = t.polizza_id
    LEFT JOIN cliente c ON c.id = t.cliente_id
    LEFT JOIN compagnia f ON f.id = p.fornitore_id`);

}

export default defineDomain('incasso', register);

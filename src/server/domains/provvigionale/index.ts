// PROVVIGIONALE (issue 18): the collaborator's commission on every paid title, as agreed when the title was made
// (src/shared/premi.ts computed it then), with the totals per collaborator; a collaborator sees only their own (row scope).
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance } from 'fastify';
import { riepilogo, totaliPer } from '../../resources/riepilogo.ts';
import { CONTRAENTE_SQL } from '../../resources/viste.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { listQuery, parseListQuery } from '../../plugins/resources.ts';
import { requirePermission } from '../../auth/guards.ts';

const SOMME = ['provvigione', 'quota_competenze', 'totale'];
const TIPI: Record<string, string> = { PERC_IMPONIBILE: 'Imponibile', PERC_RETROCESSIONE: 'Retrocessione' };

function register(app: FastifyInstance): void {
  app.extensions.view('provvigionale', `
    SELECT t.id, t.version, t.collaboratore_id, nullif(trim(concat_ws(' ', co.cognome, co.nome)), '') AS collaboratore,
           t.polizza_id, p.polizza_numero, ${CONTRAENTE_SQL} AS contraente, f."ragioneSociale" AS fornitore, pr.nome AS prodotto,
           t.settore_provvigione AS settore, t.numero_rata, t.data_pagamento, t.premio, t.totale_netto AS netto, t.provvigioni_attive,
           t.tipo_provvigione_collaboratore AS tipo_provvigione, t.perc_competenze_collaboratore::double precision AS perc_provvigione,
           CASE WHEN t.tipo_provvigione_collaboratore = 'PERC_RETROCESSIONE' THEN t.provvigioni_attive ELSE t.totale_netto END AS base_provvigione,
           t.provvigione_collaboratore AS provvigione, t.competenze, t.perc_provvigione_competenze::double precision AS perc_competenze,
           t.competenze_collaboratore AS quota_competenze, t.collaboratore_totale AS totale
    FROM titolo t
    JOIN polizza p ON p.id = t.polizza_id
    JOIN collaboratore co ON co.id = t.collaboratore_id
    LEFT JOIN cliente c ON c.id = t.cliente_id
    LEFT JOIN compagnia f ON f.id = p.fornitore_id
    LEFT JOIN categoria_prodotto pr ON pr.id = p.mandato_prodotto_id
    WHERE t.saldato`);

  app.extensions.routes('provvigionale', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('provvigionale')!;
    const repo = new ResourceRepository(def, app.ctx);
    // Totals per collaborator (and within it per sector and kind of commission) of the list as filtered.
    app.get(`${def.resource.api.path}/riepilogo`, {
      preHandler: requirePermission(def.resource.permissions.list),
      schema: { querystring: listQuery(def) },
    }, async (request) => {
      const query = parseListQuery(def, request.query as Record<string, unknown>);
      const rows = await totaliPer(app.ctx.db, repo, request.user, query, ['collaboratore_id', 'collaboratore', 'settore', 'tipo_provvigione'], SOMME);
      return {
        data: riepilogo(rows, {
          colonne: [{ campo: 'provvigione', titolo: 'Provvigioni' }, { campo: 'quota_competenze', titolo: 'Quota Competenze' }, { campo: 'totale', titolo: 'Totale' }],
          gruppo: (r) => [String(r.collaboratore_id), String(r.collaboratore ?? '')],
          riga: (r) => [`${String(r.settore ?? '')}|${String(r.tipo_provvigione ?? '')}`, `${String(r.settore ?? 'Senza settore')} · ${TIPI[String(r.tipo_provvigione)] ?? 'Senza provvigione'}`],
        }),
      };
    });
  });
}

export default defineDomain('provvigionale', register);

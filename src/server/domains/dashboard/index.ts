// The dashboard's figures (issue 18): premiums collected per month this year against last year, quotations per
// status, overdue titles by age, and the live counts of the cards. Each part follows the permission and row scope of
// the resource it reads (titles: titolo, quotations: quotazione), so a collaborator sees only their own.
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { errorResponses } from '../../http/openapi.ts';
import { ResourceRepository, scopeFilterOf } from '../../resources/repository.ts';
import { countMissing, trackedResources } from '../../media/track.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import type { Workflow } from '../../../shared/workflow/machine.ts';

const TITOLO = 'titolo';
const QUOTAZIONE = 'quotazione';
/** Ages of an unpaid title past its due date (data_inizio), in days. */
const FASCE = [
  { etichetta: '1-30 giorni', da: 1, a: 30 },
  { etichetta: '31-60 giorni', da: 31, a: 60 },
  { etichetta: '61-90 giorni', da: 61, a: 90 },
  { etichetta: 'oltre 90 giorni', da: 91, a: null },
] as const;

const months = { type: 'array', items: { type: 'integer' }, minItems: 12, maxItems: 12 };
const response = {
  200: {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['premi', 'quotazioni', 'titoli_scaduti', 'conteggi'],
        properties: {
          premi: {
            anyOf: [{ type: 'null' }, {
              type: 'object', required: ['anno', 'mesi', 'anno_precedente', 'mesi_precedente'],
              properties: { anno: { type: 'integer' }, mesi: months, anno_precedente: { type: 'integer' }, mesi_precedente: months },
            }],
          },
          quotazioni: {
            anyOf: [{ type: 'null' }, {
              type: 'array',
              items: { type: 'object', required: ['id', 'nome', 'totale'], properties: { id: { type: 'integer' }, code: { type: 'string' }, nome: { type: 'string' }, totale: { type: 'integer' } } },
            }],
          },
          titoli_scaduti: {
            anyOf: [{ type: 'null' }, {
              type: 'array',
              items: { type: 'object', required: ['fascia', 'numero', 'importo'], properties: { fascia: { type: 'string' }, numero: { type: 'integer' }, importo: { type: 'integer' } } },
            }],
          },
          conteggi: {
            type: 'object',
            properties: { titoli_scaduti: { type: ['integer', 'null'] }, documenti_mancanti: { type: ['integer', 'null'] } },
          },
        },
      },
    },
  },
  ...errorResponses(401, 403),
};

function register(app: FastifyInstance): void {
  app.extensions.routes('dashboard', async (app: FastifyInstance) => {
    const db = app.ctx.db;
    const titolo = app.ctx.definitions.resources.get(TITOLO)!;
    const quotazioneDef = app.ctx.definitions.resources.get(QUOTAZIONE)!;
    const workflows = app.ctx.workflows as Map<string, Workflow>;
    const quotazioni = new ResourceRepository(quotazioneDef, app.ctx, undefined, workflows.get(quotazioneDef.resource.workflow!.machine));
    const tracked = trackedResources(app.ctx.definitions.resources.values(), workflows);

    app.get('/api/dashboard', {
      preHandler: requirePermission('show_dashboard'),
      schema: { tags: ['dashboard'], summary: 'Grafici e conteggi della dashboard, nel perimetro dell\'utente', response },
    }, async (request, reply) => {
      const user = request.user;
      reply.header('cache-control', 'no-store');
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
      const year = Number(today.slice(0, 4));

      let premi = null;
      let scaduti = null;
      let overdue: number | null = null;
      if (hasPermission(titolo.resource.permissions.list, user)) {
        const scope = await scopeFilterOf(titolo, db, user);
        const where: Expression<SqlBool> = scope ?? sql<SqlBool>`true`;
        // Paid titles by the month of payment, in cents: what was collected, not what was due.
        const paid = await sql<{ anno: number; mese: number; cents: string }>`
          SELECT extract(year FROM data_pagamento)::int AS anno, extract(month FROM data_pagamento)::int AS mese,
                 round(sum(coalesce(importo_pagato, premio)) * 100)::bigint AS cents
          FROM titolo WHERE saldato AND data_pagamento >= make_date(${year - 1}, 1, 1) AND data_pagamento < make_date(${year + 1}, 1, 1) AND ${where}
          GROUP BY 1, 2`.execute(db);
        const perMonth = (y: number) => Array.from({ length: 12 }, (_, i) => Number(paid.rows.find((r) => r.anno === y && r.mese === i + 1)?.cents ?? 0));
        premi = { anno: year, mesi: perMonth(year), anno_precedente: year - 1, mesi_precedente: perMonth(year - 1) };
        const late = await sql<{ fascia: number; numero: number; cents: string }>`
          SELECT CASE ${sql.join(FASCE.map((f, i) => (f.a === null ? sql`ELSE ${i}` : sql`WHEN ${today}::date - data_inizio <= ${f.a} THEN ${i}`)), sql` `)} END AS fascia,
                 count(*)::int AS numero, round(sum(premio) * 100)::bigint AS cents
          FROM titolo WHERE NOT saldato AND data_inizio < ${today}::date AND ${where} GROUP BY 1`.execute(db);
        scaduti = FASCE.map((f, i) => {
          const row = late.rows.find((r) => Number(r.fascia) === i);
          return { fascia: f.etichetta, numero: row?.numero ?? 0, importo: Number(row?.cents ?? 0) };
        });
        overdue = scaduti.reduce((n, f) => n + f.numero, 0);
      }

      const quotazioniPerStato = hasPermission(quotazioneDef.resource.permissions.list, user)
        ? (await quotazioni.statusCounts(db, user)).map((s) => ({ id: s.id, code: s.code, nome: s.nome, totale: s.count }))
        : null;
      const documenti = hasPermission('show_track_documenti', user) ? await countMissing(db, user, tracked) : null;
      return { data: { premi, quotazioni: quotazioniPerStato, titoli_scaduti: scaduti, conteggi: { titoli_scaduti: overdue, documenti_mancanti: documenti } } };
    });
  });
}

export default defineDomain('dashboard', register);

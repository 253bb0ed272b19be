// ESTRATTO CONTO (issue 18): per supplier, the titles paid in a period with what goes to the supplier, grouped by the
// supplier's remittance type; the summary, a printable PDF and CSV/XLSX exports of the same filtered rows.
import { defineDomain } from '../../extensions.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { riepilogo, totaliPer, type Riepilogo } from '../../resources/riepilogo.ts';
import { CONTRAENTE_SQL } from '../../resources/viste.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { listQuery, parseListQuery } from '../../plugins/resources.ts';
import { requirePermission } from '../../auth/guards.ts';
import { invalid } from '../../errors.ts';
import { documentoPdf, type Blocco, type Colonna } from '../../pdf/documento.ts';
import { formatEuro } from '../../../shared/money.ts';
import { dataItaliana } from '../../../shared/dates.ts';

/**
 * da_rimettere: a contractual company paid net of commissions gets the insurer's premium less the broker's commission,
 * plus the withholding on it (the insurer pays that to the tax office for the broker); otherwise the whole premium.
 */

const COLONNE = [
  { campo: 'lordo', titolo: 'Lordo' },
  { campo: 'netto', titolo: 'Netto' },
  { campo: 'provvigioni_attive', titolo: 'Provv. Broker' },
  { campo: 'valore_ritenuta', titolo: 'Ritenuta' },
  { campo: 'da_rimettere', titolo: 'Da Rimettere' },
];
const CAMPI = COLONNE.map((c) => c.campo);
// More rows than a statement holds is a wrong filter, not a document to print.
const MAX_RIGHE = 20000;


function register(app: FastifyInstance): void {
  app.extensions.view('estratto_conto', `
    SELECT t.id, t.version, p.fornitore_id, f."ragioneSociale" AS fornitore, f."tipologiaRimesse" AS tipologia_rimessa,
           f."percentRitenuta"::double precision AS perc_ritenuta, cc.nome AS compagnia_contrattuale,
           coalesce(cc.effettua_versamenti_netto_provvigioni, false) AS al_netto,
           t.polizza_id, p.polizza_numero, ${CONTRAENTE_SQL} AS contraente, pr.nome AS prodotto, t.numero_rata, t.data_pagamento,
           t.tipo_pagamento, t.premio AS lordo, t.totale_netto AS netto, t.premio_polizza, coalesce(t.provvigioni_attive, 0) AS provvigioni_attive,
           coalesce(t.valore_ritenuta, 0) AS valore_ritenuta,
           CASE WHEN coalesce(cc.effettua_versamenti_netto_provvigioni, false)
                THEN t.premio_polizza - coalesce(t.provvigioni_attive, 0) + coalesce(t.valore_ritenuta, 0)
                ELSE t.premio_polizza END AS da_rimettere
    FROM titolo t
    JOIN polizza p ON p.id = t.polizza_id
    JOIN compagnia f ON f.id = p.fornitore_id
    LEFT JOIN compagnia_contrattuale cc ON cc.id = p.compagnia_contrattuale_id
    LEFT JOIN cliente c ON c.id = t.cliente_id
    LEFT JOIN categoria_prodotto pr ON pr.id = p.mandato_prodotto_id
    WHERE t.saldato`);

  app.extensions.routes('estratto_conto', async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get('estratto_conto')!;
    const repo = new ResourceRepository(def, app.ctx);
    const rimesse = new Map(((def.schema.properties?.tipologia_rimessa?.oneOf ?? []) as Array<{ const: string; title: string }>).map((o) => [o.const, o.title]));
    const allow = requirePermission(def.resource.permissions.list);
    const filtered = listQuery(def);

    const periodo = (request: FastifyRequest) => {
      const q = request.query as Record<string, unknown>;
      const dal = q['filter[pagato_dal]'];
      const al = q['filter[pagato_al]'];
      return `Pagamenti ${typeof dal === 'string' && dal ? `dal ${dataItaliana(dal)}` : ''} ${typeof al === 'string' && al ? `al ${dataItaliana(al)}` : ''}`.replace(/\s+/g, ' ').trim();
    };

    async function sommario(request: FastifyRequest): Promise<Riepilogo> {
      const query = parseListQuery(def, request.query as Record<string, unknown>);
      const rows = await totaliPer(app.ctx.db, repo, request.user, query, ['tipologia_rimessa', 'fornitore', 'fornitore_id'], CAMPI);
      return riepilogo(rows, {
        colonne: COLONNE,
        gruppo: (r) => [String(r.tipologia_rimessa ?? ''), rimesse.get(String(r.tipologia_rimessa)) ?? 'Rimessa non indicata'],
        riga: (r) => [String(r.fornitore_id), String(r.fornitore ?? '')],
      });
    }

    /** The filtered rows in statement order: remittance type, supplier, payment date. */
    async function righe(request: FastifyRequest): Promise<Array<Record<string, unknown>>> {
      const query = parseListQuery(def, request.query as Record<string, unknown>);
      const all = await repo.list(app.ctx.db, request.user, { ...query, page: 1, perPage: MAX_RIGHE + 1, sort: ['tipologia_rimessa', 'fornitore', 'fornitore_id', 'data_pagamento', 'polizza_numero', 'numero_rata'] });
      if (all.data.length > MAX_RIGHE) throw invalid({ query: [`Troppi titoli per un estratto conto (più di ${MAX_RIGHE}): restringi il periodo o scegli un fornitore.`] });
      return all.data;
    }

    app.get(`${def.resource.api.path}/riepilogo`, { preHandler: allow, schema: { querystring: filtered } }, async (request) => ({ data: await sommario(request) }));

    app.get(`${def.resource.api.path}/pdf`, { preHandler: allow, schema: { querystring: filtered } }, async (request, reply) => {
      const [sum, rows] = await Promise.all([sommario(request), righe(request)]);
      const colonne: Colonna[] = [
        { titolo: 'Polizza', larghezza: 62 }, { titolo: 'Contraente', larghezza: 103 }, { titolo: 'Rata', larghezza: 25, destra: true },
        { titolo: 'Pagato il', larghezza: 50 },
        ...COLONNE.map((c) => ({ titolo: c.titolo, larghezza: 51, destra: true })),
      ];
      const blocchi: Blocco[] = [{ tipo: 'testo', testo: periodo(request) || 'Tutti i pagamenti' }];
      for (const g of sum.gruppi) {
        blocchi.push({ tipo: 'titolo', testo: `Rimessa: ${g.titolo}` });
        for (const f of g.righe) {
          const mine = rows.filter((r) => String(r.tipologia_rimessa ?? '') === g.chiave && String(r.fornitore_id) === f.chiave);
          blocchi.push({ tipo: 'testo', testo: `${f.titolo} (${f.conteggio} ${f.conteggio === 1 ? 'titolo' : 'titoli'})` });
          blocchi.push({
            tipo: 'tabella', colonne,
            righe: mine.map((r) => [String(r.polizza_numero ?? ''), String(r.contraente ?? ''), String(r.numero_rata ?? ''), dataItaliana(r.data_pagamento), ...CAMPI.map((c) => formatEuro(Number(r[c] ?? 0)))]),
            totale: ['Totale', '', '', '', ...CAMPI.map((c) => formatEuro(f.valori[c]))],
          });
        }
        blocchi.push({ tipo: 'testo', testo: `Totale ${g.titolo}: da rimettere ${formatEuro(g.totale.valori.da_rimettere)} su ${formatEuro(g.totale.valori.lordo)} lordi` });
      }
      blocchi.push({ tipo: 'spazio' });
      blocchi.push({ tipo: 'titolo', testo: `Totale generale: da rimettere ${formatEuro(sum.totale.valori.da_rimettere)}` });
      blocchi.push({ tipo: 'testo', testo: COLONNE.map((c) => `${c.titolo} ${formatEuro(sum.totale.valori[c.campo])}`).join(' · '), piccolo: true });
      const pdf = await documentoPdf('Estratto Conto', blocchi);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', 'inline; filename="estratto-conto.pdf"');
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    });

    // The statement with its totals by remittance group (the list itself exports through the generic <path>/export).
    app.get(`${def.resource.api.path}/riepilogo/export`, {
      preHandler: allow,
      schema: { querystring: { ...filtered, properties: { ...filtered.properties, formato: { type: 'string', enum: ['csv', 'xlsx'] } } } },
    }, async (request, reply: FastifyReply) => {
      const formato = (request.query as { formato?: string }).formato ?? 'csv';
      const rows = await righe(request);
      const header = ['Rimessa', 'Fornitore', 'Polizza', 'Contraente', 'Rata', 'Pagato il', 'Tipo Pagamento', ...COLONNE.map((c) => c.titolo)];
      const line = (r: Record<string, unknown>) => [
        rimesse.get(String(r.tipologia_rimessa)) ?? '', String(r.fornitore ?? ''), String(r.polizza_numero ?? ''), String(r.contraente ?? ''),
        Number(r.numero_rata ?? 0), String(r.data_pagamento ?? ''), String(r.tipo_pagamento ?? ''), ...CAMPI.map((c) => Number(r[c] ?? 0)),
      ];
      const sum = await sommario(request);
      const totale = ['Totale', '', '', '', '', '', '', ...CAMPI.map((c) => sum.totale.valori[c]!)];
      reply.header('cache-control', 'no-store');
      if (formato === 'xlsx') {
        // Loaded on the first XLSX download: the package costs a tenth of the server's start-up otherwise.
        const { default: ExcelJS } = await import('exceljs');
        const book = new ExcelJS.Workbook();
        const sheet = book.addWorksheet('Estratto conto');
        sheet.addRow(header).font = { bold: true };
        for (const r of rows) sheet.addRow(line(r));
        sheet.addRow(totale).font = { bold: true };
        for (let i = 0; i < CAMPI.length; i++) sheet.getColumn(8 + i).numFmt = '#,##0.00 "€"';
        sheet.columns.forEach((c) => { c.width = 16; });
        reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        reply.header('content-disposition', 'attachment; filename="estratto-conto.xlsx"');
        return reply.send(Buffer.from(await book.xlsx.writeBuffer()));
      }
      // Italian spreadsheets read ';' separated values with a decimal comma; the BOM tells them it is UTF-8.
      const cell = (v: unknown) => {
        const text = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2).replace('.', ',')) : String(v);
        return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
      };
      const money = new Set(header.map((_, i) => i).filter((i) => i >= 7));
      const csv = [header, ...rows.map(line), totale].map((r) => r.map((v, i) => (money.has(i) && typeof v === 'number' ? v.toFixed(2).replace('.', ',') : cell(v))).join(';')).join('\r\n');
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', 'attachment; filename="estratto-conto.csv"');
      return reply.send(`\ufeff${csv}\r\n`);
    });
  });
}

export default defineDomain('estratto_conto', register);

// Autocomplete and list routes over the reference tables (spec 000 §7): comuni, nazioni, province, rami, settori, frazionamenti, rimesse.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { enforceLimits, publicAddressLimit } from '../../plugins/rateLimit.ts';
import { notFound } from '../../errors.ts';
import { searchKey } from './sources.ts';
import { NAZIONE_ESTERO, NAZIONE_ITALIA } from '../../../shared/validators/nazione.ts';

// The birth-country ids that are not a cadastral code (src/shared/validators/nazione.ts).
const NAZIONI_PROPRIE = [
  { id: NAZIONE_ITALIA, label: 'Italia', iso3166: 'IT' as string | null },
  { id: NAZIONE_ESTERO, label: 'Estero (paese non indicato)', iso3166: null as string | null },
];

// Spec 000 §9: the search needs more than 2 characters (a shorter one answers an empty list, as every picker).
const MIN_SEARCH = 3;
const MAX_COMUNI = 20;

interface ComuneRow {
  codice: string;
  nome: string;
  sigla_provincia: string;
  codice_catastale: string;
  cap: string[];
}

function comuneItem(row: ComuneRow) {
  return {
    codice: row.codice,
    nome: row.nome,
    provincia: row.sigla_provincia,
    codiceCatastale: row.codice_catastale,
    cap: row.cap,
    // The generic id/label shape of the other autocomplete lists (spec 002 §calls).
    id: row.codice,
    label: `${row.nome} (${row.sigla_provincia})`,
  };
}

function searchOf(query: unknown): string {
  const raw = (query as { search?: unknown } | undefined)?.search;
  return typeof raw === 'string' ? searchKey(raw) : '';
}

function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// Reference lists change only with a new release of the data; a short private cache spares repeated loads.
function cacheable(reply: FastifyReply): void {
  reply.header('cache-control', 'private, max-age=300');
}

/** Municipality search and one municipality by ISTAT code, under a prefix (staff, or the customer's public form). */
function registerComuni(app: FastifyInstance, prefix: string, preHandler?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>) {
  const db = app.ctx.db;
  const options = preHandler ? { preHandler } : {};
  app.get(`${prefix}/comune`, options, async (request) => {
    const search = searchOf(request.query);
    if (search.length < MIN_SEARCH) return { data: [] };
    const contains = `%${likeEscape(search)}%`;
    const starts = `${likeEscape(search)}%`;
    const rows = await sql<ComuneRow>`
      SELECT codice, nome, sigla_provincia, codice_catastale, cap FROM ref_comune
      WHERE nome_ricerca LIKE ${contains}
      ORDER BY (nome_ricerca LIKE ${starts}) DESC, nome_ricerca, sigla_provincia
      LIMIT ${MAX_COMUNI}`.execute(db);
    return { data: rows.rows.map(comuneItem) };
  });

  app.get(`${prefix}/comune/:codice`, options, async (request, reply) => {
    const raw = (request.params as { codice: string }).codice;
    // Spec 000 §3.7: the control holds a number, the output is the 6-digit zero-padded string.
    if (!/^\d{1,6}$/.test(raw)) throw notFound('Comune');
    const rows = await sql<ComuneRow>`
      SELECT codice, nome, sigla_provincia, codice_catastale, cap FROM ref_comune WHERE codice = ${raw.padStart(6, '0')}`.execute(db);
    if (!rows.rows[0]) throw notFound('Comune');
    cacheable(reply);
    return { data: comuneItem(rows.rows[0]) };
  });

}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  // The customer's public form needs the municipalities too: same answers, no login, limited per address.
  app.extensions.publicRoutes('riferimenti-pubblici', async (app: FastifyInstance) => {
    registerComuni(app, '/api/pubblico/autocomplete', async (request, reply) => {
      await enforceLimits(app.ctx.db, reply, [publicAddressLimit(request)]);
    });
  });
  app.extensions.routes('riferimenti', async (app: FastifyInstance) => {
    const db = app.ctx.db;

    registerComuni(app, '/api/autocomplete');

    app.get('/api/autocomplete/nazione', async (request, reply) => {
      const search = searchOf(request.query);
      if (search && search.length < MIN_SEARCH) return { data: [] };
      // Countries in force only: a ceased one (URSS, Jugoslavia) stays known to the codice fiscale checks.
      const rows = await sql<{ id: string; label: string; iso3166: string | null }>`
        SELECT codice_catastale AS id, nome AS label, iso3166 FROM ref_nazione
        WHERE data_fine IS NULL ${search ? sql`AND nome_ricerca LIKE ${`%${likeEscape(search)}%`}` : sql``}
        ORDER BY ${search ? sql`(nome_ricerca LIKE ${`${likeEscape(search)}%`}) DESC,` : sql``} nome_ricerca`.execute(db);
      cacheable(reply);
      // Italy has no country code: it is '1', the id the data and the rules use; '2' names the public form's "Estero".
      const own = NAZIONI_PROPRIE.filter((n) => !search || searchKey(n.label).includes(search));
      return { data: [...own.filter((n) => n.id === NAZIONE_ITALIA), ...rows.rows, ...own.filter((n) => n.id !== NAZIONE_ITALIA)] };
    });

    app.get('/api/autocomplete/province', async (request, reply) => {
      const search = searchOf(request.query);
      if (search && search.length < MIN_SEARCH) return { data: [] };
      const rows = await sql<{ id: string; label: string; regione: string }>`
        SELECT sigla AS id, nome AS label, regione FROM ref_provincia ORDER BY nome`.execute(db);
      cacheable(reply);
      // 107 rows: filtering here keeps one search form ("forli" finds Forlì-Cesena) without a stored search column.
      return { data: search ? rows.rows.filter((r) => searchKey(r.label).includes(search)) : rows.rows };
    });

    const rami = async () => (await sql<{ id: number; codice: string; nome: string; settore_id: number }>`
      SELECT id, codice, nome, settore_id FROM ref_ramo ORDER BY ordine`.execute(db)).rows.map((r) => ({ ...r, label: `${r.codice} - ${r.nome}` }));

    app.get('/api/autocomplete/ramo', async (request, reply) => {
      const settore = (request.query as { settore_id?: unknown }).settore_id;
      const all = await rami();
      cacheable(reply);
      // ?settore_id= narrows the branches to one sector, as the product form pairs them.
      return { data: typeof settore === 'string' && /^\d+$/.test(settore) ? all.filter((r) => r.settore_id === Number(settore)) : all };
    });

    app.get('/api/rami', async (_request, reply) => {
      cacheable(reply);
      return { data: await rami() };
    });

    app.get('/api/autocomplete/settore', async (_request, reply) => {
      const rows = await sql<{ id: number; label: string }>`SELECT id, nome AS label FROM ref_settore ORDER BY ordine`.execute(db);
      cacheable(reply);
      return { data: rows.rows.map((r) => ({ ...r, nome: r.label })) };
    });

    app.get('/api/autocomplete/frazionamento', async (_request, reply) => {
      const rows = await sql<{ id: string; label: string; rate: number; mesi: number | null }>`
        SELECT codice AS id, nome AS label, rate, mesi FROM ref_frazionamento ORDER BY ordine`.execute(db);
      cacheable(reply);
      // Spec 002 reads slug and label (and sends frazionamento_slug): the slug is the id.
      return { data: rows.rows.map((r) => ({ ...r, slug: r.id })) };
    });

    app.get('/api/autocomplete/tipologia_rimessa', async (_request, reply) => {
      const rows = await sql<{ id: string; label: string }>`SELECT codice AS id, nome AS label FROM ref_tipologia_rimessa ORDER BY ordine`.execute(db);
      cacheable(reply);
      return { data: rows.rows };
    });

    // Payment types of a title (spec 002 §3.3).
    app.get('/api/autocomplete/tipo_pagamento', async (_request, reply) => {
      const rows = await sql<{ id: string; label: string }>`SELECT codice AS id, nome AS label FROM ref_tipo_pagamento ORDER BY ordine`.execute(db);
      cacheable(reply);
      return { data: rows.rows };
    });
  });
}

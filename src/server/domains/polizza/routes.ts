// Policy routes beyond CRUD: the product search of the form, its pickers, the commission parameters, title payment and reversal.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import { requirePermission } from '../../auth/guards.ts';
import { HttpError, forbidden, invalid, notFound } from '../../errors.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { hasPermission } from '../../../shared/permissions.ts';
import type { FieldErrors } from '../../../shared/validation.ts';
import { aggiornaStatoPolizza, oggi, parametriProvvigioni } from './titoli.ts';
import { puoRegistrarePagamenti, registraPagamento } from './pagamenti.ts';

const idParam = { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{1,9}$' } }, required: ['id'] } as const;
const looseQuery = { type: 'object', additionalProperties: true } as const;

/** A positive integer query value or undefined; anything else is a 422 at that parameter. */
function optionalId(query: Record<string, unknown>, names: string[], errors: FieldErrors, field: string): number | undefined {
  for (const name of names) {
    const raw = name.includes('.') ? (query[name.split('.')[0]!] as Record<string, unknown> | undefined)?.[name.split('.')[1]!] : query[name];
    if (raw === undefined || raw === '') continue;
    if (typeof raw !== 'string' || !/^[1-9][0-9]{0,8}$/.test(raw)) {
      errors[field] = ['Deve essere un numero intero positivo'];
      return undefined;
    }
    return Number(raw);
  }
  return undefined;
}

interface ProdottoRow {
  id: number;
  nome: string;
  attivo: boolean;
  mandato_attivo: boolean;
  percentuale_provvigione_attiva: number | null;
  data_inizio_mandato: string | null;
  compagnia_fornitore_id: number;
  compagnia_contrattuale_id: number;
  mandatabile_type: string | null;
  ramo_id: number | null;
  settore_id: number | null;
  fornitore: string;
  compagnia: string;
  ramo: string | null;
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes('polizza', async (app: FastifyInstance) => {
    const db = app.ctx.db;
    const polizzaDef = app.ctx.definitions.resources.get('polizza')!;
    const titoloDef = app.ctx.definitions.resources.get('titolo')!;
    const titoli = new ResourceRepository(titoloDef, app.ctx);
    const archivi = { titoli, polizze: new ResourceRepository(polizzaDef, app.ctx) };
    const canUse = requirePermission(polizzaDef.resource.permissions.create);
    const canRead = requirePermission(titoloDef.resource.permissions.read);

    // Spec 002 §3.4, §7.1: the mandate products of a supplier under a contractual company (and branch), active mandates only.
    app.get('/api/mandato_prodotto_in_polizza/search', { preHandler: canUse, schema: { querystring: looseQuery } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const errors: FieldErrors = {};
      const fornitore = optionalId(query, ['compagnia_fornitore_id', 'fornitore_id'], errors, 'compagnia_fornitore_id');
      const compagnia = optionalId(query, ['prodotto[compagnia_contrattuale_id]', 'prodotto.compagnia_contrattuale_id', 'compagnia_contrattuale_id'], errors, 'prodotto.compagnia_contrattuale_id');
      const ramo = optionalId(query, ['ramo_id', 'prodotto[ramo_id]', 'prodotto.ramo_id'], errors, 'ramo_id');
      if (Object.keys(errors).length) throw invalid(errors);
      const conditions: Expression<SqlBool>[] = [sql<SqlBool>`p.attivo`, sql<SqlBool>`p.mandato_attivo`];
      if (fornitore) conditions.push(sql<SqlBool>`p.compagnia_fornitore_id = ${fornitore}`);
      if (compagnia) conditions.push(sql<SqlBool>`p.compagnia_contrattuale_id = ${compagnia}`);
      if (ramo) conditions.push(sql<SqlBool>`p.ramo_id = ${ramo}`);
      const rows = await sql<ProdottoRow>`
        SELECT p.id, p.nome, p.attivo, p.mandato_attivo, p.percentuale_provvigione_attiva, p.data_inizio_mandato,
               p.compagnia_fornitore_id, p.compagnia_contrattuale_id, p.mandatabile_type, p.ramo_id, p.settore_id,
               f."ragioneSociale" AS fornitore, c.nome AS compagnia, r.codice AS ramo
        FROM categoria_prodotto p
        JOIN compagnia f ON f.id = p.compagnia_fornitore_id AND f.attivo
        JOIN compagnia_contrattuale c ON c.id = p.compagnia_contrattuale_id
        LEFT JOIN ref_ramo r ON r.id = p.ramo_id
        WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY p.nome, p.id LIMIT 500`.execute(db);
      reply.header('cache-control', 'no-store');
      return {
        data: rows.rows.map((p) => ({
          id: p.id,
          nome: p.nome,
          label: `${p.nome}${p.ramo ? ` (${p.ramo})` : ''}`,
          mandato: {
            attivo: p.mandato_attivo,
            percentuale_provvigione_attiva: String(p.percentuale_provvigione_attiva ?? 0),
            data_inizio_mandato: p.data_inizio_mandato,
            compagnia_fornitore_id: p.compagnia_fornitore_id,
          },
          mandatabile_type: p.mandatabile_type,
          ramo_id: p.ramo_id,
          settore_id: p.settore_id,
          compagnia_contrattuale_id: p.compagnia_contrattuale_id,
          compagnia_contrattuale: { id: p.compagnia_contrattuale_id, label: p.compagnia },
          fornitore: { id: p.compagnia_fornitore_id, label: p.fornitore },
        })),
      };
    });

    // Pickers of the policy form: suppliers and contractual companies that hold at least one active mandate product.
    const picker = (kind: 'fornitore' | 'compagnia_contrattuale') => async (request: FastifyRequest) => {
      const query = request.query as Record<string, unknown>;
      const search = typeof query.search === 'string' ? query.search.trim() : '';
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const errors: FieldErrors = {};
      const fornitore = kind === 'compagnia_contrattuale' ? optionalId(query, ['fornitore_id', 'compagnia_fornitore_id'], errors, 'fornitore_id') : undefined;
      if (Object.keys(errors).length) throw invalid(errors);
      const rows = kind === 'fornitore'
        ? await sql<{ id: number; label: string }>`
            SELECT f.id, f."ragioneSociale" AS label FROM compagnia f
            WHERE f.attivo AND EXISTS (SELECT 1 FROM categoria_prodotto p WHERE p.compagnia_fornitore_id = f.id AND p.attivo AND p.mandato_attivo)
              ${search ? sql`AND f."ragioneSociale" ILIKE ${like}` : sql``}
            ORDER BY 2, 1 LIMIT 50`.execute(db)
        : await sql<{ id: number; label: string }>`
            SELECT c.id, c.nome AS label FROM compagnia_contrattuale c
            WHERE EXISTS (SELECT 1 FROM categoria_prodotto p WHERE p.compagnia_contrattuale_id = c.id AND p.attivo AND p.mandato_attivo
                          ${fornitore ? sql`AND p.compagnia_fornitore_id = ${fornitore}` : sql``})
              ${search ? sql`AND c.nome ILIKE ${like}` : sql``}
            ORDER BY 2, 1 LIMIT 50`.execute(db);
      return { data: rows.rows };
    };
    app.get('/api/polizza/autocomplete/fornitore', { preHandler: canUse, schema: { querystring: looseQuery } }, picker('fornitore'));
    app.get('/api/polizza/autocomplete/compagnia_contrattuale', { preHandler: canUse, schema: { querystring: looseQuery } }, picker('compagnia_contrattuale'));

    // The percentages the commission panel applies, so the form computes it as the user types with src/shared/premi.ts.
    app.get('/api/polizza/parametri_provvigioni', { preHandler: canUse, schema: { querystring: looseQuery } }, async (request) => {
      const query = request.query as Record<string, unknown>;
      const errors: FieldErrors = {};
      const prodotto = optionalId(query, ['mandato_prodotto_id'], errors, 'mandato_prodotto_id');
      const collaboratore = optionalId(query, ['collaboratore_id'], errors, 'collaboratore_id');
      if (Object.keys(errors).length) throw invalid(errors);
      // Another collaborator's commission is theirs to know: outside one's own record it takes who sees all customers.
      const user = request.user;
      if (collaboratore && collaboratore !== user.collaboratore_id && !hasPermission('show_tutti_clienti|show_collaboratori', user)) throw forbidden();
      return { data: await parametriProvvigioni(db, prodotto ?? null, collaboratore ?? null) };
    });

    for (const base of [titoloDef.resource.api.path, ...(titoloDef.resource.api.aliases ?? [])]) {
      // Payment of a title: date, amount (the title's premium), payment type and who, in one transaction with the policy's status.
      app.post(`${base}/:id/pagamento`, {
        preHandler: puoRegistrarePagamenti,
        schema: { params: idParam, body: { type: 'object', additionalProperties: true } },
      }, async (request) => {
        const id = Number((request.params as { id: string }).id);
        const body = (request.body ?? {}) as Record<string, unknown>;
        const user = request.user;
        return db.transaction().execute(async (trx) => {
          await registraPagamento(trx, archivi, user, id, body);
          return { message: 'Pagamento registrato.', data: { model: await titoli.get(trx, user, id) } };
        });
      });

      // Reversal of a payment: only for holders of the permission; the payment stays in the history with its reversal.
      app.post(`${base}/:id/storno`, {
        preHandler: requirePermission('storna_pagamenti_titoli'),
        schema: { params: idParam, body: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] } },
      }, async (request) => {
        const id = Number((request.params as { id: string }).id);
        const body = (request.body ?? {}) as Record<string, unknown>;
        const user = request.user;
        return db.transaction().execute(async (trx) => {
          const visible = await titoli.get(trx, user, id);
          await sql`SELECT id FROM polizza WHERE id = ${visible.polizza_id as number} FOR UPDATE`.execute(trx);
          const titolo = (await sql<Record<string, unknown>>`SELECT * FROM titolo WHERE id = ${id} FOR UPDATE`.execute(trx)).rows[0];
          if (!titolo) throw notFound('Titolo', false);
          if (!titolo.saldato) throw new HttpError(409, 'Il titolo non è pagato: non c\'è nulla da stornare.');
          const nota = typeof body.nota === 'string' ? body.nota.trim().slice(0, 1000) : '';
          await sql`INSERT INTO titolo_movimento (titolo_id, tipo, data, importo, tipo_pagamento, nota, user_id, user_name)
            VALUES (${id}, 'STORNO', ${oggi()}, ${titolo.importo_pagato as number}, ${titolo.tipo_pagamento as string}, ${nota || null}, ${user.id || null}, ${user.name})`.execute(trx);
          await titoli.writeOnBehalf(trx, user, titolo, {
            saldato: false, stato: 'GIACENZA', data_ultimo_stato: oggi(), data_pagamento: null, importo_pagato: null, tipo_pagamento: null, pagato_da: null,
          });
          await aggiornaStatoPolizza(trx, archivi.polizze, user, Number(titolo.polizza_id));
          return { message: 'Pagamento stornato.', data: { model: await titoli.get(trx, user, id) } };
        });
      });

      app.get(`${base}/:id/movimenti`, { preHandler: canRead, schema: { params: idParam } }, async (request) => {
        const id = Number((request.params as { id: string }).id);
        await titoli.get(db, request.user, id);
        const rows = await sql`SELECT id, tipo, data, importo, tipo_pagamento, nota, user_name, at FROM titolo_movimento
          WHERE titolo_id = ${id} ORDER BY id`.execute(db);
        return { data: rows.rows };
      });
    }
  });
}

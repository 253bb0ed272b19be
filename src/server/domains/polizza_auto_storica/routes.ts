// Routes of spec 001 §7 for issuing, renewing, reversing and resending historic-car policies; each is an event of the quotation machine.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRATTO_EMESSO, type ContrattoEmesso } from '../../extensions.ts';
import { versionFrom } from '../../plugins/resources.ts';
import { requirePermission } from '../../auth/guards.ts';
import { ResourceRepository } from '../../resources/repository.ts';
import { lazyValidator } from '../../../shared/validation.ts';
import { notFound } from '../../errors.ts';
import { ID_PARAMS, parsePathId } from '../../http/contract.ts';
import type { AuthUser } from '../../auth/user.ts';
import { SUPER_ADMIN } from '../../../shared/permissions.ts';
import { emissioneAutoStoriche } from '../../adapters/auto-storiche/emissione.ts';
import { koalaBroker } from '../../adapters/koala/index.ts';
import { chiamateDi } from './chiamate.ts';
import { ELENCO, sincronizzaElenco } from './elenco.ts';
import { appendiciAutoStoriche } from '../../adapters/auto-storiche/appendici.ts';
import { tariffa } from '../../adapters/auto-storiche/tariffa.ts';
import { registriAdapter } from '../../adapters/registri/index.ts';
import {
  anteprimaEsclusione, anteprimaInclusione, appendiciDi, calcolaEsclusione, calcolaInclusione, emettiEsclusione, emettiInclusione,
  type ServizioAppendici,
} from './appendici.ts';
import {
  anteprima, consegnaDuplicata, emetti, POLIZZA, QUOTAZIONE, reinviaKoala, rigeneraDocumenti, rinnova, salvaEmissione, storna,
} from './servizio.ts';

const idParams = ID_PARAMS;
const decorrenzaQuery = { type: 'object', properties: { decorrenza: { type: 'string' } } } as const;
const optionsBody = {
  type: ['object', 'null'],
  properties: { options: { type: 'object', properties: { check_atrc_contract_expiration_date: { type: 'boolean' } } } },
} as const;
const anyBody = { type: ['object', 'null'] } as const;

// Who writes the catch-up copies: the system, on data whose scope was checked when the policy was issued.
const SISTEMA: AuthUser = { id: 0, email: 'sistema', name: 'sistema', collaboratore_id: null, tokenId: 0, roles: [SUPER_ADMIN], permissions: [] };

function parseId(raw: string): number {
  return parsePathId(raw, () => notFound('Quotazione', true));
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes(POLIZZA, async (app: FastifyInstance) => {
    const def = app.ctx.definitions.resources.get(QUOTAZIONE)!;
    const polizzaDef = app.ctx.definitions.resources.get(POLIZZA)!;
    const elencoDef = app.ctx.definitions.resources.get(ELENCO);
    const workflow = app.ctx.workflows.get(def.resource.workflow!.machine)!;
    const s: ServizioAppendici = {
      db: app.ctx.db, def, workflow,
      repo: new ResourceRepository(def, app.ctx, undefined, workflow),
      polizze: new ResourceRepository(polizzaDef, app.ctx),
      appendiciRepo: new ResourceRepository(app.ctx.definitions.resources.get('appendice')!, app.ctx),
      elenco: elencoDef ? new ResourceRepository(elencoDef, app.ctx) : undefined,
      log: (message) => app.log.warn(message),
      leaseMs: app.ctx.config.CHIAMATE_ESTERNE_LEASE_MS,
      compagnia: emissioneAutoStoriche(app.ctx.config, app.ctx.db, (chiave, esito) => {
        consegnaDuplicata(s, chiave, esito).catch((error: unknown) => app.log.error({ err: error, chiave }, 'seconda consegna della risposta di emissione non registrata'));
      }),
      koala: koalaBroker(app.ctx.config, app.ctx.db),
      appendici: appendiciAutoStoriche(app.ctx.config, tariffa, app.ctx.db),
      registri: registriAdapter(app.ctx.config),
      contratto: (trx, user, quotazione) => app.extensions.serviceOf<ContrattoEmesso>(CONTRATTO_EMESSO)(app.ctx.media, trx, quotazione, user),
    };
    const validaQuotazione = lazyValidator(() => app.ctx.ajv, def.schema);
    const read = requirePermission(def.resource.permissions.read);
    const id = (request: FastifyRequest) => parseId((request.params as { id: string }).id);

    app.put('/api/update_quotazione_per_emissione/:id', { preHandler: read, schema: { params: idParams, body: anyBody } }, async (request) =>
      salvaEmissione(s, request.user, id(request), request.body ?? {}, versionFrom(request), validaQuotazione, async (input, before, trx) => {
        await app.ctx.extensions.hooksFor(QUOTAZIONE).beforeWrite?.('update', { trx, user: request.user, def, input, before, tokenId: request.user.tokenId });
      }));

    app.post('/api/preview_quotazione_per_emissione/:id', { preHandler: read, schema: { params: idParams, querystring: decorrenzaQuery, body: optionsBody } }, async (request) =>
      anteprima(s, request.user, id(request), (request.query as { decorrenza?: string }).decorrenza, request.body ?? {}));

    app.post('/api/quotazioni/emetti/:id', { preHandler: read, schema: { params: idParams, querystring: decorrenzaQuery, body: optionsBody } }, async (request) =>
      emetti(s, request.user, id(request), (request.query as { decorrenza?: string }).decorrenza, request.body ?? {}));

    app.post('/api/quotazioni/rinnovo-polizza/:id', { preHandler: read, schema: { params: idParams, body: anyBody } }, async (request, reply) => {
      const out = await rinnova(s, request.user, id(request));
      reply.code(201);
      return out;
    });

    app.post('/api/storna_emissione/:id/:numero', {
      preHandler: read,
      schema: { params: { type: 'object', properties: { ...ID_PARAMS.properties, numero: { type: 'string', maxLength: 60 } }, required: ['id', 'numero'] }, body: anyBody },
    }, async (request) => storna(s, request.user, id(request), (request.params as { numero: string }).numero));

    app.post('/api/polizza_gold/reimporta_emissione_koala_broker/:id', { preHandler: read, schema: { params: idParams, body: anyBody } }, async (request) =>
      reinviaKoala(s, request.user, id(request)));

    app.post('/api/quotazioni/:id/rigenera-documenti-compagnia', { preHandler: read, schema: { params: idParams, body: anyBody } }, async (request) =>
      rigeneraDocumenti(s, request.user, id(request)));

    // Appendices (spec 001 §7 'Appendices'): calculation into a draft, preview, issue exactly once.
    const plateParams = { type: 'object', properties: { id: { type: 'string' }, plate: { type: 'string', minLength: 1, maxLength: 12 } }, required: ['id', 'plate'] } as const;
    const objectBody = { type: 'object' } as const;
    const body = (request: FastifyRequest) => (request.body ?? {}) as Record<string, unknown>;
    const plate = (request: FastifyRequest) => (request.params as { plate: string }).plate;
    app.post('/api/v1/goold/quotations/inclusion/calculate/:id', { preHandler: read, schema: { params: idParams, body: objectBody } }, async (request) =>
      calcolaInclusione(s, request.user, id(request), body(request)));
    app.post('/api/preview_appendice_inclusione_polizza_autostoriche_verti', { preHandler: read, schema: { body: objectBody } }, async (request) =>
      anteprimaInclusione(s, request.user, body(request)));
    app.post('/api/emissione_appendice_inclusione_polizza_autostoriche_verti', { preHandler: read, schema: { body: objectBody } }, async (request) =>
      emettiInclusione(s, request.user, body(request)));
    app.post('/api/v1/goold/quotations/exclusion/calculate/:id', { preHandler: read, schema: { params: idParams, body: objectBody } }, async (request) =>
      calcolaEsclusione(s, request.user, id(request), body(request)));
    app.post('/api/preview_appendice_esclusione/:id/:plate', { preHandler: read, schema: { params: plateParams, body: { type: ['object', 'null'] } } }, async (request) =>
      anteprimaEsclusione(s, request.user, id(request), plate(request), body(request)));
    app.post('/api/emissione_appendice_esclusione/:id/:plate', { preHandler: read, schema: { params: plateParams, body: { type: ['object', 'null'] } } }, async (request) =>
      emettiEsclusione(s, request.user, id(request), plate(request), body(request)));
    app.get('/api/quotazioni/:id/appendici', { preHandler: read, schema: { params: idParams } }, async (request) =>
      appendiciDi(s, request.user, id(request)));

    // Issued policies not yet in the policies list (issued before the copy existed, or before their product was configured).
    // At ready, not at build: building an app touches no database (a start with the database down still answers 503).
    const elenco = s.elenco;
    if (elenco) {
      app.addHook('onReady', async () => {
        try {
          const copiate = await sincronizzaElenco(app.ctx.db, elenco, SISTEMA, (message) => app.log.warn(message));
          if (copiate) app.log.info(`${copiate} polizze auto storiche copiate nell'elenco polizze`);
        } catch (err) {
          app.log.warn({ err }, 'copia delle polizze auto storiche nell\'elenco rinviata al prossimo avvio');
        }
      });
    }

    // The log of outside calls of a quotation (attempts, answers, Koala resends), for the super_admin.
    app.get('/api/quotazioni/:id/chiamate-esterne', { preHandler: requirePermission('super_admin'), schema: { params: idParams } }, async (request) => {
      const quotazione = id(request);
      await s.repo.get(s.db, request.user, quotazione);
      return { data: await chiamateDi(s.db, QUOTAZIONE, quotazione) };
    });
  });
}

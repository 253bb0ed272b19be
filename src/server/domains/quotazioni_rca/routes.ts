// Routes of the fast quotation (spec 002 §7.2): quotation, stored quotation, customer search, step-2 prefill, proposal.
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../../auth/guards.ts';
import { invalid } from '../../errors.ts';
import { ID_PARAMS, parsePathId } from '../../http/contract.ts';
import { motorInsurer } from '../../adapters/motor/index.ts';
import type { MotorInsurer } from '../../adapters/motor/shapes.ts';
import { QuotazioniRcaService, RESOURCE } from './service.ts';

const clienteQuery = { type: 'object', properties: { cliente_id: { type: 'string', pattern: '^[0-9]{0,9}$' } } } as const;
const jsonObject = { type: 'object' } as const;

function clienteIdOf(query: unknown): number | undefined {
  const raw = (query as { cliente_id?: string } | undefined)?.cliente_id;
  return raw ? Number(raw) : undefined;
}

let insurerOverride: MotorInsurer | undefined;
/** Tests swap the insurer (e.g. the HTTP implementation against a local stub) before building the app. */
export function useMotorInsurer(insurer: MotorInsurer | undefined): void {
  insurerOverride = insurer;
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.routes(RESOURCE, async (app: FastifyInstance) => {
    if (!app.ctx.definitions.resources.has(RESOURCE)) return;
    const service = new QuotazioniRcaService(app.ctx, insurerOverride ?? motorInsurer(app.ctx.config));
    const perms = service.def.resource.permissions;
    const read = { preHandler: requirePermission(perms.read) };
    const write = { preHandler: requirePermission(perms.create) };
    // Schema failures reach the handler, which answers them in Italian at their field.
    const ownValidation = { attachValidation: true };
    // The field that caused it: the id of the path, cliente_id of the query, or the body as a whole.
    const refuseInvalid = (request: { validationError?: Error & { validationContext?: string } }) => {
      const error = request.validationError;
      if (!error) return;
      if (error.validationContext === 'params') throw invalid({ id: ['Identificativo non valido.'] });
      if (error.validationContext === 'querystring') throw invalid({ cliente_id: ['Deve essere un numero intero'] });
      throw invalid({ _: ['Il corpo della richiesta deve essere un oggetto JSON.'] });
    };

    // Not an id at all is a field error (as the schema failures above); a well-formed id of no visible quotation is a 404.
    const idOf = (request: { params: unknown }) => parsePathId((request.params as { id: string }).id, () => invalid({ id: ['Identificativo non valido.'] }));

    app.post('/api/quixa/FastQuotationFlow', { ...write, ...ownValidation, schema: { querystring: clienteQuery, body: jsonObject } }, async (request) => {
      refuseInvalid(request);
      return service.create(request.user, request.body, clienteIdOf(request.query));
    });

    app.get('/api/quixa/FastQuotationFlow/:id', { ...read, ...ownValidation, schema: { params: ID_PARAMS } }, async (request) => {
      refuseInvalid(request);
      return service.get(request.user, idOf(request));
    });

    app.put('/api/quixa/FastQuotationFlow/:id', { ...write, ...ownValidation, schema: { params: ID_PARAMS, querystring: clienteQuery, body: jsonObject } }, async (request) => {
      refuseInvalid(request);
      return service.update(request.user, idOf(request), request.body, clienteIdOf(request.query));
    });

    app.post('/api/adapter/quixa/clienteVeicolo/FastQuotationFlow', {
      ...write, ...ownValidation,
      schema: { body: { type: 'object', required: ['cliente_id'], properties: { cliente_id: { type: 'integer', minimum: 1 }, veicolo_id: { type: 'string', maxLength: 20 } } } },
    }, async (request) => {
      if (request.validationError) throw invalid({ cliente_id: ['Seleziona un cliente.'] });
      const body = request.body as { cliente_id: number; veicolo_id?: string };
      return service.requestFor(request.user, body.cliente_id, body.veicolo_id);
    });

    app.post('/api/quixa/Proposal', {
      ...write, ...ownValidation,
      schema: {
        body: {
          type: 'object', required: ['proposalData'],
          properties: { proposalData: { type: 'object', required: ['quotationNumber'], properties: { quotationNumber: { type: 'string', minLength: 1, maxLength: 40 }, sendMailToClient: { type: 'boolean' } } } },
        },
      },
    }, async (request) => {
      if (request.validationError) throw invalid({ 'proposalData.quotationNumber': ['Campo Obbligatorio.'] });
      const { proposalData } = request.body as { proposalData: { quotationNumber: string; sendMailToClient?: boolean } };
      return service.propose(request.user, proposalData.quotationNumber, proposalData.sendMailToClient ?? false);
    });

    app.get('/api/search/cliente', {
      preHandler: requirePermission(`${app.ctx.definitions.resources.get('cliente')!.resource.permissions.list}&${perms.create}`),
      ...ownValidation,
      schema: { querystring: { type: 'object', properties: { 'filter[cognome_nome]': { type: 'string', maxLength: 100 }, page: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' } } } },
    }, async (request) => {
      if (request.validationError) throw invalid({ 'filter.cognome_nome': ['Valore del filtro non valido'] });
      const q = request.query as Record<string, string | undefined>;
      return service.searchClienti(request.user, q['filter[cognome_nome]'] ?? '', Number(q.page ?? 1));
    });
  });
}

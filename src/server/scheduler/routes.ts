// The schedules for whoever holds gestione_pianificazioni (super_admin by default): each with its last and next run
// and outcome, its recent runs, 'Esegui ora' and enable/disable.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../auth/guards.ts';
import { errorResponses } from '../http/openapi.ts';
import { HttpError } from '../errors.ts';

export const GESTIONE_PIANIFICAZIONI = 'gestione_pianificazioni';

const NOME = { type: 'object', required: ['nome'], properties: { nome: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,62}$' } } };
const STATO = {
  type: 'object',
  properties: {
    nome: { type: 'string' }, titolo: { type: 'string' }, descrizione: { type: 'string' }, cron: { type: 'string' }, attiva: { type: 'boolean' },
    prossima: { type: ['string', 'null'], format: 'date-time' }, ultima: { type: ['string', 'null'], format: 'date-time' },
    esito: { type: ['string', 'null'] }, errore: { type: ['string', 'null'] }, durata_ms: { type: ['integer', 'null'] },
  },
};
const ESECUZIONE = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, dovuta: { type: 'string', format: 'date-time' }, manuale: { type: 'boolean' }, stato: { type: 'string', enum: ['in_corso', 'riuscita', 'fallita', 'abbandonata'] },
    tentativo: { type: 'integer' }, iniziata: { type: ['string', 'null'] }, finita: { type: ['string', 'null'] }, esito: { type: ['string', 'null'] }, errore: { type: ['string', 'null'] },
  },
};

export default fp(async (app: FastifyInstance) => {
  app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);
    const guard = requirePermission(GESTIONE_PIANIFICAZIONI);
    const tags = ['pianificazioni'];
    const known = (nome: string) => {
      if (!app.ctx.scheduler.schedule(nome)) throw new HttpError(404, 'Pianificazione non trovata.');
    };
    scoped.get('/api/pianificazioni', {
      preHandler: guard,
      schema: { tags, summary: 'Le pianificazioni, con ultima e prossima esecuzione ed esito', querystring: { type: 'object', properties: { _t: { type: 'string', maxLength: 20 } }, additionalProperties: false }, response: { 200: { type: 'object', properties: { data: { type: 'array', items: STATO } } }, ...errorResponses(401, 403) } },
    }, async () => ({ data: await app.ctx.scheduler.list() }));
    scoped.get('/api/pianificazioni/:nome/esecuzioni', {
      preHandler: guard,
      schema: { tags, summary: 'Le ultime esecuzioni di una pianificazione', params: NOME, querystring: { type: 'object', properties: { _t: { type: 'string', maxLength: 20 } }, additionalProperties: false }, response: { 200: { type: 'object', properties: { data: { type: 'array', items: ESECUZIONE } } }, ...errorResponses(401, 403, 404) } },
    }, async (request) => {
      const { nome } = request.params as { nome: string };
      known(nome);
      return { data: await app.ctx.scheduler.runs(nome) };
    });
    scoped.post('/api/pianificazioni/:nome/esegui', {
      preHandler: guard,
      schema: { tags, summary: 'Esegui ora (fuori dagli orari della pianificazione)', params: NOME, body: { type: ['object', 'null'] }, response: { 200: { type: 'object', properties: { message: { type: 'string' }, data: ESECUZIONE } }, ...errorResponses(401, 403, 404, 409) } },
    }, async (request) => {
      const { nome } = request.params as { nome: string };
      known(nome);
      const run = await app.ctx.scheduler.runNow(nome).catch((error: Error) => {
        throw new HttpError(409, error.message, undefined, undefined, 'CONFLICT');
      });
      const data = (await app.ctx.scheduler.runs(nome, 50)).find((r) => r.id === run.id)!;
      return { message: run.stato === 'riuscita' ? `Eseguita: ${run.esito ?? ''}`.trim() : `Non riuscita: ${run.errore ?? ''} (sarà ritentata)`.trim(), data };
    });
    scoped.put('/api/pianificazioni/:nome', {
      preHandler: guard,
      schema: { tags, summary: 'Attiva o disattiva una pianificazione', params: NOME, body: { type: 'object', required: ['attiva'], additionalProperties: false, properties: { attiva: { type: 'boolean' } } }, response: { 200: { type: 'object', properties: { message: { type: 'string' }, data: STATO } }, ...errorResponses(401, 403, 404, 422) } },
    }, async (request) => {
      const { nome } = request.params as { nome: string };
      known(nome);
      const { attiva } = request.body as { attiva: boolean };
      await app.ctx.scheduler.setActive(nome, attiva);
      return { message: attiva ? 'Pianificazione attivata.' : 'Pianificazione disattivata.', data: (await app.ctx.scheduler.list()).find((s) => s.nome === nome)! };
    });
  });
});

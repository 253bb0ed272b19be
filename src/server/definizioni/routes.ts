// The definitions on a running system, for whoever holds gestione_definizioni (super_admin by default): the set served,
// a change's plan, its application (every instance serves it within seconds), the versions and going back to one.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission } from '../auth/guards.ts';
import { errorResponses } from '../http/openapi.ts';
import { HttpError } from '../errors.ts';
import { LIVE_FILE, VersioneSuperata, applyChange, lintOrErrors, planChange, type Piano } from './piano.ts';
import { servedResource } from '../plugins/meta.ts';
import { risorseToccate } from '../../shared/definitions/studio/anteprima.ts';
import { listVersions, readVersion, withChanges, type Origine } from './store.ts';
import type { DefinitionFiles } from '../definitions.ts';
import { guardsWith } from '../../shared/workflow/guards.ts';
import { GESTIONE_DEFINIZIONI } from '../../shared/permissions.ts';

const FILES = {
  type: 'object',
  description: 'I file che cambiano, per percorso (schemas/... o workflows/...); null rimuove il file.',
  maxProperties: 200,
  additionalProperties: { type: ['object', 'null'] },
};
/** A draft's changed files: the body of the plan and of the preview. */
const BOZZA = { type: 'object', required: ['files'], additionalProperties: false, properties: { files: FILES } };
const MODIFICA = { type: 'object', properties: { percorso: { type: 'string' }, da: {}, a: {} } };
const DIFFERENZA = { type: 'object', properties: { file: { type: 'string' }, tipo: { type: 'string', enum: ['aggiunto', 'modificato', 'rimosso'] }, modifiche: { type: 'array', items: MODIFICA } } };
const ERRORE = { type: 'object', properties: { file: { type: 'string' }, pointer: { type: 'string' }, messaggio: { type: 'string' } } };
const PIANO = {
  type: 'object',
  properties: {
    versione: { type: 'integer' },
    differenze: { type: 'array', items: DIFFERENZA },
    lint: { type: 'object', properties: { ok: { type: 'boolean' }, errori: { type: 'array', items: ERRORE } } },
    istruzioni: { type: 'array', items: { type: 'object', properties: { sql: { type: 'string' }, righe: { type: 'integer' } } } },
    rifiuti: { type: 'array', items: { type: 'object', properties: { ...ERRORE.properties, righe: { type: 'array', items: {} } } } },
    applicabile: { type: 'boolean' },
  },
};
const VERSIONE = {
  type: 'object',
  properties: {
    n: { type: 'integer' }, origine: { type: 'string', enum: ['deploy', 'modifica', 'ripristino'] }, at: { type: 'string', format: 'date-time' },
    utente: { type: ['object', 'null'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    differenze: { type: 'array', items: DIFFERENZA }, istruzioni: { type: 'array', items: {} },
  },
};
const ESITO = { type: 'object', properties: { message: { type: 'string' }, versione: { type: 'integer' }, piano: PIANO } };
// A refused change answers its plan beside the message.
const REFUSED = { 422: { description: 'Modifica rifiutata: il piano dice perché', type: 'object', properties: { message: { type: 'string' }, code: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, piano: PIANO } } };
const NO_QUERY = { type: 'object', properties: { _t: { type: 'string', maxLength: 20 } }, additionalProperties: false };

// A draft's resources as GET /api/definitions would serve them once applied, or what keeps the draft from loading.
const ANTEPRIMA = {
  type: 'object',
  properties: {
    risorse: { type: 'array', items: { type: 'object', additionalProperties: true } },
    errori: { type: 'array', items: ERRORE },
  },
};

const NOMI = { type: 'array', items: { type: 'string' } };
const IMPLEMENTATI = { type: 'object', properties: { azioni: NOMI, guardie: { type: 'object', additionalProperties: NOMI } } };

/** What the code implements for each machine (generic guards and the domain's own, the actions): the studio's choices and its lint. */
function implementati(app: FastifyInstance) {
  const { extensions, definitions } = app.ctx;
  const guardie = Object.fromEntries([...definitions.workflows.keys()].map((m) => [m, Object.keys(guardsWith(extensions.guardsFor(m)))]));
  return { azioni: extensions.actionNames(), guardie };
}

/** Field errors of a body naming files a live change may not touch. */
function checkPaths(files: Record<string, unknown>): void {
  const bad = Object.keys(files).filter((f) => !LIVE_FILE.test(f));
  if (!bad.length) return;
  const errors = Object.fromEntries(bad.map((f) => [`files.${f}`, ['Questo file non si cambia sul sistema in funzione: è letto dal codice all\'avvio (cambialo nel repository) o non è una definizione.']]));
  throw new HttpError(422, 'I dati inseriti non sono validi.', errors);
}

/** A plan that cannot be applied, as the answer's error: the plan itself says why. */
function refused(piano: Piano): HttpError {
  const message = !piano.lint.ok ? 'Le definizioni proposte contengono errori.'
    : piano.rifiuti.length ? 'La modifica perderebbe o altererebbe dati: nulla è stato cambiato.'
      : 'Nessuna differenza rispetto alle definizioni attuali.';
  return new HttpError(422, message, undefined, { piano });
}

export default fp(async (app: FastifyInstance) => {
  const definizioni = app.ctx.definizioni;
  if (!definizioni) return;
  app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);
    const guard = requirePermission(GESTIONE_DEFINIZIONI);
    const tags = ['definizioni'];
    const base = { files: definizioni.files, versione: definizioni.versione };
    const who = (request: FastifyRequest, origine: Origine) => ({ origine, utente: request.user ? { id: request.user.id, name: request.user.name } : null });

    /** Applies `proposed` planned against `versione`, and takes the new version here before answering. */
    const apply = async (request: FastifyRequest, proposed: DefinitionFiles, versione: number, origine: Origine) => {
      if (versione !== definizioni.versione) {
        throw new HttpError(409, `Le definizioni sono alla versione ${definizioni.versione}, non ${versione}: rivedi il piano sulla versione attuale.`, undefined, undefined, 'CONFLICT');
      }
      const result = await applyChange(app.ctx.db, definizioni.domains, base, proposed, who(request, origine)).catch((error: unknown) => {
        if (error instanceof VersioneSuperata) throw new HttpError(409, error.message, undefined, undefined, 'CONFLICT');
        throw error;
      });
      if (!result.nuova) throw refused(result.piano);
      await definizioni.applied(result.nuova);
      return { message: `Definizioni applicate: versione ${result.nuova}.`, versione: result.nuova, piano: result.piano };
    };

    scoped.get('/api/definizioni', {
      preHandler: guard,
      schema: { tags, summary: 'Le definizioni servite: la versione, ogni file e le guardie e azioni che i flussi possono nominare', querystring: NO_QUERY, response: { 200: { type: 'object', properties: { versione: { type: 'integer' }, files: { type: 'object', additionalProperties: true }, implementati: IMPLEMENTATI } }, ...errorResponses(401, 403) } },
    }, async () => ({ versione: definizioni.versione, files: definizioni.files, implementati: implementati(app) }));

    scoped.post('/api/definizioni/piano', {
      preHandler: guard,
      schema: { tags, summary: 'Il piano di una modifica: lint, istruzioni con le righe toccate, rifiuti (nulla viene scritto)', body: BOZZA, response: { 200: PIANO, ...errorResponses(401, 403, 422) } },
    }, async (request) => {
      const { files } = request.body as { files: Record<string, unknown> };
      checkPaths(files);
      return planChange(app.ctx.db, definizioni.domains, base, withChanges(base.files, files));
    });

    scoped.post('/api/definizioni/anteprima', {
      preHandler: guard,
      schema: { tags, summary: 'Le risorse toccate da una bozza come saranno servite dopo la modifica (per l\'anteprima dal vivo; nulla viene scritto)', body: BOZZA, response: { 200: ANTEPRIMA, ...errorResponses(401, 403, 422) } },
    }, async (request) => {
      const { files } = request.body as { files: Record<string, unknown> };
      checkPaths(files);
      const { loaded, errori } = await lintOrErrors(withChanges(base.files, files), definizioni.domains);
      if (!loaded) return { risorse: [], errori };
      const toccate = risorseToccate(files).map((name) => loaded.definitions.resources.get(name)).filter((d) => d !== undefined);
      return { risorse: toccate.map((d) => servedResource(loaded.definitions, d, request.user)), errori };
    });

    scoped.post('/api/definizioni/applica', {
      preHandler: guard,
      schema: { tags, summary: 'Applica una modifica pianificata su ogni istanza, senza riavvio', body: { type: 'object', required: ['files', 'versione'], additionalProperties: false, properties: { files: FILES, versione: { type: 'integer', minimum: 0 } } }, response: { 200: ESITO, ...errorResponses(401, 403, 409), ...REFUSED } },
    }, async (request) => {
      const { files, versione } = request.body as { files: Record<string, unknown>; versione: number };
      checkPaths(files);
      return apply(request, withChanges(base.files, files), versione, 'modifica');
    });

    scoped.get('/api/definizioni/versioni', {
      preHandler: guard,
      schema: { tags, summary: 'Le versioni delle definizioni con le differenze, dalla più recente', querystring: { type: 'object', additionalProperties: false, properties: { page: { type: 'integer', minimum: 1, maximum: 100000 }, per_page: { type: 'integer', minimum: 1, maximum: 100 }, _t: { type: 'string', maxLength: 20 } } }, response: { 200: { type: 'object', properties: { data: { type: 'array', items: VERSIONE }, current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' } } }, ...errorResponses(401, 403) } },
    }, async (request) => {
      const { page = 1, per_page = 15 } = request.query as { page?: number; per_page?: number };
      const { data, total } = await listVersions(app.ctx.db, page, per_page);
      return { data, total, current_page: page, per_page, last_page: Math.max(1, Math.ceil(total / per_page)) };
    });

    scoped.post('/api/definizioni/versioni/:n/ripristina', {
      preHandler: guard,
      schema: { tags, summary: 'Torna alla versione n (pianificato e applicato come ogni modifica: rifiutato se perderebbe dati)', params: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1, maximum: 2147483647 } } }, body: { type: 'object', required: ['versione'], additionalProperties: false, properties: { versione: { type: 'integer', minimum: 0 } } }, response: { 200: ESITO, ...errorResponses(401, 403, 404, 409), ...REFUSED } },
    }, async (request) => {
      const { n } = request.params as { n: number };
      const target = await readVersion(app.ctx.db, n);
      if (!target) throw new HttpError(404, 'Versione non trovata.');
      return apply(request, target.files, (request.body as { versione: number }).versione, 'ripristino');
    });
  });
});

// OpenAPI 3.1 document generated from the same definitions that drive tables and validation.
import type { Definitions, JsonSchema } from '../shared/definitions/types.ts';

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function stripReadOnly(schema: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([, p]) => p.readOnly !== true));
  return { ...schema, properties };
}

export function openApiDocument(definitions: Definitions, appName: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {
    '/api/login': {
      post: {
        tags: ['auth'], summary: 'Accesso con email e password', security: [],
        requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['email', 'password'], properties: { email: { type: 'string' }, password: { type: 'string' } } } } } },
        responses: { 200: { description: 'Token, permessi, ruoli, utente' }, 422: error('Credenziali non valide'), 429: error('Troppi tentativi'), 503: error('Manutenzione') },
      },
    },
    '/api/api_logout': { get: { tags: ['auth'], summary: 'Revoca il token', responses: { 200: { description: 'ok' }, 401: error('Non autenticato') } } },
    '/api/health': { get: { tags: ['system'], security: [], summary: 'Stato del servizio', responses: { 200: { description: 'ok' }, 503: error('Database non raggiungibile') } } },
  };
  const schemas: Record<string, unknown> = {
    Error: { type: 'object', properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } },
  };
  for (const def of definitions.resources.values()) {
    const name = def.name;
    schemas[name] = { ...def.schema, properties: { ...def.schema.properties, version: { type: 'integer', readOnly: true } } };
    schemas[`${name}_input`] = stripReadOnly(def.schema);
    const ref = { $ref: `#/components/schemas/${name}` };
    const input = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}_input` } } } };
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
    const tags = [name];
    paths[def.resource.api.path] = {
      get: {
        tags, summary: `Elenco ${def.resource.title}`,
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'per_page', in: 'query', schema: { type: 'integer' } },
          { name: 'sort', in: 'query', schema: { type: 'string' }, description: 'campi separati da virgola, - per discendente' },
          { name: 'search', in: 'query', schema: { type: 'string' } },
          { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
        ],
        responses: {
          200: { description: 'Pagina', content: { 'application/json': { schema: { type: 'object', properties: { data: { type: 'array', items: ref }, current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' } } } } } },
          401: error('Non autenticato'), 403: error('Permesso mancante'), 422: error('Parametri non validi'),
        },
      },
      post: { tags, summary: `Crea ${def.resource.singular ?? name}`, requestBody: input, responses: { 201: { description: 'Creato: data.model' }, 422: error('Dati non validi'), 403: error('Permesso mancante') } },
    };
    paths[`${def.resource.api.path}/{id}`] = {
      get: { tags, parameters: [id], responses: { 200: { description: 'Record', content: { 'application/json': { schema: { type: 'object', properties: { data: ref } } } } }, 404: error('Non trovato') } },
      put: {
        tags, parameters: [id, { name: 'If-Match', in: 'header', schema: { type: 'string' } }], requestBody: input,
        responses: { 200: { description: 'Aggiornato: data.model' }, 409: error('Versione non aggiornata'), 422: error('Dati non validi'), 428: error('Versione mancante'), 404: error('Non trovato') },
      },
      delete: { tags, parameters: [id], responses: { 200: { description: 'Eliminato' }, 404: error('Non trovato'), 409: error('Record collegato ad altri dati') } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `${appName} API`, version: '1.0.0' },
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}

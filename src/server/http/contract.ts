// The HTTP contract every route inherits: Fastify validates with the same Italian ajv set-up as the
// resources, its failures and PostgreSQL's bad-value errors answer one 422 shape, and NUL characters stop at the door.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createAjv, toFieldErrors, type FieldErrors } from '../../shared/validation.ts';
import { HttpError, VALIDATION_MESSAGE, errorBody, fromBadValue, invalid } from '../errors.ts';

export const ENGINE_VALIDATED = 'x-engine-validated';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export const INT4_MAX = 2147483647;
export const NUL_MESSAGE = 'Il testo contiene caratteri non ammessi.';

/** The name a request part has in error answers when the fault is the part as a whole (never `_`). */
const PART_NAME: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/**
 * Bodies are validated without coercion (a string is not a number), with the Italian formats and keywords;
 * query strings and path parameters arrive as text and are coerced to the declared types.
 */
export function installValidator(app: FastifyInstance, placeCodes: ReadonlySet<string>): void {
  const bodyAjv = createAjv({ placeCodes });
  const textAjv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: 'array' });
  addFormats(textAjv);
  // Added, not compiled (getSchema would compile each): a schema compiles when a body that refers to it does.
  const shared = (ajv: Ajv) => {
    for (const schema of Object.values(app.getSchemas()) as Array<{ $id?: string }>) {
      if (schema.$id && !ajv.schemas[schema.$id.replace(/#$/, '')]) ajv.addSchema(schema);
    }
  };
  // Hundreds of routes share a handful of schemas (id params, list query, engine-validated bodies): each is compiled
  // once per app, not once per route, which is most of the app's start-up time otherwise.
  const compiled = new Map<string, ValidateFunction>();
  const compile = (ajv: Ajv, part: string, schema: object) => {
    const key = `${part}:${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(schema)));
    return validate;
  };
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return compile(textAjv, 'text', schema);
    shared(bodyAjv);
    // The resource engine validates these bodies itself, after aliases and normalisation, with the same messages.
    const validate = compile(bodyAjv, 'body', (schema as Record<string, unknown>)[ENGINE_VALIDATED] ? { type: 'object' } : schema);
    // No body at all is the route's business (an action without a note, a missing required body answered by the handler).
    const optional = (data: unknown) => {
      if (data === undefined || data === null) return true;
      const ok = validate(data) as boolean;
      optional.errors = validate.errors;
      return ok;
    };
    optional.errors = null as typeof validate.errors;
    return optional;
  });
  // Response schemas document the answers; they are sent as the handlers build them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** ajv errors of Fastify's validation as `{field: [messages]}` with the real field names. */
export function validationErrors(validation: ErrorObject[], context: string | undefined): FieldErrors {
  const part = PART_NAME[context ?? 'body'] ?? 'body';
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(toFieldErrors(validation))) {
    errors[field === '_' ? part : field] = messages;
  }
  if (!Object.keys(errors).length) errors[part] = ['Valore non valido.'];
  return errors;
}

export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) return reply.code(error.statusCode).send(error.body());
  const fastifyError = error as FastifyError & { validation?: ErrorObject[]; validationContext?: string };
  if (fastifyError.validation) {
    return reply.code(422).send(errorBody(422, VALIDATION_MESSAGE, validationErrors(fastifyError.validation, fastifyError.validationContext)));
  }
  const bad = fromBadValue(error);
  if (bad) return reply.code(bad.statusCode).send(bad.body());
  if (fastifyError.statusCode && fastifyError.statusCode < 500) {
    const unsupported = fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
    const message = unsupported ? 'Tipo di contenuto non supportato.' : fastifyError.statusCode === 413 ? 'Richiesta troppo grande.' : 'Richiesta non valida.';
    return reply.code(fastifyError.statusCode).send(errorBody(fastifyError.statusCode, message, unsupported || fastifyError.statusCode === 413 ? undefined : { body: [message] }));
  }
  request.log.error(error);
  return reply.code(500).send(errorBody(500, 'Errore interno del server.'));
}

/** The first value holding a NUL character, as its field path; PostgreSQL cannot store one in text. */
function findNul(value: unknown, path: string, depth = 0): string | undefined {
  if (depth > 64) return undefined;
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return here;
      const found = findNul(v, here, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Refuses NUL characters in the query, path and body before any route sees them. */
export async function refuseNul(request: FastifyRequest): Promise<void> {
  const parts: Array<[string, unknown]> = [['query', request.query], ['params', request.params], ['body', request.body]];
  for (const [part, value] of parts) {
    const field = findNul(value, '');
    if (field !== undefined) throw invalid({ [field || part]: [NUL_MESSAGE] });
  }
}

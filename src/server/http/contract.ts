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

/** A record id in a path: a positive int32 in plain decimal (no sign, spaces, leading zeros, fraction or exponent). */
const PATH_ID = /^[1-9]\d{0,9}$/;

/**
 * The one parser of numeric path ids: any other spelling names no record, so it answers the route's 404 (as an id
 * that is well formed but absent or out of scope does), never record 1 for `01` or `+1`.
 */
export function parsePathId(raw: unknown, notFound: () => Error): number {
  if (typeof raw !== 'string' || !PATH_ID.test(raw) || Number(raw) > INT4_MAX) throw notFound();
  return Number(raw);
}

/** The path schema of routes with a numeric `:id` (its shape is judged by parsePathId, to answer 404 not 422). */
export const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 20, description: 'id numerico del record' } } } as const;

/** The name a request part has in error answers when the fault is the part as a whole (never `_`). */
const PART_NAME: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/**
 * Bodies are validated without coercion (a string is not a number), with the Italian formats and keywords;
 * query strings and path parameters arrive as text and are coerced to the declared types.
 */
export function installValidator(app: FastifyInstance, placeCodes: ReadonlySet<string>): void {
  // Hundreds of routes share a handful of schemas (id params, list query, engine-validated bodies): each is compiled
  // once per app, not once per route, and only on the first request that needs it, as compiling them all (and the
  // entity schemas bodies refer to) was most of the app's start-up time otherwise.
  let bodyAjv: Ajv | undefined;
  let textAjv: Ajv | undefined;
  const bodies = () => {
    if (bodyAjv) return bodyAjv;
    bodyAjv = createAjv({ placeCodes });
    // Every route is registered by the first request: the entity schemas are all known, added and compiled when referred to.
    for (const schema of Object.values(app.getSchemas()) as Array<{ $id?: string }>) if (schema.$id) bodyAjv.addSchema(schema);
    return bodyAjv;
  };
  const texts = () => {
    if (!textAjv) addFormats((textAjv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: 'array' })));
    return textAjv;
  };
  const compiled = new Map<string, ValidateFunction>();
  const compileOnce = (ajv: () => Ajv, part: string, schema: object) => {
    const key = `${part}:${JSON.stringify(schema)}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv().compile(schema)));
    return validate;
  };
  /** Fastify reads the result and `errors` of the function a compiler returns; here it compiles on its first call. */
  const lazily = (compile: () => ValidateFunction, acceptsNothing: boolean) => {
    let validate: ValidateFunction | undefined;
    const check = (data: unknown) => {
      // Only a missing body: a JSON `null` is a value the schema judges (most refuse it, a few declare it).
      if (acceptsNothing && data === undefined) return true;
      validate ??= compile();
      const ok = validate(data) as boolean;
      check.errors = validate.errors;
      return ok;
    };
    check.errors = null as ValidateFunction['errors'];
    return check;
  };
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return lazily(() => compileOnce(texts, 'text', schema), false);
    // The resource engine validates these bodies itself, after aliases and normalisation, with the same messages.
    const bodySchema = (schema as Record<string, unknown>)[ENGINE_VALIDATED] ? { type: 'object' } : schema;
    // No body at all reaches here only on routes without an object body (defaultBody gives the others `{}`).
    return lazily(() => compileOnce(bodies, 'body', bodySchema), true);
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

/** deadlock_detected, serialization_failure, lock_not_available. */
const RETRYABLE = new Set(['40P01', '40001', '55P03']);

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
  // A transaction PostgreSQL gave up (a deadlock, a lock not granted in time: a live change of the definitions, say)
  // wrote nothing: the client may send it again.
  if (RETRYABLE.has((error as { code?: unknown }).code as string)) {
    request.log.warn(error);
    return reply.code(503).header('retry-after', '1').send(errorBody(503, 'Il sistema è momentaneamente occupato: nulla è stato salvato, riprova tra un istante.'));
  }
  request.log.error(error);
  return reply.code(500).send(errorBody(500, 'Errore interno del server.'));
}

/** A request without a body on a route that takes one is checked (and handled) as the empty object, never as undefined. */
export async function defaultBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined && (request.routeOptions.schema as { body?: unknown } | undefined)?.body) request.body = {};
}

/** Deeper JSON is refused before it is parsed: recursive code (validation, normalisation) would overflow its stack. */
export const JSON_MAX_DEPTH = 64;
export const JSON_DEPTH_MESSAGE = `Richiesta non valida: il JSON ha più di ${JSON_MAX_DEPTH} livelli annidati.`;

/** Whether a JSON text nests arrays and objects deeper than max, read once and without recursion (strings skipped). */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Fastify's own JSON parser (secure-json-parse: __proto__ and constructor.prototype refused) behind the depth limit. */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonTooDeep(body as string)) return done(new HttpError(400, JSON_DEPTH_MESSAGE, { body: [JSON_DEPTH_MESSAGE] }), undefined);
    return parse(request, body as string, done);
  });
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

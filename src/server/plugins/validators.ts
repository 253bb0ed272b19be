// Form validators as JavaScript modules (ajv standalone code): the browser imports them from 'self' instead of
// compiling schemas with new Function, so the Content-Security-Policy needs no 'unsafe-eval'.
// POST /api/validators {schema} compiles a form's schema and answers the module's address; the address is the hash of
// the code, so every instance that compiles the same schema serves the same, immutable file. Modules are kept in
// PostgreSQL, so an instance serves what another compiled. No login: the public quotation link has forms too, hence
// the limits (size, patterns only from the definitions, compilations per address). Whoever manages the definitions
// may compile any pattern: the studio previews a draft's field before its pattern is served.
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { MigrationStatement } from '../extensions.ts';
import { HttpError, invalid } from '../errors.ts';
import { enforceLimits } from './rateLimit.ts';
import { compileFormModule } from '../validation/standalone.ts';
import { userForToken } from '../auth/service.ts';
import { bearer } from './auth.ts';
import { GESTIONE_DEFINIZIONI, hasPermission } from '../../shared/permissions.ts';
import type { JsonSchema } from '../../shared/definitions/types.ts';

export const VALIDATOR_TABLES: MigrationStatement[] = [
  `CREATE TABLE IF NOT EXISTS validator_module (
     key text PRIMARY KEY, code text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
];

const MAX_BODY = 512 * 1024;
const MAX_DEPTH = 40;
const MAX_MODULES = 5000;
const MEMORY_MODULES = 200;
// Keywords that reach outside the schema or change how ajv compiles it: the definitions inline their $refs.
const REFUSED_KEYWORDS = new Set(['$ref', '$id', '$schema', '$async', '$data', '$dynamicRef', '$recursiveRef', '$anchor', '$dynamicAnchor']);
const SCHEMA_MESSAGE = 'Schema del modulo non accettato.';
const UNDECLARED_PATTERN = 'Espressione regolare non prevista dalle definizioni.';

const KEY = { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^[0-9a-f]{32}\\.js$' } } };

/** Every regular expression the definitions declare (pattern, patternProperties): the only ones a form may compile. */
function declaredPatterns(value: unknown, out = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (typeof value !== 'object' || value === null || seen.has(value)) return out;
  seen.add(value);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  for (const [key, child] of entries) {
    if (key === 'pattern' && typeof child === 'string') out.add(child);
    if (key === 'patternProperties' && typeof child === 'object' && child) Object.keys(child).forEach((p) => out.add(p));
    declaredPatterns(child, out, seen);
  }
  return out;
}

/** The first reason a posted schema may not be compiled, as an Italian message; undefined when it may. */
function refusal(node: unknown, patterns: Set<string> | 'any', depth = 0): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if (depth > MAX_DEPTH) return 'Schema troppo annidato.';
  const declared = (p: string) => patterns === 'any' || patterns.has(p);
  for (const [key, child] of Object.entries(node)) {
    if (REFUSED_KEYWORDS.has(key)) return `La parola chiave ${key} non è ammessa.`;
    if (key === 'pattern' && typeof child === 'string' && !declared(child)) return UNDECLARED_PATTERN;
    if (key === 'patternProperties' && typeof child === 'object' && child && Object.keys(child).some((p) => !declared(p))) {
      return UNDECLARED_PATTERN;
    }
    const inner = refusal(child, patterns, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

export default fp(async (app: FastifyInstance) => {
  const { db, definitions } = app.ctx;
  const patterns = declaredPatterns(definitions);
  // Recently used modules, by code key, and the code key of recently compiled schemas.
  const modules = new Map<string, string>();
  const compiled = new Map<string, string>();
  const remember = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > MEMORY_MODULES) map.delete(map.keys().next().value!);
  };

  const analyst = async (request: FastifyRequest) => {
    const token = bearer(request);
    const user = token ? await userForToken(db, token, app.ctx.cache) : undefined;
    return hasPermission(GESTIONE_DEFINIZIONI, user);
  };

  app.post('/api/validators', {
    bodyLimit: MAX_BODY,
    schema: {
      tags: ['system'],
      summary: 'Compila lo schema di un modulo in codice di validazione (senza eval nel browser)',
      body: { type: 'object', additionalProperties: false, required: ['schema'], properties: { schema: { type: 'object' } } },
      response: { 200: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
    },
  }, async (request, reply) => {
    const { schema } = request.body as { schema: JsonSchema };
    const text = JSON.stringify(schema);
    const schemaKey = createHash('sha256').update(text).digest('hex');
    let key = compiled.get(schemaKey);
    if (!key) {
      let problem = refusal(schema, patterns);
      // Only a schema with a pattern not served yet asks who is calling (the studio's preview of a draft).
      if (problem === UNDECLARED_PATTERN && (await analyst(request))) problem = refusal(schema, 'any');
      if (problem) throw invalid({ schema: [problem] }, SCHEMA_MESSAGE);
      // Compiling costs CPU: counted per address, like the other public routes.
      await enforceLimits(db, reply, [{ key: `validators:ip:${request.ip}`, max: app.ctx.config.VALIDATORS_RATE_LIMIT, windowSeconds: 600 }]);
      let code: string;
      try {
        code = compileFormModule(schema);
      } catch (error) {
        request.log.warn({ err: error }, 'form validator not compiled');
        throw invalid({ schema: [SCHEMA_MESSAGE] }, SCHEMA_MESSAGE);
      }
      key = createHash('sha256').update(code).digest('hex').slice(0, 32);
      await sql`INSERT INTO validator_module (key, code) VALUES (${key}, ${code}) ON CONFLICT (key) DO NOTHING`.execute(db);
      // A rare sweep keeps the table bounded without a scheduler; a swept module is compiled again on request.
      if (Math.random() < 0.01) {
        await sql`DELETE FROM validator_module WHERE key IN (SELECT key FROM validator_module ORDER BY created_at DESC OFFSET ${MAX_MODULES})`.execute(db);
      }
      remember(modules, key, code);
      remember(compiled, schemaKey, key);
    }
    reply.header('cache-control', 'no-store');
    return { url: `/api/validators/${key}.js` };
  });

  app.get('/api/validators/:key', {
    schema: { tags: ['system'], summary: 'Codice di validazione di un modulo (JavaScript)', params: KEY },
  }, async (request, reply) => {
    const key = (request.params as { key: string }).key.replace(/\.js$/, '');
    let code = modules.get(key);
    if (code === undefined) {
      code = (await sql<{ code: string }>`SELECT code FROM validator_module WHERE key = ${key}`.execute(db)).rows[0]?.code;
      if (code === undefined) throw new HttpError(404, 'Codice di validazione non trovato.');
      remember(modules, key, code);
    }
    // The address is the code's hash: the file never changes.
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.type('text/javascript; charset=utf-8');
    return code;
  });
});

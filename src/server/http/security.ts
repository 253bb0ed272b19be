// Security headers on every answer (helmet), with a Content-Security-Policy the built app runs under:
// scripts only from the app's own files (no inline script); styles also inline (AG Grid and the charts inject theirs at run time).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  // No 'unsafe-eval': the forms' validators are compiled by the server (ajv standalone, /api/validators) and imported.
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  // Documents (PDF) shown in a frame come from the app or from memory.
  'frame-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const HELMET_OPTIONS: HelmetOptions = {
  // No upgrade-insecure-requests: the app is also served over plain HTTP on a LAN or 127.0.0.1.
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  referrerPolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets, worked out once: with no nonce they depend on nothing in the request, and building them per
 * request (as @fastify/helmet does, parsing the options each time) was a measurable share of a get by id.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => { headers[name.toLowerCase()] = String(value); },
    removeHeader: (name: string) => { delete headers[name.toLowerCase()]; },
  };
  let applied = false;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    applied = true;
  });
  if (!applied) throw new Error('helmet did not apply its headers synchronously');
  return headers;
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders();
  limitAnonymousBodies(app);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // A request refused before its body was read (an upload refused at its first part): Node only discards the rest of a
  // body nobody started reading, so the socket stalled behind this one and the next request on the same keep-alive
  // connection waited for a timeout. The connection is closed after this answer instead, so the client opens a new one.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete === false) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** The largest body a request without a session may send (login, the customer's link, any unknown path). */
export const ANONYMOUS_BODY_LIMIT = 64 * 1024;

const tooLarge = () => new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();

/** Whether the route chose its own limit (bodyLimit in its options): the compiled validators' schemas, say. */
function ownLimit(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { ownBodyLimit?: boolean } | undefined)?.ownBodyLimit === true;
}

/**
 * The app's bodyLimit (10 MB) is for signed-in users: authentication runs onRequest, so a request without a valid token
 * is refused before its body is read, and only a request with a session reaches parsing. Every other one (login, the
 * public routes, an unknown path) may send ANONYMOUS_BODY_LIMIT at most, unless its route set its own bodyLimit:
 * 60 bodies of 9 MB without a token had taken the server from 230 MB to over 1 GB. Multipart uploads stream under
 * their own limits.
 */
export function limitAnonymousBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) route.config = { ...(route.config as object | undefined), ownBodyLimit: true } as typeof route.config;
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if ((request as { user?: unknown }).user || ownLimit(request) || request.headers['content-type']?.startsWith('multipart/')) return done(null, payload);
    if (Number(request.headers['content-length']) > ANONYMOUS_BODY_LIMIT) return done(tooLarge());
    // No length given (chunked): counted as it arrives.
    let received = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        received += chunk.length;
        next(received > ANONYMOUS_BODY_LIMIT ? tooLarge() : null, chunk);
      },
    });
    payload.on('error', (error) => counted.destroy(error));
    done(null, payload.pipe(counted));
  });
}

// Security headers on every answer (@fastify/helmet), with a Content-Security-Policy the built app runs under:
// scripts only from the app's own files (no inline script); styles also inline (AG Grid and the charts inject theirs at run time).
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  // 'unsafe-eval': the forms validate with ajv in the browser, which compiles each schema with new Function.
  // Removing it needs validators precompiled at build time (ajv standalone); no inline script is allowed either way.
  'script-src': ["'self'", "'unsafe-eval'"],
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

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    // No upgrade-insecure-requests: the app is also served over plain HTTP on a LAN or 127.0.0.1.
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    referrerPolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
}

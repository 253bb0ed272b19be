// Route guards for custom routes: the same permission expressions as resource.json ('a|b', 'a&b').
import type { preHandlerHookHandler } from 'fastify';
import { hasPermission } from '../../shared/permissions.ts';
import { forbidden } from '../errors.ts';

/** preHandler refusing with 403 unless the authenticated user satisfies the expression; a callback, as it never waits. */
export function requirePermission(expression: string): preHandlerHookHandler {
  return (request, _reply, done) => done(hasPermission(expression, request.user) ? undefined : forbidden());
}

// Route guards for custom routes: the same permission expressions as resource.json ('a|b', 'a&b').
import type { FastifyRequest } from 'fastify';
import { hasPermission } from '../../shared/permissions.ts';
import { forbidden } from '../errors.ts';

/** preHandler refusing with 403 unless the authenticated user satisfies the expression. */
export function requirePermission(expression: string) {
  return async (request: FastifyRequest) => {
    if (!hasPermission(expression, request.user)) throw forbidden();
  };
}

// Fixed-window request limits kept in PostgreSQL, so every app instance behind a load balancer counts the same hits.
import { sql } from 'kysely';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Database } from '../db/connection.ts';
import { HttpError } from '../errors.ts';
import type { MigrationStatement } from '../extensions.ts';

/** Its tables, created by the engine's migration step (db/domain-migrations.ts). */
export const RATE_LIMIT_TABLES: MigrationStatement[] = [
  `CREATE TABLE IF NOT EXISTS rate_limit (
     key text NOT NULL, window_start timestamptz NOT NULL, hits integer NOT NULL DEFAULT 0,
     PRIMARY KEY (key, window_start))`,
];

export const RATE_LIMIT_MESSAGE = 'Troppe richieste. Riprova tra qualche minuto.';

export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

// The keys already counted for a request: a route may name the limit its scope's onRequest hook counted already.
const counted = new WeakMap<FastifyRequest, Set<string>>();

/** Counts one hit on every key; 429 with Retry-After when any key is over its limit (the hit still counts). */
export async function enforceLimits(db: Database, reply: FastifyReply, limits: Limit[]): Promise<void> {
  let seen = counted.get(reply.request);
  if (!seen) counted.set(reply.request, (seen = new Set()));
  for (const limit of limits) {
    if (seen.has(limit.key)) continue;
    seen.add(limit.key);
    const row = (await sql<{ hits: number; retry: number }>`
      INSERT INTO rate_limit (key, window_start, hits)
      VALUES (${limit.key}, to_timestamp(floor(extract(epoch FROM now()) / ${limit.windowSeconds}) * ${limit.windowSeconds}), 1)
      ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit.hits + 1
      RETURNING hits, ceil(extract(epoch FROM window_start + make_interval(secs => ${limit.windowSeconds}) - now()))::int AS retry`.execute(db)).rows[0]!;
    if (row.hits > limit.max) {
      reply.header('retry-after', String(Math.max(1, row.retry)));
      throw new HttpError(429, RATE_LIMIT_MESSAGE);
    }
  }
  // Old windows are of no use; a rare sweep keeps the table small without a scheduler.
  if (Math.random() < 0.01) await sql`DELETE FROM rate_limit WHERE window_start < now() - interval '1 day'`.execute(db);
}

/** What every public route (the customer's link, its autocomplete) allows one address: PUBLIC_RATE_LIMIT_IP per window. */
export function publicAddressLimit(request: FastifyRequest): Limit {
  const { config } = request.server.ctx;
  return { key: `pubblico:ip:${request.ip}`, max: config.PUBLIC_RATE_LIMIT_IP, windowSeconds: config.PUBLIC_RATE_LIMIT_WINDOW };
}

/**
 * onRequest hook of the public routes: the per-address limit is counted before the body is read, so a flood is refused
 * for the price of one statement, not after parsing what it sent. Routes naming the same limit are not counted twice.
 */
export const limitPublicRequests: onRequestHookHandler = async function (request, reply) {
  await enforceLimits(request.server.ctx.db, reply, [publicAddressLimit(request)]);
};

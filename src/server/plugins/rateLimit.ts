// Request limits kept in PostgreSQL, so every app instance behind a load balancer counts the same hits.
// Sliding window: this window's hits plus the previous window's weighted by the part of it still inside the last
// windowSeconds, so crossing a window boundary neither forgets a flood nor lets through twice the limit.
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
      WITH counted AS (
        INSERT INTO rate_limit (key, window_start, hits)
        VALUES (${limit.key}, to_timestamp(floor(extract(epoch FROM now()) / ${limit.windowSeconds}) * ${limit.windowSeconds}), 1)
        ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit.hits + 1
        RETURNING hits, window_start)
      SELECT counted.hits + coalesce(previous.hits, 0)
               * (1 - extract(epoch FROM now() - counted.window_start) / ${limit.windowSeconds}) AS hits,
             ceil(extract(epoch FROM counted.window_start + make_interval(secs => ${limit.windowSeconds}) - now()))::int AS retry
      FROM counted LEFT JOIN rate_limit previous
        ON previous.key = ${limit.key} AND previous.window_start = counted.window_start - make_interval(secs => ${limit.windowSeconds})`.execute(db)).rows[0]!;
    if (Number(row.hits) > limit.max) {
      reply.header('retry-after', String(Math.max(1, row.retry)));
      throw new HttpError(429, RATE_LIMIT_MESSAGE);
    }
  }
  // Old windows are of no use; a rare sweep keeps the table small without a scheduler.
  if (Math.random() < 0.01) await sql`DELETE FROM rate_limit WHERE window_start < now() - interval '2 days'`.execute(db);
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

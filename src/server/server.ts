// Starts the whole back office: database (embedded or DATABASE_URL), migration, first admin, HTTP server.
import { logSerializers } from './http/logging.ts';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startEmbedded, type EmbeddedServer } from './db/embedded.ts';
import { buildApp } from './app.ts';
import { mediaSettings } from './media/store.ts';
import { ensureAdmin, loadAllFiles, prepareDefinitions, type PreparedDefinitions } from './bootstrap.ts';
import { readDefinitionFiles, type DefinitionFiles } from './definitions.ts';
import { DefinitionsHost } from './definizioni/host.ts';
import { connect, poolOf, type Connection } from './db/connection.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import { loadConfig, type Config } from './config.ts';
import type { Domain } from './extensions.ts';

export interface RunningDatabase {
  connection: Connection;
  definitions: Definitions;
  /** The domain plugins the database was prepared for; buildApp takes the same. */
  domains: readonly Domain[];
  /** The definitions set served (the disk's on a deploy, else the newest version in the database) and its version. */
  files: DefinitionFiles;
  versione: number;
  stop(): Promise<void>;
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Where start-up time goes, printed as one line once the server listens. */
export class StartupTimer {
  private readonly steps: string[] = [];
  private last = performance.now();
  // performance.now() counts from this process's start: the first step is loading the code itself.
  private readonly first = 0;
  constructor() {
    this.add('process and code loading', this.last);
  }
  /** Records the time since the previous lap under `name`. */
  lap(name: string, note?: string): void {
    const now = performance.now();
    this.add(name, now - this.last, note);
    this.last = now;
  }
  add(name: string, ms: number, note?: string): void {
    this.steps.push(`${name} ${Math.round(ms)} ms${note ? ` (${note})` : ''}`);
  }
  resync(): void {
    this.last = performance.now();
  }
  line(): string {
    return `start-up ${Math.round(performance.now() - this.first)} ms: ${this.steps.join(', ')}`;
  }
}

/** Where the embedded database and, by default, the files live. */
export const dataDirOf = (config: Config) => path.resolve(config.DATA_DIR ?? path.join(PROJECT_ROOT, 'data'));

/** Connects to DATABASE_URL, or starts the embedded server under DATA_DIR; nothing is migrated (the definitions scripts read it as it is). */
export async function connectDatabase(config: Config, log: (line: string) => void = console.log, timer = new StartupTimer()): Promise<{ connection: Connection; embedded?: EmbeddedServer; stop(): Promise<void> }> {
  let embedded: EmbeddedServer | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    const dataDir = dataDirOf(config);
    embedded = await startEmbedded(path.join(dataDir, 'db'), { log: config.PG_LOG ? log : undefined, port: config.EMBEDDED_PG_PORT });
    url = embedded.url;
    log(`embedded PostgreSQL running for ${dataDir}`);
    timer.lap('database start');
  }
  const connection = connect(url, config.DB_POOL_SIZE);
  return {
    connection,
    embedded,
    stop: async () => {
      await connection.close();
      await embedded?.stop();
    },
  };
}

/** Opens the database named by DATABASE_URL, or starts the embedded one under DATA_DIR, and brings it up to the definitions. */
export async function openDatabase(domains: readonly Domain[], config: Config = loadConfig(), log: (line: string) => void = console.log, timer = new StartupTimer()): Promise<RunningDatabase> {
  const schemasDir = path.resolve(config.SCHEMAS_DIR ?? path.join(PROJECT_ROOT, 'schemas'));
  const disk = await readDefinitionFiles(schemasDir);
  // The disk set must be sound before anything starts, whichever set is then served.
  loadAllFiles(disk);
  timer.lap('definitions');
  const { connection, embedded } = await connectDatabase(config, log, timer);
  let prepared: PreparedDefinitions;
  try {
    timer.resync();
    prepared = await prepareDefinitions(connection.db, disk, domains, (name, ms, note) => timer.add(name, ms, note));
    const report = prepared.report;
    timer.resync();
    log(`definitions version ${prepared.versione}${prepared.files === disk ? '' : ' (changed live after the last deploy: npm run definitions:export brings them to git)'}`);
    if (report.created.length) log(`tables created: ${report.created.join(', ')}`);
    // On a fresh database every column is new: name them only when an existing table grew.
    const grown = report.added.filter((c) => !report.created.includes(c.split('.')[0]!));
    if (grown.length) log(`columns added: ${grown.join(', ')}`);
    for (const [what, list] of [['renamed', report.renamed], ['converted', report.converted], ['filled with the default', report.filled], ['dropped', report.dropped], ['migrations applied', report.migrations]] as const) {
      if (list.length) log(`${what}: ${list.join(', ')}`);
    }
    for (const warning of report.warnings) log(`warning: ${warning}`);
    await ensureAdmin(connection.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, log, config.ADMIN_MFA_ESENTE);
    timer.lap('first admin');
  } catch (error) {
    await connection.close();
    await embedded?.stop();
    throw error;
  }
  return {
    connection,
    definitions: prepared.definitions,
    files: prepared.files,
    versione: prepared.versione,
    domains,
    stop: async () => {
      await connection.close();
      await embedded?.stop();
    },
  };
}

export interface RunningServer {
  /** The app of the definitions served now (a live change replaces it). */
  readonly app: FastifyInstance;
  host: DefinitionsHost;
  url: string;
  database: RunningDatabase;
  close(): Promise<void>;
}

/** `domains`: the list of src/server/domains/index.ts, and `config`, read from the environment once: both given by main.ts. */
export async function startServer(domains: readonly Domain[], config: Config, timer = new StartupTimer()): Promise<RunningServer> {
  const database = await openDatabase(domains, config, console.log, timer);
  if (config.SEED_DEMO) {
    const { seedDemo } = await import('./seed/demo.ts');
    await seedDemo(database.connection.db, console.log, mediaSettings(config));
    timer.lap('demo data');
  }
  const appConfig = { ...config, staticDir: path.resolve(config.STATIC_DIR ?? path.join(PROJECT_ROOT, 'dist')) };
  const logger = config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL, serializers: logSerializers };
  const db = database.connection.db;
  const host = await DefinitionsHost.start({
    db,
    listen: poolOf(db)?.options,
    set: { files: database.files, versione: database.versione },
    // Each version's whole app, from its files (the first from the start's, already compiled).
    build: async (set, applied) => buildApp({
      domains, db, config: appConfig, logger, definizioni: { ...set, applied },
      definitions: set.files === database.files ? database.definitions : loadAllFiles(set.files).definitions,
    }),
    log: (line) => console.log(line),
  });
  timer.lap('app build');
  const port = config.PORT;
  const hostName = config.HOST;
  if (!host.app.ctx.config.SMTP_URL) host.app.log.info('SMTP_URL not set: e-mails are kept in the outbox (Email in uscita)');
  // Every instance ticks: a due time is run by one of them (SCHEDULER_TICK_MS=0: this one runs none). The tick follows
  // the app of the definitions served, whose schedules it runs.
  let stopScheduler = config.SCHEDULER_TICK_MS > 0 ? host.app.ctx.scheduler.start(config.SCHEDULER_TICK_MS) : () => {};
  host.onSwap = (next) => {
    if (config.SCHEDULER_TICK_MS <= 0) return;
    stopScheduler();
    stopScheduler = next.ctx.scheduler.start(config.SCHEDULER_TICK_MS);
  };
  await new Promise<void>((resolve, reject) => {
    host.server.once('error', reject);
    host.server.listen(port, hostName, () => resolve());
  });
  const url = `http://${hostName}:${(host.server.address() as { port: number }).port}`;
  timer.lap('listen');
  console.log(`listening on ${url}`);
  console.log(timer.line());
  return {
    get app() {
      return host.app;
    },
    host,
    url,
    database,
    close: async () => {
      stopScheduler();
      await host.close();
      await database.stop();
    },
  };
}

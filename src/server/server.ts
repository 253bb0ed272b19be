// Starts the whole back office: database (embedded or DATABASE_URL), migration, first admin, HTTP server.
import { logSerializers } from './http/logging.ts';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { connect, type Connection } from './db/connection.ts';
import { startEmbedded, type EmbeddedServer } from './db/embedded.ts';
import { buildApp } from './app.ts';
import { mediaSettings } from './media/store.ts';
import { startDelivery } from './mail/outbox.ts';
import { ensureAdmin, loadAll, prepareDatabase } from './bootstrap.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import { loadConfig, type Config } from './config.ts';
import type { Domain } from './extensions.ts';

export interface RunningDatabase {
  connection: Connection;
  definitions: Definitions;
  /** The domain plugins the database was prepared for; buildApp takes the same. */
  domains: readonly Domain[];
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

/** Opens the database named by DATABASE_URL, or starts the embedded one under DATA_DIR, and brings it up to the definitions. */
export async function openDatabase(domains: readonly Domain[], config: Config = loadConfig(), log: (line: string) => void = console.log, timer = new StartupTimer()): Promise<RunningDatabase> {
  const schemasDir = path.resolve(config.SCHEMAS_DIR ?? path.join(PROJECT_ROOT, 'schemas'));
  const { definitions, roles } = await loadAll(schemasDir);
  timer.lap('definitions');
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
  try {
    timer.resync();
    const report = await prepareDatabase(connection.db, definitions, roles, domains, (name, ms, note) => timer.add(name, ms, note));
    timer.resync();
    if (report.created.length) log(`tables created: ${report.created.join(', ')}`);
    // On a fresh database every column is new: name them only when an existing table grew.
    const grown = report.added.filter((c) => !report.created.includes(c.split('.')[0]!));
    if (grown.length) log(`columns added: ${grown.join(', ')}`);
    for (const [what, list] of [['renamed', report.renamed], ['converted', report.converted], ['filled with the default', report.filled], ['dropped', report.dropped], ['migrations applied', report.migrations]] as const) {
      if (list.length) log(`${what}: ${list.join(', ')}`);
    }
    for (const warning of report.warnings) log(`warning: ${warning}`);
    await ensureAdmin(connection.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD, log);
    timer.lap('first admin');
  } catch (error) {
    await connection.close();
    await embedded?.stop();
    throw error;
  }
  return {
    connection,
    definitions,
    domains,
    stop: async () => {
      await connection.close();
      await embedded?.stop();
    },
  };
}

export interface RunningServer {
  app: FastifyInstance;
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
  const app = await buildApp({
    domains,
    db: database.connection.db,
    definitions: database.definitions,
    config: { ...config, staticDir: path.resolve(config.STATIC_DIR ?? path.join(PROJECT_ROOT, 'dist')) },
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL, serializers: logSerializers },
  });
  timer.lap('app build');
  const port = config.PORT;
  const host = config.HOST;
  const stopDelivery = startDelivery(database.connection.db, app.ctx.config, (line) => app.log.info(line));
  app.addHook('onClose', async () => stopDelivery());
  // Every instance ticks: a due time is run by one of them (SCHEDULER_TICK_MS=0: this one runs none).
  const stopScheduler = config.SCHEDULER_TICK_MS > 0 ? app.ctx.scheduler.start(config.SCHEDULER_TICK_MS) : () => {};
  app.addHook('onClose', async () => stopScheduler());
  await app.listen({ port, host });
  const url = `http://${host}:${(app.server.address() as { port: number }).port}`;
  timer.lap('listen');
  console.log(`listening on ${url}`);
  console.log(timer.line());
  return {
    app,
    url,
    database,
    close: async () => {
      await app.close();
      await database.stop();
    },
  };
}

// The app in a process of its own, so a benchmark's memory figures are the server's alone: forkServer() in the
// benchmark, and this same file as the child (BENCH_SERVE=1), answering 'reset', 'report' and 'stop' over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface ServerReport {
  port?: number;
  /** RSS after 'reset' (after a GC when the child runs with --expose-gc). */
  rss?: number;
  /** The highest RSS sampled since 'reset'. */
  peakRss?: number;
  /** The kernel's maxRSS over the whole process life: catches what falls between samples. */
  maxRss?: number;
}

export interface ForkedServer {
  child: ChildProcess;
  port: number;
  ask(message: 'reset' | 'report'): Promise<ServerReport>;
  stop(): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);

/** Starts the server on `env` (DATABASE_URL, ADMIN_EMAIL, ...: read by the child's loadConfig) and waits for its port. */
export async function forkServer(env: Record<string, string>, options: { exposeGc?: boolean } = {}): Promise<ForkedServer> {
  const child = fork(SELF, [], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env, BENCH_SERVE: '1' },
    execArgv: [...process.execArgv, ...(options.exposeGc ? ['--expose-gc'] : [])],
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (message: string) => new Promise<ServerReport>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ServerReport));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    if (message) child.send(message);
  });
  const ready = await ask('');
  return {
    child,
    port: ready.port!,
    ask,
    async stop() {
      if (child.exitCode !== null) return;
      child.send('stop');
      await once(child, 'exit');
    },
  };
}

async function serve(): Promise<void> {
  const { loadConfig } = await import('../../src/server/config.ts');
  const { openDatabase } = await import('../../src/server/server.ts');
  const { buildApp } = await import('../../src/server/app.ts');
  const { domains } = await import('../../src/server/domains/index.ts');
  const config = loadConfig(process.env);
  const database = await openDatabase(domains, config, () => undefined);
  const app = await buildApp({ domains, db: database.connection.db, definitions: database.definitions, config, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  let peak = process.memoryUsage().rss;
  setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5).unref();
  process.on('message', async (message) => {
    if (message === 'reset') {
      global.gc?.();
      peak = process.memoryUsage().rss;
      process.send!({ rss: peak });
    } else if (message === 'report') {
      process.send!({ peakRss: Math.max(peak, process.memoryUsage().rss), maxRss: process.resourceUsage().maxRSS * 1024 });
    } else if (message === 'stop') {
      await app.close();
      await database.stop();
      process.exit(0);
    }
  });
  process.send!({ port: (app.server.address() as { port: number }).port });
}

if (process.env.BENCH_SERVE === '1') await serve();

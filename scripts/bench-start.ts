// npm run bench:start — cold start of `npm start` on an initialised data dir: time from spawning to a healthy
// /api/health, with the server's own line saying where the time went (database start, migration check, reference data, listen).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { recordFigure } from './bench/lib.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_START_RUNS) || 3;
const TARGET_MS = 3000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Start {
  child: ChildProcess;
  healthyMs: number;
  output: string;
}

/** `npm start` is `node scripts/start.js`: the same command, without npm's own start-up in front of it. */
async function start(env: NodeJS.ProcessEnv, port: number, limitMs: number): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (performance.now() - t0 > limitMs) {
      child.kill('SIGKILL');
      throw new Error(`not healthy within ${limitMs} ms:\n${output}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status === 200, () => false);
    if (ok) return { child, healthyMs: performance.now() - t0, output };
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-start-'));
await chmod(dataDir, 0o755);
let exitCode = 0;
let running: ChildProcess | undefined;
try {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-password-1234', ADMIN_MFA_ESENTE: '1' };
  delete env.DATABASE_URL;
  // First start: creates the database, the tables and the reference data (and builds dist/ and dist-server/ if stale).
  const first = await start(env, port, 600_000);
  running = first.child;
  console.log(`initialising start: healthy after ${Math.round(first.healthyMs)} ms`);
  console.log(`  ${first.output.split('\n').find((l) => l.startsWith('start-up')) ?? '(no start-up line)'}`);
  await stop(first.child);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await start(env, port, 60_000);
    running = run.child;
    times.push(run.healthyMs);
    console.log(`cold start ${i + 1}: healthy after ${Math.round(run.healthyMs)} ms`);
    console.log(`  ${run.output.split('\n').find((l) => l.startsWith('start-up')) ?? '(no start-up line)'}`);
    await stop(run.child);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, ${os.cpus().length} cores`);
  recordFigure('start', { figure: 'cold start to healthy, median', value: Math.round(median), unit: 'ms', target: `< ${TARGET_MS} ms`, met: median < TARGET_MS });
  recordFigure('start', { figure: 'cold start to healthy, worst', value: Math.round(times[times.length - 1]!), unit: 'ms', target: `< ${TARGET_MS} ms`, met: times[times.length - 1]! < TARGET_MS });
} catch (error) {
  console.error(`bench failed: ${(error as Error).stack ?? error}`);
  exitCode = 1;
} finally {
  if (running) await stop(running).catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

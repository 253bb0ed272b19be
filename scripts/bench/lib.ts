// Shared by the scripts/bench-*.ts benchmarks: seeded randomness, closed-loop runners (in-thread and an HTTP worker), percentiles,
// and the setup they all need (a throw-away database, the real app on 127.0.0.1, login, ordered cleanup).
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type RunningDatabase } from '../../src/server/server.ts';
import { loadConfig } from '../../src/server/config.ts';
import { buildApp } from '../../src/server/app.ts';
import { domains } from '../../src/server/domains/index.ts';
import { tuneRuntime } from '../../src/server/runtime.ts';

export interface RunResult {
  /** Latency of each completed measured request, in ms, in completion order. */
  latencies: Float64Array;
  /** Wall time of the measured part, in ms. */
  elapsedMs: number;
  /** Requests that failed (exception or non-200); they are not in `latencies`. */
  errors: number;
  /** True when the time cap stopped the phase before the requested count. */
  capped: boolean;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  perSecond: number;
  errors: number;
  capped: boolean;
}

/** Deterministic PRNG (mulberry32), so the API and the raw side get the very same pages, ids and terms. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(run: RunResult): Summary {
  const sorted = Float64Array.from(run.latencies).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    mean: sorted.length ? sum / sorted.length : NaN,
    perSecond: run.elapsedMs > 0 ? (sorted.length / run.elapsedMs) * 1000 : NaN,
    errors: run.errors,
    capped: run.capped,
  };
}

export interface PhaseOptions {
  concurrency: number;
  warmup: number;
  requests: number;
  /** Caps on wall time so a slow scenario cannot blow the run's time budget; the achieved n is reported. */
  warmupMaxMs: number;
  maxMs: number;
}

/**
 * Closed loop: `concurrency` lanes, each starting its next task as soon as its previous one ends.
 * Task i of the measured part is task(warmup + i), so both sides see the same inputs in the same order.
 */
export async function closedLoop(opts: PhaseOptions, task: (i: number) => Promise<boolean>): Promise<RunResult> {
  const phase = async (offset: number, count: number, limitMs: number, record: boolean): Promise<RunResult> => {
    const latencies = new Float64Array(count);
    let next = 0;
    let done = 0;
    let errors = 0;
    let capped = false;
    const started = performance.now();
    const lane = async () => {
      while (next < count) {
        if (performance.now() - started > limitMs) {
          capped = true;
          return;
        }
        const i = next++;
        const t0 = performance.now();
        let ok: boolean;
        try {
          ok = await task(offset + i);
        } catch {
          ok = false;
        }
        const dt = performance.now() - t0;
        if (!ok) errors++;
        else if (record) latencies[done++] = dt;
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, lane));
    return { latencies: latencies.slice(0, done), elapsedMs: performance.now() - started, errors, capped };
  };
  await phase(0, opts.warmup, opts.warmupMaxMs, false);
  return phase(opts.warmup, opts.requests, opts.maxMs, true);
}

// The HTTP load generator runs in its own thread: sharing the server's event loop would bill the client's
// work (request writing, response parsing) to the API and serialise the two at concurrency 8.
// It is a minimal keep-alive HTTP/1.1 client (as autocannon or wrk are), not node:http: on 2 cores the client's
// own CPU and garbage collection compete with the server and PostgreSQL, and would be counted as the API's latency.
// Plain JS evaluated in the worker, so it needs no TypeScript loader there.
const HTTP_WORKER_SOURCE = `
const net = require('node:net');
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const HEAD_END = Buffer.from('\\r\\n\\r\\n');

// One connection, one request at a time: send(path) answers true for a complete 200 answer, false for anything else.
function connection(host, port, token) {
  const prefix = ' HTTP/1.1\\r\\nhost: ' + host + ':' + port + '\\r\\nauthorization: Bearer ' + token + '\\r\\naccept: application/json\\r\\n\\r\\n';
  let socket = null;
  let pending = null;
  let buf = null;
  const finish = (ok) => {
    const resolve = pending;
    pending = null;
    buf = null;
    if (resolve) resolve(ok);
  };
  const open = () => {
    socket = net.connect({ host, port });
    socket.setNoDelay(true);
    // A hung request counts as a failure instead of hanging the whole bench.
    socket.setTimeout(30000, () => socket.destroy(new Error('timeout')));
    const s = socket;
    s.on('data', (data) => {
      buf = buf ? Buffer.concat([buf, data]) : data;
      const answer = parse(buf);
      if (answer === null) return;
      if (answer.close || answer === false) { s.destroy(); if (socket === s) socket = null; }
      finish(answer !== false && answer.status === 200);
    });
    s.on('error', () => {});
    s.on('close', () => { if (socket === s) { socket = null; finish(false); } });
  };
  const send = (path) => new Promise((resolve) => {
    if (!socket) open();
    pending = resolve;
    buf = null;
    socket.write('GET ' + path + prefix, 'latin1');
  });
  return { send };
}

// A whole answer in buf: { status, close }; null while incomplete; false if it cannot be read.
function parse(buf) {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return null;
  const head = buf.latin1Slice(0, end).toLowerCase();
  const status = Number(head.slice(9, 12));
  const close = head.includes('\\r\\nconnection: close');
  const length = /\\r\\ncontent-length: *(\\d+)/.exec(head);
  let at = end + 4;
  if (length) return buf.length >= at + Number(length[1]) ? { status, close } : null;
  if (!/\\r\\ntransfer-encoding: *chunked/.test(head)) return false;
  for (;;) {
    const eol = buf.indexOf('\\r\\n', at, 'latin1');
    if (eol < 0) return null;
    const size = parseInt(buf.latin1Slice(at, eol), 16);
    if (!(size >= 0)) return false;
    if (size === 0) return buf.length >= eol + 4 ? { status, close } : null;
    at = eol + 2 + size + 2;
    if (buf.length < at) return null;
  }
}

// Connections outlive a job: a bench alternating short runs would otherwise pay a new connection at the start of each.
const connections = new Map();
parentPort.on('message', async (job) => {
  let rr = 0;
  // Lane i keeps connection i to each port. Several ports: the requests go round-robin,
  // as a load balancer in front of several instances would send them.
  const lanes = Array.from({ length: job.concurrency }, (_, lane) => (path) => {
    const port = job.ports ? job.ports[(rr++) % job.ports.length] : job.port;
    const key = job.host + ':' + port + ' ' + job.token;
    let open = connections.get(key);
    if (!open) connections.set(key, (open = []));
    if (!open[lane]) open[lane] = connection(job.host, port, job.token);
    return open[lane].send(path);
  });
  const phase = async (offset, count, limitMs, record) => {
    const latencies = new Float64Array(count);
    let next = 0, done = 0, errors = 0, capped = false;
    const started = performance.now();
    const lane = async (send) => {
      while (next < count) {
        if (performance.now() - started > limitMs) { capped = true; return; }
        const i = next++;
        const t0 = performance.now();
        const ok = await send(job.paths[offset + i]);
        const dt = performance.now() - t0;
        if (!ok) errors++;
        else if (record) latencies[done++] = dt;
      }
    };
    await Promise.all(lanes.map(lane));
    return { latencies: latencies.slice(0, done), elapsedMs: performance.now() - started, errors, capped };
  };
  try {
    await phase(0, job.warmup, job.warmupMaxMs, false);
    const result = await phase(job.warmup, job.requests, job.maxMs, true);
    parentPort.postMessage({ result }, [result.latencies.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.stack || error) });
  }
});
`;

export interface HttpLoad {
  run(opts: PhaseOptions & { host: string; port: number; ports?: number[]; token: string; paths: string[] }): Promise<RunResult>;
  close(): Promise<void>;
}

export function startHttpLoad(): HttpLoad {
  const worker = new Worker(HTTP_WORKER_SOURCE, { eval: true });
  worker.unref();
  return {
    run: (job) => new Promise((resolve, reject) => {
      const onMessage = (message: { result?: RunResult; error?: string }) => {
        worker.off('error', onError);
        if (message.error) reject(new Error(message.error));
        else resolve(message.result!);
      };
      const onError = (error: Error) => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.postMessage(job);
    }),
    close: async () => {
      await worker.terminate();
    },
  };
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

export function pad(value: string, width: number, left = false): string {
  return left ? value.padEnd(width) : value.padStart(width);
}

/** A double-quoted SQL identifier. */
export function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export interface Cleanups {
  push(what: string, fn: () => Promise<unknown>): void;
  /** Last acquired, first released; every step runs even if an earlier one fails. */
  run(): Promise<void>;
}

/** A cleanup stack that also runs on Ctrl-C. */
export function cleanupStack(): Cleanups {
  const steps: Array<[string, () => Promise<unknown>]> = [];
  const run = async () => {
    while (steps.length) {
      const [what, fn] = steps.pop()!;
      try {
        await fn();
      } catch (error) {
        console.error(`cleanup (${what}) failed: ${(error as Error).message}`);
      }
    }
  };
  process.once('SIGINT', () => {
    console.error('\ninterrupted, cleaning up...');
    void run().finally(() => process.exit(130));
  });
  return { push: (what, fn) => void steps.push([what, fn]), run };
}

export interface BenchDatabase {
  database: RunningDatabase;
  /** A pool of its own, sized like the app's, so the bench's own queries never take the app's connections. */
  raw: pg.Pool;
  /** 'embedded PostgreSQL 18.x' or 'DATABASE_URL server (PostgreSQL 18.x)'. */
  mode: string;
}

/**
 * A database nobody else uses: with DATABASE_URL a fresh one (`<prefix>_<time>`) on that server, dropped at the end;
 * otherwise the embedded PostgreSQL in a temporary folder, removed at the end. Migrated, roles synced, super_admin created.
 */
export async function openBenchDatabase(opts: {
  prefix: string;
  env: NodeJS.ProcessEnv;
  cleanups: Cleanups;
  log?: (line: string) => void;
}): Promise<BenchDatabase> {
  const { prefix, cleanups } = opts;
  const env: NodeJS.ProcessEnv = { ...opts.env };
  const baseUrl = env.DATABASE_URL;
  let target = '';
  if (baseUrl) {
    // A throw-away database on the given server, so the bench never touches real data.
    const adminUrl = new URL(baseUrl);
    adminUrl.pathname = '/postgres';
    const name = `${prefix}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${quote(name)}`);
    } finally {
      await admin.end();
    }
    cleanups.push(`drop database ${name}`, async () => {
      const c = new pg.Client({ connectionString: adminUrl.toString() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    });
    const benchUrl = new URL(baseUrl);
    benchUrl.pathname = `/${name}`;
    target = benchUrl.toString();
    env.DATABASE_URL = target;
    console.log(`database: ${name} on ${adminUrl.host} (DATABASE_URL)`);
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `${prefix.replace(/_/g, '-')}-`));
    // Embedded PostgreSQL runs as user postgres when we are root; it must be able to enter the folder.
    await chmod(dataDir, 0o755);
    cleanups.push(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
    delete env.DATABASE_URL;
    env.DATA_DIR = dataDir;
    console.log(`database: embedded PostgreSQL under ${dataDir}`);
  }
  const log = opts.log ?? ((line: string) => console.log(`  [app] ${line.length > 140 ? `${line.slice(0, 137)}...` : line}`));
  const database = await openDatabase(domains, loadConfig(env), log);
  cleanups.push('stop database', () => database.stop());
  const raw = new pg.Pool({ connectionString: target || database.connection.pool.options.connectionString, max: database.connection.pool.options.max });
  cleanups.push('raw pool', () => raw.end());
  // pool.end() resolves before its idle connections have said goodbye; stopping the server right after makes it
  // terminate them (57P01), which an idle client reports as an 'error' event on its pool: without a listener that
  // crashes the process after a complete run. Expected at shutdown, so only other errors are reported.
  for (const pool of [raw, database.connection.pool]) {
    pool.on('error', (error: Error & { code?: string }) => {
      if (error.code !== '57P01') console.error(`idle database connection failed: ${error.message}`);
    });
  }
  const version = (await raw.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]!.v;
  return { database, raw, mode: baseUrl ? `DATABASE_URL server (PostgreSQL ${version})` : `embedded PostgreSQL ${version}` };
}

export interface BenchApp {
  app: FastifyInstance;
  port: number;
  origin: string;
}

/** The real HTTP server (buildApp + listen), on 127.0.0.1 and a free port. */
export async function startBenchApp(database: RunningDatabase, cleanups: Cleanups): Promise<BenchApp> {
  // The V8 settings main.ts applies in production.
  tuneRuntime();
  const app: FastifyInstance = await buildApp({ domains, db: database.connection.db, definitions: database.definitions, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push('close app', () => app.close());
  const port = (app.server.address() as { port: number }).port;
  return { app, port, origin: `http://127.0.0.1:${port}` };
}

/** Logs in through POST /api/login and answers the bearer token. */
export async function loginToken(origin: string, email: string, password: string): Promise<string> {
  const login = await fetch(`${origin}/api/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) throw new Error(`login of ${email} failed: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

export interface SentQuery {
  text: string;
  values: unknown[];
}

/** Records every statement (text and parameters) any pg client sends until stop() is called. */
export function captureQueries(): { sent: SentQuery[]; stop(): void } {
  const sent: SentQuery[] = [];
  const clientProto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const originalQuery = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'string') sent.push({ text: args[0], values: Array.isArray(args[1]) ? [...args[1]] : [] });
    return originalQuery.apply(this, args);
  };
  return { sent, stop: () => { clientProto.query = originalQuery; } };
}

export interface Figure {
  /** What was measured, e.g. 'get by id p50 ratio to raw'. */
  figure: string;
  value: number;
  unit: string;
  /** The target in words, e.g. '<= 2x'. */
  target: string;
  met: boolean;
}

/**
 * One measured figure against its target: printed, and appended as a JSON line to BENCH_SUMMARY_FILE when
 * `npm run bench` (scripts/bench.ts) runs this benchmark, which gathers them into one summary.
 */
export function recordFigure(bench: string, figure: Figure): void {
  console.log(`figure ${figure.figure}: ${Number.isInteger(figure.value) ? figure.value : figure.value.toFixed(2)} ${figure.unit} (target ${figure.target}): ${figure.met ? 'MET' : 'NOT MET'}`);
  const file = process.env.BENCH_SUMMARY_FILE;
  if (file) appendFileSync(file, `${JSON.stringify({ bench, ...figure })}\n`);
}

/** A database made for one run on the server of `adminUrl`; its drop is queued in `cleanups`. Answers its URL. */
export async function scratchDatabase(adminUrl: URL, prefix: string, cleanups: Array<() => Promise<unknown>>): Promise<URL> {
  const name = `${prefix}_${Date.now()}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  cleanups.push(() => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url;
}

/** Runs a benchmark, then its clean-ups (if it does not run its own) whatever happened; a broken bench is not a measurement: exit code 1. */
export async function runBench(main: () => Promise<void>, cleanups?: Cleanups): Promise<never> {
  let exitCode = 0;
  try {
    await main();
  } catch (error) {
    console.error(`bench failed: ${(error as Error).stack ?? error}`);
    exitCode = 1;
  } finally {
    await cleanups?.run();
  }
  process.exit(exitCode);
}

// Timing helpers for scripts/bench-api.ts: seeded randomness, closed-loop runners (in-thread and an HTTP worker), percentiles.
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

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
        let ok = false;
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
// Plain JS evaluated in the worker, so it needs no TypeScript loader there.
const HTTP_WORKER_SOURCE = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
parentPort.on('message', async (job) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const headers = { authorization: 'Bearer ' + job.token, accept: 'application/json' };
  const once = (path) => new Promise((resolve) => {
    const req = http.request({ host: job.host, port: job.port, path, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    // A hung request counts as a failure instead of hanging the whole bench.
    req.setTimeout(30000, () => req.destroy(new Error('timeout')));
    req.end();
  });
  const phase = async (offset, count, limitMs, record) => {
    const latencies = new Float64Array(count);
    let next = 0, done = 0, errors = 0, capped = false;
    const started = performance.now();
    const lane = async () => {
      while (next < count) {
        if (performance.now() - started > limitMs) { capped = true; return; }
        const i = next++;
        const t0 = performance.now();
        const ok = await once(job.paths[offset + i]);
        const dt = performance.now() - t0;
        if (!ok) errors++;
        else if (record) latencies[done++] = dt;
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, lane));
    return { latencies: latencies.slice(0, done), elapsedMs: performance.now() - started, errors, capped };
  };
  try {
    await phase(0, job.warmup, job.warmupMaxMs, false);
    const result = await phase(job.warmup, job.requests, job.maxMs, true);
    parentPort.postMessage({ result }, [result.latencies.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.stack || error) });
  } finally {
    agent.destroy();
  }
});
`;

export interface HttpLoad {
  run(opts: PhaseOptions & { host: string; port: number; token: string; paths: string[] }): Promise<RunResult>;
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

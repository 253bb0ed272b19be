// npm run bench:cerca — latency of the top bar's search (GET /api/cerca?q=) at 1 000 000 customers (BENCH_ROWS):
// surname fragments common and rare, name and surname, codici fiscali, partite IVA, e-mails, and text nothing holds.
// The customers are bench-api's generated ones; every kind the definitions declare is searched (super_admin).
import os from 'node:os';
import { closedLoop, cleanupStack, loginToken, ms, openBenchDatabase, recordFigure, seeded, startBenchApp, summarize, runBench } from './bench/lib.ts';
import { LOAD_SQL, loadParams } from './bench/clienti.ts';

const ROWS = Number(process.env.BENCH_ROWS) || 1_000_000;
const BATCH = 200_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS) || 1000;
const WARMUP = Number(process.env.BENCH_WARMUP) || 200;
// One run per concurrency on the same loaded table: a clerk alone, and four at once.
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,4').split(',').map(Number).filter((n) => n > 0);
const MAX_MS = (Number(process.env.BENCH_MAX_SECONDS) || 60) * 1000;
const TARGET_P99_MS = 100;
const ADMIN_EMAIL = 'bench@local';
const ADMIN_PASSWORD = 'bench-password-1234';
// From very common ('mar', 'ross') to rare ('sorrent'), as typed: lower case, a part of the word.
const FRAGMENTS = ['ross', 'bianch', 'espos', 'ferr', 'ricc', 'gall', 'mar', 'conti', 'sorrent', 'lomb', 'giuseppe', 'de lu', 'zzzzzz', 'qwx'];

const cleanups = cleanupStack();

async function main(): Promise<void> {
  const t0 = Date.now();
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const { database, raw, mode } = await openBenchDatabase({ prefix: 'bench_cerca', env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1', PG_LOG: '0' }, cleanups });
  console.log(`database: ${mode}`);

  const loadStart = Date.now();
  await raw.query('SELECT setseed(0.42)');
  for (let done = 0; done < ROWS; done += BATCH) {
    await raw.query(LOAD_SQL, loadParams(Math.min(BATCH, ROWS - done)));
    process.stdout.write(`\r  loaded ${Math.min(done + BATCH, ROWS)} customers`);
  }
  await raw.query('VACUUM ANALYZE cliente');
  await raw.query('CHECKPOINT');
  console.log(`\nloaded ${ROWS} customers in ${((Date.now() - loadStart) / 1000).toFixed(0)} s (with vacuum analyze)`);

  // The keys a clerk types: a random sample of the table's own values, and the fragments above.
  const sample = (await raw.query<{ cognome: string | null; nome: string | null; cf: string | null; piva: string | null; email: string | null }>(
    'SELECT cognome, nome, cf, piva, email FROM cliente TABLESAMPLE SYSTEM (1) REPEATABLE (7) LIMIT 400')).rows;
  const random = seeded(42);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const keys: Array<{ kind: string; q: string }> = [];
  for (let i = 0; i < 400; i++) {
    const row = pick(sample);
    const kind = pick(['fragment', 'fragment', 'name', 'cf', 'piva', 'email']);
    if (kind === 'fragment') keys.push({ kind, q: pick(FRAGMENTS) });
    else if (kind === 'name' && row.cognome && row.nome) keys.push({ kind, q: `${row.nome} ${row.cognome}`.toLowerCase() });
    else if (kind === 'cf' && row.cf) keys.push({ kind, q: row.cf });
    else if (kind === 'piva' && row.piva) keys.push({ kind, q: row.piva });
    else if (kind === 'email' && row.email) keys.push({ kind, q: row.email });
  }

  const { origin } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { Authorization: `Bearer ${token}` };
  // Each exact key finds its customer: a fast answer that finds nothing would be no measurement.
  for (const key of keys.filter((k) => k.kind !== 'fragment').slice(0, 30)) {
    const body = (await (await fetch(`${origin}/api/cerca?q=${encodeURIComponent(key.q)}`, { headers })).json()) as { data: Array<{ tipo: string }> };
    if (!body.data.some((hit) => hit.tipo === 'cliente')) throw new Error(`${key.kind} "${key.q}" found no customer`);
  }

  for (const concurrency of CONCURRENCIES) {
    const byKind = new Map<string, number[]>();
    const run = await closedLoop({ concurrency, warmup: WARMUP, requests: REQUESTS, warmupMaxMs: MAX_MS / 4, maxMs: MAX_MS }, async (i) => {
      const key = keys[i % keys.length]!;
      const started = performance.now();
      const response = await fetch(`${origin}/api/cerca?q=${encodeURIComponent(key.q)}`, { headers });
      await response.arrayBuffer();
      if (i >= WARMUP) byKind.set(key.kind, [...(byKind.get(key.kind) ?? []), performance.now() - started]);
      return response.status === 200;
    });
    const all = summarize(run);
    console.log(`\nGET /api/cerca (load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}) at ${ROWS} customers, ${concurrency} concurrent, n=${all.n}${all.capped ? ' (time cap)' : ''}, errors ${all.errors}:`);
    console.log(`  all     p50 ${ms(all.p50)} ms  p95 ${ms(all.p95)} ms  p99 ${ms(all.p99)} ms  max ${ms(all.max)} ms  ${all.perSecond.toFixed(0)} req/s`);
    for (const [kind, latencies] of byKind) {
      const s = summarize({ latencies: Float64Array.from(latencies), elapsedMs: 0, errors: 0, capped: false });
      console.log(`  ${kind.padEnd(8)}p50 ${ms(s.p50)} ms  p99 ${ms(s.p99)} ms  (n=${s.n})`);
    }
    recordFigure('cerca', { figure: `cerca p50 at ${ROWS} customers, concurrency ${concurrency}`, value: all.p50, unit: 'ms', target: 'informative', met: true });
    recordFigure('cerca', { figure: `cerca p99 at ${ROWS} customers, concurrency ${concurrency}`, value: all.p99, unit: 'ms', target: `< ${TARGET_P99_MS} ms`, met: all.p99 < TARGET_P99_MS });
  }
  console.log(`total run time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

await runBench(main, cleanups);

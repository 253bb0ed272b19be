// npm run bench:storico — what the change history costs and how it reads at size (issue 31):
//   1. PUT /api/cliente/{id} with the history trigger and without it, in one run, in BENCH_ROUNDS short phases of each
//      side in ABBA order so drift in the machine's load falls on both sides alike; target: p50 and p99 within 1.3x.
//   2. 10 000 000 history rows (BENCH_STORICO_ROWS), then a record's timeline (GET /api/cliente/{id}/storico, p99 < 20 ms)
//      and the desk's first page filtered by user or by resource (GET /api/storico, p99 < 50 ms).
// The bulk rows are written with triggers off (session_replication_role = replica): they are not sealed into the
// chain, which no read here uses; the PUT phase's own entries are sealed as in production.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { closedLoop, cleanupStack, loginToken, ms, openBenchDatabase, recordFigure, runBench, seeded, startBenchApp, summarize, type Summary } from './bench/lib.ts';
import { LOAD_SQL, loadParams } from './bench/clienti.ts';

const CUSTOMERS = Number(process.env.BENCH_ROWS) || 100_000;
const HISTORY_ROWS = Number(process.env.BENCH_STORICO_ROWS) || 10_000_000;
const BATCH = 1_000_000;
const PUT_REQUESTS = Number(process.env.BENCH_REQUESTS) || 1500;
const READ_REQUESTS = Number(process.env.BENCH_READ_REQUESTS) || 2000;
const WARMUP = Number(process.env.BENCH_WARMUP) || 300;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 10;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY) || 2;
const MAX_MS = (Number(process.env.BENCH_MAX_SECONDS) || 90) * 1000;
const ADMIN_EMAIL = 'bench@local';
const ADMIN_PASSWORD = 'bench-password-1234';
const RESOURCES = ['cliente', 'quotazione', 'polizza', 'titolo', 'collaboratore', 'quotazioni_rca', 'utente', 'appendice'];
const USERS = 200;

const cleanups = cleanupStack();

// History rows as the trigger writes them: a record's edit with two fields changed, by one of USERS users, over two years.
const HISTORY_SQL = `
INSERT INTO storico (at, risorsa, record_id, utente_id, utente_nome, origine, indirizzo, richiesta, azione, evento, modifiche)
SELECT now() - (g::double precision / $2) * interval '730 days',
       ($3::text[])[1 + (g % cardinality($3::text[]))],
       1 + (g * 7919) % $4,
       1 + (g % $5), 'Utente ' || (1 + (g % $5)), 'utente', '127.0.0.1', 'req-' || g,
       CASE WHEN g % 10 = 0 THEN 'transizione' WHEN g % 17 = 0 THEN 'creazione' ELSE 'modifica' END, NULL,
       jsonb_build_object('nome', jsonb_build_array('MARIO', 'MARIA'), 'IBAN', jsonb_build_array('IT60X0542811101000000123456', 'IT07X0542811101000000654321'))
FROM generate_series($1::bigint, $1::bigint + $6 - 1) g`;

function line(label: string, s: Summary): string {
  return `  ${label.padEnd(34)} p50 ${ms(s.p50)} ms  p99 ${ms(s.p99)} ms  max ${ms(s.max)} ms  n=${s.n}${s.capped ? ' (time cap)' : ''} errors ${s.errors}`;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const { database, raw, mode } = await openBenchDatabase({ prefix: 'bench_storico', env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1', PG_LOG: '0' }, cleanups });
  console.log(`database: ${mode}`);
  await raw.query('SELECT setseed(0.42)');
  await raw.query("SET session_replication_role = replica");
  for (let done = 0; done < CUSTOMERS; done += 200_000) await raw.query(LOAD_SQL, loadParams(Math.min(200_000, CUSTOMERS - done)));
  await raw.query('SET session_replication_role = DEFAULT');
  await raw.query('VACUUM ANALYZE cliente');
  const ids = (await raw.query<{ id: number }>("SELECT id FROM cliente WHERE tipo = 'RETAIL' ORDER BY random() LIMIT 2000")).rows.map((r) => Number(r.id));
  // The generated tax codes carry no valid check letter, and a PUT checks the whole record: the edited ones have none.
  await raw.query('SET session_replication_role = replica');
  await raw.query('UPDATE cliente SET cf = NULL, piva = NULL WHERE id = ANY($1)', [ids]);
  await raw.query('SET session_replication_role = DEFAULT');
  console.log(`${CUSTOMERS} customers loaded`);

  const { origin } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { Authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const random = seeded(42);
  const versions = new Map<number, number>();
  for (const id of ids.slice(0, 50)) {
    const body = (await (await fetch(`${origin}/api/cliente/${id}`, { headers })).json()) as { data: { version: number } };
    versions.set(id, body.data.version);
  }

  // 1. PUT with and without the history, alternated. Each request edits a different customer's note and phone.
  const put = async (i: number): Promise<boolean> => {
    const id = ids[i % ids.length]!;
    let version = versions.get(id);
    if (version === undefined) {
      version = ((await (await fetch(`${origin}/api/cliente/${id}`, { headers })).json()) as { data: { version: number } }).data.version;
    }
    const response = await fetch(`${origin}/api/cliente/${id}`, {
      method: 'PUT', headers, body: JSON.stringify({ note: `nota ${i} ${random().toFixed(6)}`, cell: `+39 333${String(1000000 + i).slice(-7)}`, version }),
    });
    const body = (await response.json()) as { data?: { model?: { version: number } } };
    if (response.status === 200) versions.set(id, body.data!.model!.version);
    else if (!failure) failure = `${response.status} ${JSON.stringify(body).slice(0, 300)}`;
    return response.status === 200;
  };
  let failure: string | undefined;
  const sides: Record<'with' | 'without', number[]> = { with: [], without: [] };
  let offset = 0;
  // Short phases in ABBA order (with, without, without, with, ...): a drift in the machine's load during the run
  // falls on both sides alike (four long phases left a second helper's burst on one side only).
  // Both sides warmed first and not measured: the first phase otherwise carried the cold start (the JIT of the PUT's
  // path, each connection's first trigger call) on the side that happened to run first.
  for (const side of ['with', 'without'] as const) {
    await raw.query(`ALTER TABLE cliente ${side === 'with' ? 'ENABLE' : 'DISABLE'} TRIGGER storico_registra`);
    const run = await closedLoop({ concurrency: CONCURRENCY, warmup: 0, requests: WARMUP, warmupMaxMs: MAX_MS / 4, maxMs: MAX_MS }, (i) => put(offset + i));
    if (run.errors) throw new Error(`${run.errors} PUTs failed (warm-up, ${side}), the first: ${failure}`);
    offset += WARMUP;
  }
  const order = Array.from({ length: ROUNDS }, (_, r) => (r % 2 === 0 ? ['with', 'without'] as const : ['without', 'with'] as const)).flat();
  for (const side of order) {
    await raw.query(`ALTER TABLE cliente ${side === 'with' ? 'ENABLE' : 'DISABLE'} TRIGGER storico_registra`);
    const phase = { warmup: Math.ceil(WARMUP / ROUNDS), requests: Math.ceil(PUT_REQUESTS / ROUNDS) };
    const run = await closedLoop({ concurrency: CONCURRENCY, ...phase, warmupMaxMs: MAX_MS / 4, maxMs: MAX_MS }, (i) => put(offset + i));
    offset += phase.warmup + phase.requests;
    if (run.errors) throw new Error(`${run.errors} PUTs failed (${side}), the first: ${failure}`);
    sides[side].push(...run.latencies);
  }
  await raw.query('ALTER TABLE cliente ENABLE TRIGGER storico_registra');
  const withH = summarize({ latencies: Float64Array.from(sides.with), elapsedMs: 0, errors: 0, capped: false });
  const without = summarize({ latencies: Float64Array.from(sides.without), elapsedMs: 0, errors: 0, capped: false });
  console.log(`\nPUT /api/cliente/{id}, ${CONCURRENCY} concurrent (load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}):`);
  console.log(line('with history', withH));
  console.log(line('without history (trigger disabled)', without));
  for (const p of ['p50', 'p99'] as const) {
    const ratio = withH[p] / without[p];
    recordFigure('storico', { figure: `PUT cliente ${p} with history / without`, value: ratio, unit: 'x', target: '<= 1.3x', met: ratio <= 1.3 });
  }

  // 2. The history at size.
  const loadStart = Date.now();
  const existing = Number((await raw.query<{ n: string }>('SELECT count(*) AS n FROM storico')).rows[0]!.n);
  await raw.query('SET session_replication_role = replica');
  for (let done = 0; done < HISTORY_ROWS; done += BATCH) {
    await raw.query(HISTORY_SQL, [done + 1, HISTORY_ROWS, RESOURCES, CUSTOMERS, USERS, Math.min(BATCH, HISTORY_ROWS - done)]);
    process.stdout.write(`\r  ${Math.min(done + BATCH, HISTORY_ROWS)} history rows`);
  }
  await raw.query('SET session_replication_role = DEFAULT');
  await raw.query('VACUUM ANALYZE storico');
  await raw.query('CHECKPOINT');
  const size = (await raw.query<{ table: string; indexes: string }>("SELECT pg_size_pretty(pg_table_size('storico')) AS table, pg_size_pretty(pg_indexes_size('storico')) AS indexes")).rows[0]!;
  console.log(`\n${HISTORY_ROWS + existing} history rows in ${((Date.now() - loadStart) / 1000).toFixed(0)} s; table ${size.table}, indexes ${size.indexes}`);

  const reads: Array<{ label: string; url: (i: number) => string; target: number; figure: string }> = [
    { label: 'a record\'s timeline', url: (i) => `/api/cliente/${ids[i % ids.length]}/storico?per_page=20`, target: 20, figure: 'timeline of one record p99' },
    { label: 'desk, filtered by user', url: (i) => `/api/storico?filter[utente_id]=${1 + (i % USERS)}&per_page=25`, target: 50, figure: 'desk first page by user p99' },
    { label: 'desk, filtered by resource', url: (i) => `/api/storico?filter[risorsa]=${RESOURCES[i % RESOURCES.length]}&per_page=25`, target: 50, figure: 'desk first page by resource p99' },
  ];
  console.log(`\nreads at ${HISTORY_ROWS + existing} history rows, ${CONCURRENCY} concurrent:`);
  for (const read of reads) {
    // Each answers entries: a fast answer with nothing in it would be no measurement.
    const probe = (await (await fetch(`${origin}${read.url(1)}`, { headers })).json()) as { data: unknown[] };
    if (!probe.data.length) throw new Error(`${read.label}: no entries`);
    const run = await closedLoop({ concurrency: CONCURRENCY, warmup: WARMUP, requests: READ_REQUESTS, warmupMaxMs: MAX_MS / 4, maxMs: MAX_MS }, async (i) => {
      const started = performance.now();
      const response = await fetch(`${origin}${read.url(i)}`, { headers });
      await response.arrayBuffer();
      return response.status === 200 && performance.now() - started >= 0;
    });
    const s = summarize(run);
    console.log(line(read.label, s));
    recordFigure('storico', { figure: `${read.figure} at ${HISTORY_ROWS} rows`, value: s.p99, unit: 'ms', target: `< ${read.target} ms`, met: s.p99 < read.target && s.errors === 0 });
  }
  console.log(`total run time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

await runBench(main, cleanups);

// npm run bench:api — benchmarks the generic /api/cliente routes against the same SQL sent raw through pg, on 100 000 customers.
import http from 'node:http';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import {
  captureQueries, cleanupStack, closedLoop, loginToken, ms, openBenchDatabase, pad, quote, recordFigure, seeded, startBenchApp, startHttpLoad, summarize,
  type Figure, type HttpLoad, type PhaseOptions, type RunResult, type Summary, runBench } from './bench/lib.ts';
import { COMPANY, DOMAINS, FEMALE, LOAD_SQL, MALE, PROVINCES, STREETS, SURNAMES } from './bench/clienti.ts';

const ROWS = Number(process.env.BENCH_ROWS) || 100_000;
// After the measurements the table grows to this many rows and the first page is measured again (0: skip).
const GROW_ROWS = process.env.BENCH_GROW_ROWS === undefined ? 1_000_000 : Number(process.env.BENCH_GROW_ROWS);
const REQUESTS = Number(process.env.BENCH_REQUESTS) || 2000;
// Get by id's p99 is a target: 8000 requests put 80 behind it instead of 20, so one slow spell of the shared machine
// (a scheduler delay of PostgreSQL or of the server, which the tail is made of) moves it less.
const GET_REQUESTS = Number(process.env.BENCH_GET_REQUESTS) || 4 * REQUESTS;
// Enough requests for V8 to finish optimising the API's path: with 200, functions were still being compiled during the
// measured requests (node --trace-opt) and their compile pauses made the API's p99.
const WARMUP = Number(process.env.BENCH_WARMUP) || 3000;
// API and raw alternate in this many slices of each phase.
const ROUNDS = 4;
const CONCURRENCY = 8;
// Caps per phase keep the whole run bounded (~3 min on 2 cores) even if a scenario is slow; n is reported.
const MAX_MS = (Number(process.env.BENCH_MAX_SECONDS) || 8) * 1000;
const WARMUP_MAX_MS = 5000;
const PER_PAGE = 15;
const PAGES = 500;
const ADMIN_EMAIL = 'bench@local';
const ADMIN_PASSWORD = 'bench-password-1234';
// Fragments of surnames in the generated data, from very common ('mar', 'ferr') to rarer ('sorrent').
const SEARCH_TERMS = ['ross', 'bianch', 'espos', 'ferr', 'ricc', 'gall', 'mar', 'conti', 'sorrent', 'lomb'];


interface Scenario {
  key: 'first' | 'list' | 'search' | 'get';
  label: string;
  paths: string[];
  sql: string;
  params: unknown[][];
  /** The exact total, counted once for the check (the API counts at most EXACT_TOTAL_LIMIT rows, then estimates). */
  countSql?: string;
  countParams?: unknown[][];
  expectRows: boolean;
  /** Measured requests per side and concurrency: REQUESTS unless the scenario needs more. */
  requests: number;
}

const cleanups = cleanupStack();

/**
 * CPU time of this process's main thread in ms (Linux; undefined elsewhere): the server's work during an API phase
 * (the load runs in a worker), the driver's during a raw one. On a shared machine latency grows with everyone's load;
 * the CPU a request costs barely does, so API/raw CPU compares two changes where the latency ratios cannot.
 */
function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of proc(5)), in ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Main-thread CPU and garbage collection (count, pause) per request over `run`, which answers how many requests it made. */
async function costOf(run: () => Promise<number>): Promise<{ cpuUs?: number; gcs: number; gcUs: number }> {
  let gcs = 0;
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcs++;
      gcMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const before = mainThreadCpuMs();
  const n = await run();
  const after = mainThreadCpuMs();
  // Entries are delivered asynchronously: let the last ones arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return { cpuUs: before === undefined || after === undefined ? undefined : ((after - before) * 1000) / n, gcs: gcs / n, gcUs: (gcMs * 1000) / n };
}

const norm = (text: string) => text.replace(/\s+/g, ' ').trim();

async function main(): Promise<void> {
  const t0 = Date.now();
  const loadAtStart = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const { database, raw, mode } = await openBenchDatabase({
    prefix: 'bench_api', env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1', PG_LOG: '0' }, cleanups,
  });

  const def = database.definitions.resources.get('cliente');
  if (!def) throw new Error('no cliente resource in schemas/');

  // 2. Load.
  const loadStart = Date.now();
  const client = await raw.connect();
  try {
    await client.query('SELECT setseed(0.42)'); // same data every run
    await client.query(LOAD_SQL, [ROWS, SURNAMES, MALE, FEMALE, COMPANY, STREETS, PROVINCES, DOMAINS]);
  } finally {
    client.release();
  }
  const insertSeconds = (Date.now() - loadStart) / 1000;
  // VACUUM as well as ANALYZE: steady state (autovacuum would get there), GIN pending lists flushed, visibility map set.
  // Then a checkpoint, so the checkpointer is not writing the load out during the measurements.
  await raw.query('VACUUM ANALYZE cliente');
  await raw.query('CHECKPOINT');
  const loadSeconds = (Date.now() - loadStart) / 1000;
  const ids = (await raw.query<{ lo: number; hi: number; n: number }>('SELECT min(id) AS lo, max(id) AS hi, count(*) AS n FROM cliente')).rows[0]!;
  console.log(`loaded ${ids.n} customers in ${loadSeconds.toFixed(1)} s (insert ${insertSeconds.toFixed(1)} s, vacuum analyze ${(loadSeconds - insertSeconds).toFixed(1)} s)`);

  // 3. The real HTTP server.
  const { port, origin } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, ADMIN_EMAIL, ADMIN_PASSWORD);

  // The raw side: the statements repository.ts builds, written out from the same definitions (columns, search fields).
  const readable = [...new Set(['id', 'version', ...def.fields.filter((f) => !f.writeOnly && f.name !== 'id').map((f) => f.name)])];
  const columns = readable.map(quote).join(', ');
  const searchable = def.resource.search ?? [];
  // Case and accents ignored: each search column and the term through testo_cercabile, the trigram indexes' expression.
  const searchWhere = `WHERE (${searchable.map((c, i) => `testo_cercabile(${quote(c)}) LIKE testo_cercabile($${i + 1})`).join(' OR ')})`;
  const listSql = `SELECT ${columns} FROM ${quote(def.name)} ORDER BY "id" DESC LIMIT $1 OFFSET $2`;
  // From offset 200 a page reads its ids first, then its rows (repository.ts, DEFER_FROM): the list scenario's pages are all there.
  const deepSql = `SELECT ${columns} FROM ${quote(def.name)} WHERE id IN ( SELECT id FROM ${quote(def.name)} ORDER BY "id" DESC LIMIT $1 OFFSET $2) ORDER BY "id" DESC`;
  const listCountSql = `SELECT count(*)::int AS n FROM ${quote(def.name)}`;
  const searchSql = `SELECT ${columns} FROM ${quote(def.name)} ${searchWhere} ORDER BY "id" DESC LIMIT $${searchable.length + 1} OFFSET $${searchable.length + 2}`;
  const searchCountSql = `SELECT count(*)::int AS n FROM ${quote(def.name)} ${searchWhere}`;
  const getSql = `SELECT * FROM ${quote(def.name)} WHERE id = $1`;
  const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

  // Inputs drawn once from a fixed seed, shared by API and raw, and by both concurrency levels.
  const total = WARMUP + Math.max(REQUESTS, GET_REQUESTS);
  const rnd = seeded(20240601);
  // Pages 14..PAGES: from row 200 on, where a page is read ids first.
  const pages = Array.from({ length: total }, () => 14 + Math.floor(rnd() * (PAGES - 13)));
  const terms = Array.from({ length: total }, () => SEARCH_TERMS[Math.floor(rnd() * SEARCH_TERMS.length)]!);
  const getIds = Array.from({ length: total }, () => ids.lo + Math.floor(rnd() * (ids.hi - ids.lo + 1)));
  const allScenarios: Scenario[] = [
    {
      key: 'first', label: 'first page (sort=-id)', expectRows: true, requests: REQUESTS, sql: listSql,
      paths: pages.map(() => `/api/${def.name}?page=1&per_page=${PER_PAGE}&sort=-id`),
      params: pages.map(() => [PER_PAGE, 0]),
      countSql: listCountSql, countParams: pages.map(() => []),
    },
    {
      key: 'list', label: 'deep list page (sort=-id, ids first)', expectRows: true, requests: REQUESTS, sql: deepSql,
      paths: pages.map((p) => `/api/${def.name}?page=${p}&per_page=${PER_PAGE}&sort=-id`),
      params: pages.map((p) => [PER_PAGE, (p - 1) * PER_PAGE]),
      countSql: listCountSql, countParams: pages.map(() => []),
    },
    {
      key: 'search', label: 'list + search', expectRows: false, requests: REQUESTS, sql: searchSql,
      paths: terms.map((t) => `/api/${def.name}?search=${encodeURIComponent(t)}&per_page=${PER_PAGE}`),
      params: terms.map((t) => [...searchable.map(() => like(t)), PER_PAGE, 0]),
      countSql: searchCountSql, countParams: terms.map((t) => searchable.map(() => like(t))),
    },
    {
      key: 'get', label: 'get by id', expectRows: true, requests: GET_REQUESTS, sql: getSql,
      paths: getIds.map((id) => `/api/${def.name}/${id}`),
      params: getIds.map((id) => [id]),
    },
  ];
  // BENCH_SCENARIOS=get (or first,list,search,get): a subset, for comparing one route between two changes quickly.
  const only = process.env.BENCH_SCENARIOS?.split(',').map((k) => k.trim()).filter(Boolean);
  const scenarios = only?.length ? allScenarios.filter((s) => only.includes(s.key)) : allScenarios;
  if (!scenarios.length) throw new Error(`BENCH_SCENARIOS=${process.env.BENCH_SCENARIOS} names none of ${allScenarios.map((s) => s.key).join(', ')}`);

  // Check the raw statements are the ones the API sends, and that both see the same data: capture the SQL the app issues.
  // The API adds one scalar subquery per listed reference (its `__label`): the raw side sends the API's own data statement,
  // checked to be the definitions' statement plus those label columns, and to answer the same rows.
  const authHeaders = { authorization: `Bearer ${token}` };
  const labelColumns = / ?, \(SELECT [^]*? AS "[A-Za-z0-9_]+__label"/g;
  const renumber = (text: string) => { let n = 0; return text.replace(/\$\d+/g, () => `$${++n}`); };
  for (const s of scenarios) {
    const capture = captureQueries();
    let res: Response;
    let body: { total?: number; total_is_estimate?: boolean; data: unknown };
    try {
      res = await fetch(`${origin}${s.paths[0]}`, { headers: authHeaders });
      body = (await res.json()) as typeof body;
    } finally {
      capture.stop();
    }
    const apiSent = capture.sent;
    if (res.status !== 200) throw new Error(`${s.label}: HTTP ${res.status} ${JSON.stringify(body)}`);
    const issued = apiSent.filter((q) => /FROM "cliente"/.test(q.text));
    const data = issued[0];
    const labels = data ? norm(data.text).match(labelColumns) ?? [] : [];
    const withoutLabels = data ? renumber(norm(data.text).replace(labelColumns, '').replace('SELECT "cliente".*', 'SELECT *')) : '';
    // The label subqueries' own parameters come first; the statement's own ones (limit, offset, id, terms) last.
    const fixed = data ? data.values.slice(0, data.values.length - s.params[0]!.length) : [];
    const same = !!data && withoutLabels === renumber(norm(s.sql))
      && JSON.stringify(data.values.slice(fixed.length)) === JSON.stringify(s.params[0]);
    if (!same) {
      console.log(`  API: ${issued.map((q) => norm(q.text)).join(' | ')}\n  raw: ${norm(s.sql)}`);
      throw new Error(`raw SQL for ${s.label} does not match what the API sends; fix the bench before trusting it`);
    }
    s.sql = data.text;
    s.params = s.params.map((p) => [...fixed, ...p]);
    const totalStatements = issued.slice(1);
    const rawRes = await raw.query(s.sql, s.params[0]);
    const rawCount = s.countSql ? (await raw.query<{ n: number }>(s.countSql, s.countParams![0])).rows[0]!.n : undefined;
    const apiRows = s.key === 'get' ? [(body.data as Record<string, unknown>)] : (body.data as Array<Record<string, unknown>>);
    const apiTotal = s.key === 'get' ? 1 : body.total;
    const rawTotal = s.key === 'get' ? rawRes.rowCount : rawCount;
    console.log(`check ${s.label}: API sent ${apiSent.length} statements (${apiSent.length - issued.length} for the session or settings), `
      + `data statement identical to the raw one (${labels.length} label column${labels.length === 1 ? '' : 's'}); rows API ${apiRows.length} / raw ${rawRes.rowCount}, `
      + `total API ${apiTotal}${body.total_is_estimate ? ' (estimate, a lower bound)' : ''} / exact ${rawTotal}`);
    for (const t of totalStatements) console.log(`  the API's total: ${norm(t.text).slice(0, 200)}`);
    const totalOk = body.total_is_estimate ? (apiTotal ?? 0) <= (rawTotal ?? 0) && (apiTotal ?? 0) >= (rawTotal ?? 0) * 0.5 : apiTotal === rawTotal;
    const sameIds = JSON.stringify(apiRows.map((r) => r.id)) === JSON.stringify(rawRes.rows.map((r: Record<string, unknown>) => r.id));
    if (apiRows.length !== rawRes.rowCount || !sameIds || !totalOk) throw new Error(`${s.label}: API and raw disagree on the result`);
  }

  if (process.env.BENCH_EXPLAIN === '1') {
    for (const s of scenarios) {
      const plan = await raw.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params[0]);
      console.log(`plan ${s.label}:\n${plan.rows.map((r) => `  ${(r as Record<string, string>)['QUERY PLAN']}`).join('\n')}`);
    }
  }

  // 4. Measure.
  const load: HttpLoad = startHttpLoad();
  cleanups.push('http load worker', () => load.close());
  // BENCH_FLOOR=1, a diagnostic: a bare node:http server sending the same statement through the raw pool and answering
  // JSON.stringify of its rows (no framework, session, permission or validation) takes turns too. API over floor is what the
  // app adds to an HTTP hop. Off by default: in one process the two servers share Node's http code, and V8 deoptimised
  // it on each switch (node --trace-deopt: 'wrong map' in parserOnIncoming, assignSocket...), which the API's p99 paid.
  const withFloor = process.env.BENCH_FLOOR === '1';
  let floorOf: Scenario | undefined;
  let floorPort = 0;
  if (withFloor) {
    const floor = http.createServer((req, res) => {
      const s = floorOf!;
      raw.query(s.sql, s.params[Number(req.url!.slice('/floor/'.length))]).then((r) => {
        const body = JSON.stringify(s.key === 'get' ? { data: r.rows[0] } : { data: r.rows });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, () => {
        res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve));
    cleanups.push('floor server', () => new Promise((resolve) => floor.close(resolve)));
    floorPort = (floor.address() as { port: number }).port;
  }
  const floorPaths = Array.from({ length: total }, (_, i) => `/floor/${i}`);
  const results = new Map<string, Summary>();
  const costs = new Map<string, { api: { cpuUs?: number; gcs: number; gcUs: number }; raw: { cpuUs?: number; gcs: number; gcUs: number } }>();
  const joined = (runs: RunResult[]): RunResult => ({
    latencies: Float64Array.from(runs.flatMap((r) => [...r.latencies])),
    elapsedMs: runs.reduce((sum, r) => sum + r.elapsedMs, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    capped: runs.some((r) => r.capped),
  });
  /**
   * One phase, API and raw on the same inputs (request i of both is input WARMUP + i). Both warm first (V8 optimises the
   * API's much longer path over thousands of requests), then they take turns in ROUNDS slices, so a slow spell of the
   * shared machine falls on both sides instead of on whichever ran then.
   */
  const sideBySide = async (concurrency: number, s: Scenario, rawTask: (i: number) => Promise<boolean>) => {
    floorOf = s;
    const warm = { concurrency, warmup: WARMUP, requests: 0, warmupMaxMs: WARMUP_MAX_MS, maxMs: 0 };
    await load.run({ ...warm, host: '127.0.0.1', port, token, paths: s.paths });
    if (withFloor) await load.run({ ...warm, host: '127.0.0.1', port: floorPort, token, paths: floorPaths });
    await closedLoop(warm, rawTask);
    const slice = Math.ceil(s.requests / ROUNDS);
    const rounds = { api: [] as RunResult[], floor: [] as RunResult[], raw: [] as RunResult[] };
    for (let k = 0; k * slice < s.requests; k++) {
      const at = WARMUP + k * slice;
      const round = { concurrency, warmup: 0, requests: Math.min(slice, s.requests - k * slice), warmupMaxMs: 0, maxMs: MAX_MS / ROUNDS };
      rounds.api.push(await load.run({ ...round, host: '127.0.0.1', port, token, paths: s.paths.slice(at) }));
      if (withFloor) rounds.floor.push(await load.run({ ...round, host: '127.0.0.1', port: floorPort, token, paths: floorPaths.slice(at) }));
      rounds.raw.push(await closedLoop(round, (i) => rawTask(at + i)));
    }
    return { api: summarize(joined(rounds.api)), floor: withFloor ? summarize(joined(rounds.floor)) : undefined, raw: summarize(joined(rounds.raw)) };
  };
  for (const s of scenarios) {
    for (const concurrency of [1, CONCURRENCY]) {
      // The page statement alone: what the API adds (its total, the HTTP round trip, JSON) is its overhead.
      const { api: a, floor: f, raw: b } = await sideBySide(concurrency, s, async (i) => {
        const r = await raw.query(s.sql, s.params[i]);
        return !s.expectRows || (r!.rowCount ?? 0) > 0;
      });
      results.set(`${s.key}/api/${concurrency}`, a);
      results.set(`${s.key}/raw/${concurrency}`, b);
      if (f) results.set(`${s.key}/floor/${concurrency}`, f);
      const line = (who: string, x: Summary) => `    ${who} n=${x.n}${x.capped ? ' (time cap)' : ''}${x.errors ? ` errors=${x.errors}` : ''}`
        + ` p50 ${ms(x.p50)} p95 ${ms(x.p95)} p99 ${ms(x.p99)} max ${ms(x.max)} ms, ${x.perSecond.toFixed(0)}/s`;
      console.log(`  ${s.label}, concurrency ${concurrency}\n${line('API', a)}${f ? `\n${line('floor', f)}` : ''}\n${line('raw', b)}`);
    }
    // One more pass at concurrency 1, warm, for what a request costs the main thread: CPU, and GC (what the p99 pays).
    const cpuPhase: PhaseOptions = { concurrency: 1, warmup: 0, requests: REQUESTS, warmupMaxMs: 0, maxMs: MAX_MS };
    const apiCost = await costOf(async () => {
      const r = await load.run({ ...cpuPhase, host: '127.0.0.1', port, token, paths: s.paths });
      return r.latencies.length + r.errors;
    });
    const rawCost = await costOf(async () => {
      const r = await closedLoop(cpuPhase, async (i) => ((await raw.query(s.sql, s.params[i])).rowCount ?? 0) > 0 || !s.expectRows);
      return r.latencies.length + r.errors;
    });
    costs.set(s.key, { api: apiCost, raw: rawCost });
    const cost = (who: string, c: typeof apiCost) => `    ${who} ${c.cpuUs === undefined ? 'CPU n/a' : `CPU ${c.cpuUs.toFixed(0)} µs`}, `
      + `GC ${(c.gcs * 1000).toFixed(1)} per 1000 requests, ${c.gcUs.toFixed(1)} µs of GC pause per request`;
    console.log(`  ${s.label}, main thread per request (concurrency 1)\n${cost('API', apiCost)}\n${cost('raw', rawCost)}`);
  }

  // 5. Report.
  console.log(`\n${mode}, ${ids.n} customers, ${os.cpus().length} cores, Node ${process.version}, app pool ${database.connection.pool.options.max}`);
  // Other work on the machine skews the numbers; the load averages say how much.
  console.log(`load average at start ${loadAtStart}, at end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`latency: concurrency 1; throughput: concurrency ${CONCURRENCY}; ${REQUESTS} requests (get by id ${GET_REQUESTS}) after ${WARMUP} warm-up per phase, ${withFloor ? 'API, floor and raw' : 'API and raw'} alternating in ${ROUNDS} slices (cap ${MAX_MS / 1000} s); times in ms`);
  const header = [pad('scenario', 22, true), pad('API p50', 8), pad('API p99', 8), pad('raw p50', 8), pad('raw p99', 8),
    pad('ratio p50', 9), pad('ratio p99', 9), pad('API req/s', 9), pad('raw q/s', 8)].join(' | ');
  console.log(header);
  console.log('-'.repeat(header.length));
  const verdicts: string[] = [];
  const figures: Figure[] = [];
  for (const s of scenarios) {
    const a1 = results.get(`${s.key}/api/1`)!;
    const r1 = results.get(`${s.key}/raw/1`)!;
    const a8 = results.get(`${s.key}/api/${CONCURRENCY}`)!;
    const r8 = results.get(`${s.key}/raw/${CONCURRENCY}`)!;
    const ratio50 = a1.p50 / r1.p50;
    const ratio99 = a1.p99 / r1.p99;
    console.log([pad(s.label, 22, true), pad(ms(a1.p50), 8), pad(ms(a1.p99), 8), pad(ms(r1.p50), 8), pad(ms(r1.p99), 8),
      pad(`${ratio50.toFixed(2)}x`, 9), pad(`${ratio99.toFixed(2)}x`, 9), pad(a8.perSecond.toFixed(0), 9), pad(r8.perSecond.toFixed(0), 8)].join(' | '));
    const within = ratio50 <= 2 && ratio99 <= 2;
    verdicts.push(`target API within 2x of raw latency, ${s.label}: ${within ? 'MET' : 'NOT MET'} (p50 ${ratio50.toFixed(2)}x, p99 ${ratio99.toFixed(2)}x)`);
    if (s.key === 'list') {
      verdicts.push(`target list page p99 under 50 ms: ${a1.p99 < 50 ? 'MET' : 'NOT MET'} (API p99 ${ms(a1.p99)} ms at concurrency 1; ${ms(a8.p99)} ms at concurrency ${CONCURRENCY})`);
    }
    if (s.key === 'first' || s.key === 'get') {
      figures.push({ figure: `${s.label}, p50 API/raw at ${ids.n} rows`, value: ratio50, unit: 'x', target: '<= 2x', met: ratio50 <= 2 });
      figures.push({ figure: `${s.label}, p99 API/raw at ${ids.n} rows`, value: ratio99, unit: 'x', target: '<= 2x', met: ratio99 <= 2 });
    }
    if (s.key === 'first') figures.push({ figure: `first page p50 at ${ids.n} rows`, value: a1.p50, unit: 'ms', target: '<= 5 ms', met: a1.p50 <= 5 });
    if (s.key === 'get') {
      const rate = a8.perSecond / r8.perSecond;
      figures.push({ figure: `get by id at concurrency ${CONCURRENCY}, API rate over raw rate`, value: rate, unit: 'x', target: '>= 0.5x', met: rate >= 0.5 });
    }
  }
  // What the HTTP hop alone costs on this machine, and what the app adds to it.
  if (withFloor) console.log(`\nfloor: a bare node:http server sending the same statement and answering JSON.stringify of its rows`);
  for (const s of withFloor ? scenarios : []) {
    const a1 = results.get(`${s.key}/api/1`)!;
    const f1 = results.get(`${s.key}/floor/1`)!;
    const r1 = results.get(`${s.key}/raw/1`)!;
    const f8 = results.get(`${s.key}/floor/${CONCURRENCY}`)!;
    console.log(`  ${s.label}: floor p50 ${ms(f1.p50)} p99 ${ms(f1.p99)} ms (floor/raw ${(f1.p50 / r1.p50).toFixed(2)}x, ${(f1.p99 / r1.p99).toFixed(2)}x; `
      + `API/floor ${(a1.p50 / f1.p50).toFixed(2)}x, ${(a1.p99 / f1.p99).toFixed(2)}x), ${f8.perSecond.toFixed(0)} req/s at concurrency ${CONCURRENCY}`);
  }
  const failures = [...results.values()].reduce((n, x) => n + x.errors, 0);
  for (const s of scenarios) {
    const c = costs.get(s.key)!;
    if (c.api.cpuUs !== undefined && c.raw.cpuUs !== undefined) {
      console.log(`main-thread CPU per request, ${s.label}: API ${c.api.cpuUs.toFixed(0)} µs, raw ${c.raw.cpuUs.toFixed(0)} µs (${(c.api.cpuUs / c.raw.cpuUs).toFixed(2)}x); `
        + `GC pause per request API ${c.api.gcUs.toFixed(1)} µs, raw ${c.raw.gcUs.toFixed(1)} µs`);
    }
  }
  console.log('');
  for (const v of verdicts) console.log(v);

  // 6. The table grows to GROW_ROWS: the first page must not slow down with it (its total is an estimate, not a count).
  const first = scenarios.find((s) => s.key === 'first');
  if (GROW_ROWS > ids.n && first) {
    const growStart = Date.now();
    const c = await raw.connect();
    try {
      await c.query('SELECT setseed(0.43)');
      await c.query(LOAD_SQL, [GROW_ROWS - ids.n, SURNAMES, MALE, FEMALE, COMPANY, STREETS, PROVINCES, DOMAINS]);
    } finally {
      c.release();
    }
    await raw.query('VACUUM ANALYZE cliente');
    await raw.query('CHECKPOINT');
    const n = Number((await raw.query<{ n: string }>('SELECT count(*) AS n FROM cliente')).rows[0]!.n);
    console.log(`\ngrew the table to ${n} customers in ${((Date.now() - growStart) / 1000).toFixed(0)} s`);
    const { api, raw: rawRun } = await sideBySide(1, first, async (i) => ((await raw.query(first.sql, first.params[i])).rowCount ?? 0) > 0);
    const body = (await (await fetch(`${origin}${first.paths[0]}`, { headers: authHeaders })).json()) as { total: number; total_is_estimate: boolean };
    console.log(`  first page at ${n} rows: API p50 ${ms(api.p50)} p99 ${ms(api.p99)} ms, raw p50 ${ms(rawRun.p50)} p99 ${ms(rawRun.p99)} ms; `
      + `total answered ${body.total}${body.total_is_estimate ? ' (estimate)' : ''}`);
    figures.push({ figure: `first page p50 at ${n} rows`, value: api.p50, unit: 'ms', target: '<= 5 ms', met: api.p50 <= 5 });
    figures.push({ figure: `first page p50 API/raw at ${n} rows`, value: api.p50 / rawRun.p50, unit: 'x', target: '<= 2x', met: api.p50 / rawRun.p50 <= 2 });
  }
  for (const f of figures) recordFigure('api', f);
  if (failures) console.log(`warning: ${failures} requests failed during measurement (excluded from the numbers)`);
  if ([...results.values()].some((x) => x.capped)) console.log(`note: some phases hit the ${MAX_MS / 1000} s time cap; their n is below the requests asked`);
  console.log(`total run time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

await runBench(main, cleanups);

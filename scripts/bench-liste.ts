// npm run bench:liste — lists at brokerage scale (issue 35): 1 000 000 customers (BENCH_ROWS) and 5 000 000 titles
// (BENCH_TITLES), seeded with generate_series against DATABASE_URL (a scratch database, dropped at the end) or the
// embedded PostgreSQL. Every figure is printed beside page 1 of the same list and beside the hand-written keyset SQL for
// the same rows (the physical limit): page 1, a deep page and the last page by number, each sortable column both ways
// (by number and by cursor), a rare and a common search, a collaborator's title list, and the CSV/XLSX export.
import os from 'node:os';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cleanupStack, loginToken, ms, openBenchDatabase, recordFigure, startBenchApp, summarize, runBench } from './bench/lib.ts';
import { LOAD_SQL, loadParams } from './bench/clienti.ts';
import { encodeCursor } from '../src/server/resources/keyset.ts';

const ROWS = Number(process.env.BENCH_ROWS) || 1_000_000;
const TITLES = Number(process.env.BENCH_TITLES) || 5_000_000;
const COLLABORATORS = 50;
const REQUESTS = Number(process.env.BENCH_REQUESTS) || 40;
const BATCH = 200_000;
const PER_PAGE = 15;
const ADMIN_EMAIL = 'bench@local';
const ADMIN_PASSWORD = 'bench-password-1234';
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

const cleanups = cleanupStack();

// Titles: an instalment a month per policy (60 a policy), each policy's customer and collaborator repeated on its
// titles as the application writes them. Loaded with triggers off (session_replication_role): the policies themselves
// are not seeded, only the title table's rows are listed here.
const TITLES_SQL = `
INSERT INTO titolo (polizza_id, cliente_id, collaboratore_id, numero_rata, data_inizio, data_fine, premio, stato, saldato, created_at, updated_at)
SELECT 1 + (g - 1) / 60, 1 + ((g - 1) / 60 * 7919) % $3::int, 1 + ((g - 1) / 60) % $4::int, 1 + (g - 1) % 60,
       date '2020-01-01' + (((g - 1) % 60) * 30 + ((g - 1) / 60) % 28)::int, date '2020-01-31' + (((g - 1) % 60) * 30 + ((g - 1) / 60) % 28)::int,
       10000 + (g * 7) % 90000, CASE WHEN g % 3 = 0 THEN 'GIACENZA' ELSE 'PAGATO' END, g % 3 <> 0, now(), now()
FROM generate_series($1::bigint, $2::bigint) g`;

async function main(): Promise<void> {
  const t0 = Date.now();
  console.log(`machine: ${os.cpus().length} cores, load ${load()}`);
  const { database, raw, mode } = await openBenchDatabase({ prefix: 'bench_liste', env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1', PG_LOG: '0' }, cleanups });
  console.log(`database: ${mode}`);
  const trigram = (await raw.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)).rowCount === 1;
  console.log(`pg_trgm: ${trigram ? 'installed' : 'missing (search scans)'}`);

  const loadStart = Date.now();
  await raw.query('SELECT setseed(0.42)');
  for (let done = 0; done < ROWS; done += BATCH) {
    await raw.query(LOAD_SQL, loadParams(Math.min(BATCH, ROWS - done)));
    process.stdout.write(`\r  loaded ${Math.min(done + BATCH, ROWS)} customers`);
  }
  const firstCollaborator = Number((await raw.query<{ id: number }>(`INSERT INTO collaboratore (sesso, nome, cognome, tipo, email)
    SELECT 'M', 'AGENTE', 'BENCH ' || g, 'AGENTE', 'agente' || g || '@bench.local' FROM generate_series(1, ${COLLABORATORS}) g RETURNING id`)).rows[0]!.id);
  const client = await raw.connect();
  try {
    await client.query('SET session_replication_role = replica');
    for (let done = 0; done < TITLES; done += BATCH) {
      await client.query(TITLES_SQL.replace('1 + ((g - 1) / 60) % $4::int', `${firstCollaborator} + ((g - 1) / 60) % $4::int`), [done + 1, Math.min(done + BATCH, TITLES), ROWS, COLLABORATORS]);
      process.stdout.write(`\r  loaded ${Math.min(done + BATCH, TITLES)} titles   `);
    }
    await client.query('SET session_replication_role = DEFAULT');
  } finally {
    client.release();
  }
  // Loaded with triggers off: the title table's generation (db/list-generation.ts) is moved as its triggers would have.
  await raw.query(`UPDATE lista_generazione SET cambi = cambi + 1 WHERE tabella = 'titolo' AND shard = 0`);
  await raw.query('VACUUM ANALYZE cliente');
  await raw.query('VACUUM ANALYZE titolo');
  await raw.query('CHECKPOINT');
  console.log(`\nloaded ${ROWS} customers and ${TITLES} titles in ${((Date.now() - loadStart) / 1000).toFixed(0)} s (with vacuum analyze)`);

  const { origin, app } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { Authorization: `Bearer ${token}` };
  const user = await fetch(`${origin}/api/utente`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'collab@bench.local', name: 'Collab Bench', password: ADMIN_PASSWORD, ruoli: ['collaboratore'], collaboratore_id: firstCollaborator }),
  });
  if (user.status !== 201) throw new Error(`collaborator user: ${user.status} ${await user.text()}`);
  const collabHeaders = { Authorization: `Bearer ${await loginToken(origin, 'collab@bench.local', ADMIN_PASSWORD)}` };

  /** p50/p99 of `requests` sequential GETs (after 5 warm-ups); each must answer 200 with rows. */
  const measure = async (path: string, h = headers, before?: () => Promise<void>) => {
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS + 5; i++) {
      await before?.();
      const started = performance.now();
      const response = await fetch(`${origin}${path}`, { headers: h });
      const body = (await response.json()) as { data?: unknown[] };
      if (response.status !== 200 || !body.data?.length) throw new Error(`${path}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      if (i >= 5) latencies.push(performance.now() - started);
      // Between writes, a deep page's anchors are there: the first request started their walk (made beside requests).
      if (i === 0 && !before) await app.ctx.cache.anchors.settled();
    }
    return summarize({ latencies: Float64Array.from(latencies), elapsedMs: 0, errors: 0, capped: false });
  };
  const rawSql = async (text: string, params: unknown[]) => {
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS + 5; i++) {
      const started = performance.now();
      const result = await raw.query(text, params);
      if (!result.rowCount) throw new Error(`no rows: ${text}`);
      if (i >= 5) latencies.push(performance.now() - started);
    }
    return summarize({ latencies: Float64Array.from(latencies), elapsedMs: 0, errors: 0, capped: false });
  };
  /**
   * The hand-written keyset query for the page at `offset` of `table` ordered by `column` (and id) and `where`: a seek
   * after the row before that page, found once with OFFSET. The physical limit of a page at that depth.
   */
  const keysetAt = async (tableName: string, column: string, desc: boolean, offset: number, limit: number, where = 'true', params: unknown[] = []) => {
    const direction = desc ? 'DESC' : 'ASC';
    const order = column === 'id' ? `id ${direction}` : `"${column}" ${direction}, id ${direction}`;
    const before = (await raw.query(`SELECT * FROM ${tableName} WHERE ${where} ORDER BY ${order} OFFSET ${offset - 1} LIMIT 1`, params)).rows[0] as Record<string, unknown>;
    const n = params.length;
    if (column === 'id') return rawSql(`SELECT * FROM ${tableName} WHERE ${where} AND id ${desc ? '<' : '>'} $${n + 1} ORDER BY ${order} LIMIT ${limit}`, [...params, before.id]);
    if (before[column] === null) {
      return rawSql(`SELECT * FROM ${tableName} WHERE ${where} AND "${column}" IS NULL AND id ${desc ? '<' : '>'} $${n + 1} ORDER BY ${order} LIMIT ${limit}`, [...params, before.id]);
    }
    return rawSql(`SELECT * FROM ${tableName} WHERE ${where} AND ("${column}", id) ${desc ? '<' : '>'} ($${n + 1}, $${n + 2}) ORDER BY ${order} LIMIT ${limit}`, [...params, before[column], before.id]);
  };
  const table: string[] = [];
  const row = (label: string, api: { p50: number; p99: number }, first: { p50: number; p99: number }, keyset?: { p50: number }) => {
    const line = `| ${label} | ${ms(api.p50)} | ${ms(api.p99)} | ${(api.p50 / first.p50).toFixed(1)}x / ${(api.p99 / first.p99).toFixed(1)}x | ${keyset ? ms(keyset.p50) : '-'} |`;
    table.push(line);
    console.log(line);
    return line;
  };
  console.log(`\nlists, ${PER_PAGE} a page, ${REQUESTS} sequential requests each (load ${load()}):`);
  console.log('| request | p50 ms | p99 ms | vs page 1 (p50 / p99) | keyset SQL p50 ms |');

  // Customers: page 1, deep and last page by number (OFFSET, ids read first), each sortable column both ways.
  const first = await measure(`/api/cliente?per_page=${PER_PAGE}`);
  row('cliente page 1 (-id)', first, first, await rawSql('SELECT * FROM cliente ORDER BY id DESC LIMIT 15', []));
  const deep = Math.floor(ROWS / PER_PAGE / 6);
  row(`cliente page ${deep} (-id)`, await measure(`/api/cliente?per_page=${PER_PAGE}&page=${deep}`), first, await keysetAt('cliente', 'id', true, (deep - 1) * PER_PAGE, PER_PAGE));
  const middlePage = Math.floor(ROWS / PER_PAGE / 2);
  row(`cliente page ${middlePage} (-id)`, await measure(`/api/cliente?per_page=${PER_PAGE}&page=${middlePage}`), first, await keysetAt('cliente', 'id', true, (middlePage - 1) * PER_PAGE, PER_PAGE));
  const lastPage = Math.ceil(ROWS / PER_PAGE);
  row(`cliente last page ${lastPage} (-id)`, await measure(`/api/cliente?per_page=${PER_PAGE}&page=${lastPage}`), first, await keysetAt('cliente', 'id', true, (lastPage - 1) * PER_PAGE, PER_PAGE));
  const depth = Math.floor(ROWS / 2);
  for (const column of ['id', 'cognome', 'nome', 'cf', 'dataNascita']) {
    for (const desc of [false, true]) {
      const sort = `${desc ? '-' : ''}${column}`;
      const order = column === 'id' ? [sort] : [sort, desc ? '-id' : 'id'];
      const pageOne = await measure(`/api/cliente?per_page=${PER_PAGE}&sort=${sort}`);
      row(`cliente sort=${sort} page 1`, pageOne, first, await rawSql(`SELECT * FROM cliente ORDER BY ${column === 'id' ? '' : `"${column}" ${desc ? 'DESC' : 'ASC'}, `}id ${desc ? 'DESC' : 'ASC'} LIMIT ${PER_PAGE}`, []));
      row(`cliente sort=${sort} page ${deep}`, await measure(`/api/cliente?per_page=${PER_PAGE}&sort=${sort}&page=${deep}`), pageOne, await keysetAt('cliente', column, desc, (deep - 1) * PER_PAGE, PER_PAGE));
      row(`cliente sort=${sort} page ${middlePage}`, await measure(`/api/cliente?per_page=${PER_PAGE}&sort=${sort}&page=${middlePage}`), pageOne, await keysetAt('cliente', column, desc, (middlePage - 1) * PER_PAGE, PER_PAGE));
      row(`cliente sort=${sort} last page`, await measure(`/api/cliente?per_page=${PER_PAGE}&sort=${sort}&page=${lastPage}`), pageOne, await keysetAt('cliente', column, desc, (lastPage - 1) * PER_PAGE, PER_PAGE));
      // A cursor half way down, on a row whose value is there (the hand-written seek ignores nulls).
      const at = (await raw.query(`SELECT * FROM cliente WHERE "${column}" IS NOT NULL ORDER BY "${column}" ${desc ? 'DESC' : 'ASC'}, id ${desc ? 'DESC' : 'ASC'} OFFSET ${Math.floor(depth * 0.8)} LIMIT 1`)).rows[0] as Record<string, unknown>;
      const cursor = encodeCursor(order, at);
      const keyset = column === 'id'
        ? await rawSql(`SELECT * FROM cliente WHERE id ${desc ? '<' : '>'} $1 ORDER BY id ${desc ? 'DESC' : 'ASC'} LIMIT 15`, [at.id])
        : desc
          ? await rawSql(`SELECT * FROM cliente WHERE ("${column}", id) < ($1, $2) ORDER BY "${column}" DESC, id DESC LIMIT 15`, [at[column], at.id])
          : await rawSql(`SELECT * FROM cliente WHERE ("${column}", id) > ($1, $2) ORDER BY "${column}", id LIMIT 15`, [at[column], at.id]);
      row(`cliente sort=${sort} cursor at ${Math.floor(depth * 0.8)}`, await measure(`/api/cliente?per_page=${PER_PAGE}&sort=${sort}&cursor=${encodeURIComponent(cursor)}`), pageOne, keyset);
    }
  }
  // The price of a write: each request below follows a change of a sorted column, so it skips its offset while the
  // anchors are walked again beside it.
  let moved = 0;
  const afterWrite = await measure(`/api/cliente?per_page=${PER_PAGE}&sort=cognome&page=${middlePage}`, headers, async () => {
    await raw.query(`UPDATE cliente SET "dataNascita" = coalesce("dataNascita", date '1980-01-01') + 1 WHERE id = $1`, [1 + (moved++ % 1000)]);
  });
  row(`cliente sort=cognome page ${middlePage}, a write to the table before each`, afterWrite, first);
  const cf = (await raw.query<{ cf: string }>('SELECT cf FROM cliente WHERE cf IS NOT NULL ORDER BY id OFFSET $1 LIMIT 1', [Math.floor(ROWS / 8)])).rows[0]!.cf;
  row(`cliente search rare (${cf})`, await measure(`/api/cliente?per_page=${PER_PAGE}&search=${encodeURIComponent(cf)}`), first);
  row('cliente search common (ross)', await measure(`/api/cliente?per_page=${PER_PAGE}&search=ross`), first);

  // Titles: the collaborator's own list (row scope), first, deep and by cursor; the admin's filter on one collaborator.
  const titlesPath = '/api/titolo';
  const titlesFirst = await measure(`${titlesPath}?per_page=50`, collabHeaders);
  row('titolo (collaborator) page 1', titlesFirst, titlesFirst,
    await rawSql('SELECT * FROM titolo WHERE collaboratore_id = $1 ORDER BY id DESC LIMIT 50', [firstCollaborator]));
  const scopedRows = Number((await raw.query<{ n: string }>('SELECT count(*) AS n FROM titolo WHERE collaboratore_id = $1', [firstCollaborator])).rows[0]!.n);
  const middle = Math.ceil(scopedRows / 100);
  row(`titolo (collaborator, ${scopedRows} rows) page ${middle}`, await measure(`${titlesPath}?per_page=50&page=${middle}`, collabHeaders), titlesFirst,
    await keysetAt('titolo', 'id', true, (middle - 1) * 50, 50, 'collaboratore_id = $1', [firstCollaborator]));
  row(`titolo (collaborator) last page ${Math.ceil(scopedRows / 50)}`, await measure(`${titlesPath}?per_page=50&page=${Math.ceil(scopedRows / 50)}`, collabHeaders), titlesFirst,
    await keysetAt('titolo', 'id', true, (Math.ceil(scopedRows / 50) - 1) * 50, 50, 'collaboratore_id = $1', [firstCollaborator]));
  const tAt = (await raw.query('SELECT * FROM titolo WHERE collaboratore_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1', [firstCollaborator, Math.floor(scopedRows * 0.9)])).rows[0] as Record<string, unknown>;
  row('titolo (collaborator) cursor at 90%', await measure(`${titlesPath}?per_page=50&cursor=${encodeURIComponent(encodeCursor(['-id'], tAt))}`, collabHeaders), titlesFirst,
    await rawSql('SELECT * FROM titolo WHERE collaboratore_id = $1 AND id < $2 ORDER BY id DESC LIMIT 50', [firstCollaborator, tAt.id]));
  const titlesAll = await measure(`${titlesPath}?per_page=50`);
  row('titolo (admin) page 1', titlesAll, titlesAll, await rawSql('SELECT * FROM titolo ORDER BY id DESC LIMIT 50', []));
  row(`titolo (admin) page ${Math.floor(TITLES / 100)}`, await measure(`${titlesPath}?per_page=50&page=${Math.floor(TITLES / 100)}`), titlesAll,
    await keysetAt('titolo', 'id', true, (Math.floor(TITLES / 100) - 1) * 50, 50));
  row(`titolo (admin) sort=data_fine last page`, await measure(`${titlesPath}?per_page=50&sort=data_fine&page=${Math.ceil(TITLES / 50)}`), titlesAll,
    await keysetAt('titolo', 'data_fine', false, (Math.ceil(TITLES / 50) - 1) * 50, 50));
  const filteredPath = `${titlesPath}?per_page=50&filter[collaboratore_id]=${firstCollaborator + 1}&sort=data_fine`;
  const filteredFirst = await measure(filteredPath);
  row('titolo (admin) filter collaboratore, sort data_fine, page 1', filteredFirst, filteredFirst,
    await rawSql('SELECT * FROM titolo WHERE collaboratore_id = $1 ORDER BY data_fine, id LIMIT 50', [firstCollaborator + 1]));
  row(`titolo (admin) filter collaboratore, sort data_fine, page ${middle}`, await measure(`${filteredPath}&page=${middle}`), filteredFirst,
    await keysetAt('titolo', 'data_fine', false, (middle - 1) * 50, 50, 'collaboratore_id = $1', [firstCollaborator + 1]));
  const filteredRows = Number((await raw.query<{ n: string }>('SELECT count(*) AS n FROM titolo WHERE collaboratore_id = $1', [firstCollaborator + 1])).rows[0]!.n);
  row(`titolo (admin) filter collaboratore, sort data_fine, last page`, await measure(`${filteredPath}&page=${Math.ceil(filteredRows / 50)}`), filteredFirst,
    await keysetAt('titolo', 'data_fine', false, (Math.ceil(filteredRows / 50) - 1) * 50, 50, 'collaboratore_id = $1', [firstCollaborator + 1]));

  // Export of every customer: rows/s and the process's resident memory above what it was before.
  for (const format of ['csv', 'xlsx'] as const) {
    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
    const started = performance.now();
    const response = await fetch(`${origin}/api/cliente/export?format=${format}`, { headers });
    let bytes = 0;
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.length;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rowsPerSecond = ROWS / seconds;
    const line = `| export ${format} ${ROWS} rows | ${seconds.toFixed(1)} s | ${(bytes / 1e6).toFixed(0)} MB | ${rowsPerSecond.toFixed(0)} rows/s | +${((peak - idle) / 1e6).toFixed(0)} MB RSS (app and bench in one process) |`;
    table.push(line);
    console.log(line);
    recordFigure('liste', { figure: `export ${format} rows/s`, value: rowsPerSecond, unit: 'rows/s', target: format === 'csv' ? '>= 200000' : '>= 50000', met: rowsPerSecond >= (format === 'csv' ? 200_000 : 50_000) });
  }
  // The same exports from the app alone: the production entry in a process of its own, its resident memory read
  // from /proc while it streams (above: app and bench share one process, so the bench's own reading counts too).
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, DATABASE_URL: String(raw.options.connectionString), PORT: '0', LOG_LEVEL: 'silent', SCHEDULER_TICK_MS: '0', SEED_DEMO: '', PG_LOG: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push('app process', async () => { child.kill('SIGTERM'); });
  const childOrigin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`app process ended (${code}): ${out.slice(-500)}`)));
  });
  const rss = async () => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;
  const download = async (path: string) => {
    const response = await fetch(`${childOrigin}${path}`, { headers });
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) { /* read and dropped */ }
  };
  // Warmed as a server that has been up a while: an export of the common word's 70 000-odd matches in each format.
  for (const format of ['csv', 'xlsx'] as const) await download(`/api/cliente/export?format=${format}&search=ross`);
  for (const format of ['csv', 'xlsx'] as const) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = await rss();
    let peak = idle;
    let sampling = true;
    const sampler = (async () => { while (sampling) { peak = Math.max(peak, await rss()); await new Promise((resolve) => setTimeout(resolve, 20)); } })();
    const started = performance.now();
    await download(`/api/cliente/export?format=${format}`);
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    const above = (peak - idle) / 1e6;
    const line = `| export ${format} ${ROWS} rows, app process alone | ${seconds.toFixed(1)} s | - | ${(ROWS / seconds).toFixed(0)} rows/s | idle ${(idle / 1e6).toFixed(0)} MB, peak +${above.toFixed(0)} MB RSS |`;
    table.push(line);
    console.log(line);
    recordFigure('liste', { figure: `export ${format} memory above idle (app process)`, value: above, unit: 'MB', target: '< 100', met: above < 100 });
  }
  child.kill('SIGTERM');

  console.log(`\nload at the end: ${load()}; total run time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

await runBench(main, cleanups);

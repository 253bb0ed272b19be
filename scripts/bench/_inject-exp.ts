import { cleanupStack, closedLoop, loginToken, openBenchDatabase, startBenchApp, startHttpLoad, summarize, ms } from './lib.ts';
const cleanups = cleanupStack();
try {
  const { database, raw } = await openBenchDatabase({ prefix: 'inject_exp', env: { ...process.env, ADMIN_EMAIL: 'bench@local', ADMIN_PASSWORD: 'bench-password-1234', PG_LOG: '0' }, cleanups, log: () => {} });
  await raw.query(`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) SELECT 'RETAIL', 'M', 'MARIO', 'ROSSI' || g, true FROM generate_series(1, 1000) g`);
  const ids = (await raw.query<{ id: number }>('SELECT id FROM cliente ORDER BY id')).rows.map((r) => r.id);
  const { app, port, origin } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, 'bench@local', 'bench-password-1234');
  const load = startHttpLoad(); cleanups.push('load', () => load.close());
  const n = 3000;
  const paths = Array.from({ length: n + 300 }, (_, i) => `/api/cliente/${ids[i % ids.length]}`);
  const sql = `SELECT "cliente".*, (SELECT x FROM (SELECT 1 AS x) s) AS "collaboratore_id__label" FROM "cliente" WHERE id = $1`;
  const rows = await raw.query('SELECT 1'); void rows;
  for (let round = 0; round < 2; round++) for (const c of [1, 8]) {
    const opts = { concurrency: c, warmup: 300, requests: n, warmupMaxMs: 5000, maxMs: 20000 };
    const http = summarize(await load.run({ ...opts, host: '127.0.0.1', port, token, paths }));
    const inj = summarize(await closedLoop(opts, async (i) => (await app.inject({ method: 'GET', url: paths[i]!, headers: { authorization: `Bearer ${token}` } })).statusCode === 200));
    const r = summarize(await closedLoop(opts, async (i) => ((await raw.query('SELECT * FROM cliente WHERE id = $1', [ids[i % ids.length]])).rowCount ?? 0) > 0));
    for (const [k, s] of [['http', http], ['inject', inj], ['raw', r]] as const) console.log(`c=${c} ${k.padEnd(7)} p50 ${ms(s.p50)} p99 ${ms(s.p99)} ${s.perSecond.toFixed(0)}/s`);
  }
  void sql;
} finally { await cleanups.run(); }

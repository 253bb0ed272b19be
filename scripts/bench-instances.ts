// npm run bench:instances — the same load (get by id and list pages of 20 000 customers, concurrency 8) against one app
// instance and then two, each a process of its own on the same database, requests sent round-robin as a load balancer would.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cleanupStack, loginToken, ms, openBenchDatabase, recordFigure, runBench, seeded, startHttpLoad, summarize, type Summary,
} from './bench/lib.ts';
import { domains } from '../src/server/domains/index.ts';

const SELF = fileURLToPath(import.meta.url);
const ROWS = Number(process.env.BENCH_ROWS) || 20_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS) || 4000;
const CONCURRENCY = 8;
// Warm-up requests per instance: V8 optimises the API's path over thousands of requests (bench-api.ts), and two instances
// given the warm-up of one each measured half-optimised code, slower than one instance.
const WARMUP_PER_INSTANCE = 3000;
const MAX_MS = (Number(process.env.BENCH_MAX_SECONDS) || 15) * 1000;
const ADMIN_EMAIL = 'bench@local';
const ADMIN_PASSWORD = 'bench-password-1234';

/** One instance: its own process, pool and cache, on the given database. */
async function serve(): Promise<void> {
  const { tuneRuntime } = await import('../src/server/runtime.ts');
  tuneRuntime();
  const { loadAll } = await import('../src/server/bootstrap.ts');
  const { connect } = await import('../src/server/db/connection.ts');
  const { buildApp } = await import('../src/server/app.ts');
  const { PROJECT_ROOT } = await import('../src/server/server.ts');
  const { definitions } = await loadAll(path.join(PROJECT_ROOT, 'schemas'));
  const connection = connect(process.env.DATABASE_URL!);
  const app = await buildApp({ domains, db: connection.db, definitions, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port });
  process.on('message', async () => {
    await app.close();
    await connection.close();
    process.exit(0);
  });
}

async function startInstance(url: string): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(SELF, [], { env: { ...process.env, BENCH_INSTANCE_SERVE: '1', DATABASE_URL: url }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return { child, port: message.port };
}

async function main(): Promise<void> {
  const cleanups = cleanupStack();
  try {
    const { database, raw, mode } = await openBenchDatabase({ prefix: 'bench_instances', env: { ...process.env, ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1', PG_LOG: '0' }, cleanups, log: () => {} });
    await raw.query(`INSERT INTO cliente (tipo, sesso, nome, cognome, email, attivo)
      SELECT 'RETAIL', 'M', 'MARIO', 'ROSSI ' || g, 'mario' || g || '@example.it', true FROM generate_series(1, $1::int) g`, [ROWS]);
    await raw.query('VACUUM ANALYZE cliente');
    const { lo, hi } = (await raw.query<{ lo: number; hi: number }>('SELECT min(id) AS lo, max(id) AS hi FROM cliente')).rows[0]!;
    const url = (database.connection.pool.options as { connectionString: string }).connectionString;
    const rnd = seeded(7);
    const paths = Array.from({ length: REQUESTS + 2 * WARMUP_PER_INSTANCE }, (_, i) => (i % 4 === 3
      ? `/api/cliente?page=${1 + Math.floor(rnd() * 50)}&per_page=15`
      : `/api/cliente/${lo + Math.floor(rnd() * (hi - lo + 1))}`));
    const load = startHttpLoad();
    cleanups.push('load', () => load.close());
    const results: Array<{ n: number; s: Summary }> = [];
    for (const n of [1, 2]) {
      const instances = await Promise.all(Array.from({ length: n }, () => startInstance(url)));
      try {
        const token = await loginToken(`http://127.0.0.1:${instances[0]!.port}`, ADMIN_EMAIL, ADMIN_PASSWORD);
        const ports = instances.map((i) => i.port);
        const run = await load.run({ concurrency: CONCURRENCY, warmup: n * WARMUP_PER_INSTANCE, requests: REQUESTS, warmupMaxMs: 10_000, maxMs: MAX_MS, host: '127.0.0.1', port: ports[0]!, ports, token, paths });
        const s = summarize(run);
        results.push({ n, s });
        console.log(`${n} instance${n > 1 ? 's' : ''}: n=${s.n}${s.capped ? ' (time cap)' : ''}${s.errors ? ` errors=${s.errors}` : ''}, ${s.perSecond.toFixed(0)} req/s, p50 ${ms(s.p50)} p99 ${ms(s.p99)} ms`);
      } finally {
        for (const i of instances) {
          i.child.send('stop');
          await once(i.child, 'exit');
        }
      }
    }
    const [one, two] = [results[0]!.s, results[1]!.s];
    console.log(`\n${mode}, ${ROWS} customers, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`mix: 3 of 4 get by id, 1 of 4 list page; concurrency ${CONCURRENCY}; the load generator, PostgreSQL and the instances share the same ${os.cpus().length} cores`);
    recordFigure('instances', { figure: 'one instance, req/s', value: Math.round(one.perSecond), unit: 'req/s', target: 'reported', met: one.errors === 0 });
    recordFigure('instances', { figure: 'two instances, req/s', value: Math.round(two.perSecond), unit: 'req/s', target: 'reported', met: two.errors === 0 });
    recordFigure('instances', { figure: 'two instances over one', value: two.perSecond / one.perSecond, unit: 'x', target: 'reported (no gain expected on 2 cores)', met: two.errors === 0 });
  } finally {
    await cleanups.run();
  }
}

if (process.env.BENCH_INSTANCE_SERVE === '1') await serve();
else await runBench(main);

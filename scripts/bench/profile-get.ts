// Profiling aid for the get-by-id path: npx tsx scripts/bench/profile-get.ts [out.cpuprofile], then read it with
// scripts/bench/cpuprofile-top.ts. The server's thread is profiled only while the load runs (start-up, module loading
// and schema compiling would otherwise crowd the top). Not a benchmark (no raw side); bench-api.ts measures.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { cleanupStack, loginToken, openBenchDatabase, startBenchApp, startHttpLoad } from './lib.ts';

const out = process.argv[2] ?? 'get.cpuprofile';
const cleanups = cleanupStack();
try {
  const { database, raw } = await openBenchDatabase({
    prefix: 'profile_get', env: { ...process.env, ADMIN_EMAIL: 'bench@local', ADMIN_PASSWORD: 'bench-password-1234', PG_LOG: '0' }, cleanups, log: () => {},
  });
  await raw.query(`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) SELECT 'RETAIL', 'M', 'MARIO', 'ROSSI' || g, true FROM generate_series(1, 1000) g`);
  const ids = (await raw.query<{ id: number }>('SELECT id FROM cliente ORDER BY id')).rows.map((r) => r.id);
  const { port, origin } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, 'bench@local', 'bench-password-1234');
  const load = startHttpLoad();
  cleanups.push('load', () => load.close());
  const n = Number(process.env.PROFILE_REQUESTS) || 20000;
  const paths = Array.from({ length: n + 200 }, (_, i) => `/api/cliente/${ids[i % ids.length]}`);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await load.run({ concurrency: 8, warmup: 200, requests: n, warmupMaxMs: 5000, maxMs: 60000, host: '127.0.0.1', port, token, paths });
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  console.log(`${result.latencies.length} requests in ${result.elapsedMs.toFixed(0)} ms (${(result.latencies.length / result.elapsedMs * 1000).toFixed(0)}/s), ${result.errors} errors; `
    + `profile of the server's thread in ${out}: npx tsx scripts/bench/cpuprofile-top.ts ${out}`);
} finally {
  await cleanups.run();
}

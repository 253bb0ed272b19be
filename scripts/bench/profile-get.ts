// Profiling aid for the get-by-id and first-page paths: npx tsx scripts/bench/profile-get.ts [out.cpuprofile] [get|first],
// then read it with scripts/bench/cpuprofile-top.ts. The server's thread is profiled only while the load runs (start-up,
// module loading and schema compiling would otherwise crowd the top). Not a benchmark (no raw side); bench-api.ts measures.
// 'first' asks page 1 of a table above EXACT_TOTAL_LIMIT, so its total is the estimate the instance keeps, as at scale.
// PROFILE_HEAP=1: a sampling heap profile instead (every allocation, also what GC already freed), with the bytes
// allocated per request by the heaviest sites: what feeds the GC pauses in the p99.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { cleanupStack, loginToken, openBenchDatabase, startBenchApp, startHttpLoad } from './lib.ts';

const out = process.argv[2] ?? 'get.cpuprofile';
const route = process.argv[3] ?? 'get';
if (route !== 'get' && route !== 'first') throw new Error(`route ${route}: get or first`);
const rowCount = route === 'first' ? 20_000 : 1000;
interface HeapNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: HeapNode[] }

/** Bytes allocated per request, in all and by the heaviest allocating functions (self). */
function heapSummary(profile: { head: HeapNode }, requests: number): void {
  const bySite = new Map<string, number>();
  let all = 0;
  const walk = (node: HeapNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/src\//, 'src/')}:${lineNumber + 1}`;
    bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    all += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  console.log(`allocated ${(all / requests / 1024).toFixed(1)} KB per request (sampled); heaviest sites:`);
  for (const [key, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP) || 25)) {
    console.log(`${(bytes / requests / 1024).toFixed(2).padStart(8)} KB/req  ${key}`);
  }
}

const cleanups = cleanupStack();
try {
  const { database, raw } = await openBenchDatabase({
    prefix: 'profile_get', env: { ...process.env, ADMIN_EMAIL: 'bench@local', ADMIN_PASSWORD: 'bench-password-1234', PG_LOG: '0' }, cleanups, log: () => {},
  });
  await raw.query(`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) SELECT 'RETAIL', 'M', 'MARIO', 'ROSSI' || g, true FROM generate_series(1, $1::int) g`, [rowCount]);
  await raw.query('VACUUM ANALYZE cliente');
  const ids = (await raw.query<{ id: number }>('SELECT id FROM cliente ORDER BY id')).rows.map((r) => r.id);
  const { port, origin } = await startBenchApp(database, cleanups);
  const token = await loginToken(origin, 'bench@local', 'bench-password-1234');
  const load = startHttpLoad();
  cleanups.push('load', () => load.close());
  const n = Number(process.env.PROFILE_REQUESTS) || 20000;
  const concurrency = Number(process.env.PROFILE_CONCURRENCY) || 8;
  const paths = Array.from({ length: n + 200 }, (_, i) => (route === 'get' ? `/api/cliente/${ids[i % ids.length]}` : '/api/cliente?page=1&per_page=15&sort=-id'));
  const session = new Session();
  session.connect();
  const heap = process.env.PROFILE_HEAP === '1';
  if (heap) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  } else {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const result = await load.run({ concurrency, warmup: 200, requests: n, warmupMaxMs: 5000, maxMs: 60000, host: '127.0.0.1', port, token, paths });
  if (heap) {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(out, JSON.stringify(profile));
    heapSummary(profile, n + 200);
  } else {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(out, JSON.stringify(profile));
  }
  session.disconnect();
  console.log(`${result.latencies.length} requests in ${result.elapsedMs.toFixed(0)} ms (${(result.latencies.length / result.elapsedMs * 1000).toFixed(0)}/s), ${result.errors} errors; `
    + `profile of the server's thread in ${out}: npx tsx scripts/bench/cpuprofile-top.ts ${out}`);
} finally {
  await cleanups.run();
}

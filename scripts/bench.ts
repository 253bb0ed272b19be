// npm run bench — every benchmark under scripts/, one after the other (they share 2 cores: never in parallel), and one
// JSON summary of every figure against its target (bench-summary.json, or BENCH_SUMMARY), to compare one change with the next.
// BENCH_ONLY=api,start runs a subset.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCHES: Array<{ name: string; script: string; env?: Record<string, string> }> = [
  { name: 'api', script: 'scripts/bench-api.ts' },
  { name: 'quotations', script: 'scripts/bench-quotations.ts' },
  // per_page=-1 on 200 000 rows: the memory the stream adds.
  { name: 'stream', script: 'scripts/bench-polizze.ts', env: { BENCH_ROWS: '200000' } },
  { name: 'import', script: 'scripts/bench-import.ts' },
  { name: 'upload', script: 'scripts/bench-upload.ts' },
  { name: 'start', script: 'scripts/bench-start.ts' },
  { name: 'instances', script: 'scripts/bench-instances.ts' },
  { name: 'bundle', script: 'scripts/bench-form/bundle-size.ts' },
  { name: 'form', script: 'scripts/bench-form.ts' },
];

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const out = path.resolve(process.env.BENCH_SUMMARY ?? path.join(ROOT, 'bench-summary.json'));
const lines = path.join(os.tmpdir(), `bench-figures-${process.pid}.jsonl`);
rmSync(lines, { force: true });

const runs: Array<{ bench: string; exit_code: number | null; seconds: number }> = [];
for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) {
  console.log(`\n=== ${bench.name}: ${bench.script}`);
  const t0 = performance.now();
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [bench.script], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...bench.env, BENCH_SUMMARY_FILE: lines },
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  runs.push({ bench: bench.name, exit_code: code, seconds: Math.round((performance.now() - t0) / 1000) });
}

const figures = existsSync(lines) ? readFileSync(lines, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
rmSync(lines, { force: true });
const summary = {
  at: new Date().toISOString(),
  machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, load_average_at_end: os.loadavg() },
  runs,
  figures,
  met: figures.filter((f) => f.met === true).length,
  not_met: figures.filter((f) => f.met !== true).length,
};
writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\n${figures.length} figures, ${summary.met} met, ${summary.not_met} not met; failed benchmarks: ${runs.filter((r) => r.exit_code !== 0).map((r) => r.bench).join(', ') || 'none'}`);
for (const f of figures) console.log(`  ${f.met ? 'MET    ' : 'NOT MET'} ${f.bench}: ${f.figure} = ${f.value} ${f.unit} (target ${f.target})`);
console.log(`summary written to ${out}`);
process.exit(runs.some((r) => r.exit_code !== 0) ? 1 : 0);

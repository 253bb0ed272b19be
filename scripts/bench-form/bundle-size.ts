// Gzip size of the JavaScript each route loads, from dist/.vite/manifest.json; fails if the login route is over budget
// or pulls in AG Grid or rjsf, and what each route is made of by package. Usage: npx vite build && npx tsx scripts/bench-form/bundle-size.ts
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { recordFigure } from '../bench/lib.ts';
import { PACKAGES_FILE, type PackageSizes } from './package-sizes.ts';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const LOGIN_BUDGET_KB = 120;
const LIST_BUDGET_KB = 250;

interface Chunk {
  file: string;
  imports?: string[];
  css?: string[];
}
const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;

/** Entry plus the lazy modules a route opens, with everything they import statically. */
function closure(keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the manifest: ${key}`);
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

// Written by the packageSizes plugin of vite.config.ts.
const packages = JSON.parse(readFileSync(path.join(DIST, PACKAGES_FILE), 'utf8')) as PackageSizes;

/** Gzip bytes per package over a route's files: each file's real gzip size shared out by its packages' own gzip sizes. */
function byPackage(sizes: Map<string, number>): [string, number][] {
  const total = new Map<string, number>();
  for (const [file, size] of sizes) {
    const parts = Object.entries(packages[file] ?? { '?': 1 });
    const whole = parts.reduce((sum, [, bytes]) => sum + bytes, 0);
    for (const [name, bytes] of parts) total.set(name, (total.get(name) ?? 0) + (size * bytes) / whole);
  }
  return [...total].sort((a, b) => b[1] - a[1]);
}

const gz = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const routes: Record<string, string[]> = {
  'login (/login)': ['index.html', 'shell/LoginPage.tsx'],
  'customer list (/cliente)': ['index.html', 'shell/MainLayout.tsx', 'shell/ResourceRoute.tsx', 'renderer/ResourceListPage.tsx'],
  'customer form (/modifica/cliente/:id)': ['index.html', 'shell/MainLayout.tsx', 'shell/ResourceRoute.tsx', 'renderer/ResourceFormPage.tsx'],
};

let failed = false;
for (const [label, keys] of Object.entries(routes)) {
  const files = [...closure(keys)];
  const sizes = new Map(files.map((f) => [f, gz(f)]));
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  console.log(`${label.padEnd(40)} ${kb(total).padStart(9)} gzip JS in ${files.length} files`);
  // Where a route's weight is: its largest files (the entry, the grid, the form engine).
  for (const [file, size] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 3)) console.log(`  ${file.padEnd(38)} ${kb(size).padStart(9)}`);
  // What the route is made of, package by package (estimated: see byPackage; "app" is the project's own code).
  console.log('  by package: ' + byPackage(sizes).slice(0, 8).map(([name, size]) => `${name} ${kb(size)}`).join(', '));
  const budget = label.startsWith('login') ? LOGIN_BUDGET_KB : label.startsWith('customer list') ? LIST_BUDGET_KB : undefined;
  if (budget) recordFigure('bundle', { figure: `${label} JavaScript, gzip`, value: Math.round(total / 102.4) / 10, unit: 'KB', target: `< ${budget} KB`, met: total / 1024 < budget });
  if (label.startsWith('login')) {
    const code = files.map((f) => readFileSync(path.join(DIST, f), 'utf8')).join('\n');
    // Markers only AG Grid and rjsf ship: the login route must not carry either.
    for (const marker of ['ag-root-wrapper', 'rjsf-field']) {
      if (code.includes(marker)) {
        console.log(`  login route contains "${marker}"`);
        failed = true;
      }
    }
    if (total / 1024 > LOGIN_BUDGET_KB) {
      console.log(`  over the ${LOGIN_BUDGET_KB} KB budget`);
      failed = true;
    }
  }
}
const css = Object.values(manifest).flatMap((c) => c.css ?? []);
for (const file of new Set(css)) console.log(`${'stylesheet ' + file}`.padEnd(40), kb(gz(file)).padStart(9), 'gzip CSS');
process.exitCode = failed ? 1 : 0;

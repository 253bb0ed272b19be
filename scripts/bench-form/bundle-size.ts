// Gzip size of the JavaScript each route loads, from dist/.vite/manifest.json; fails if the login route is over budget
// or pulls in AG Grid or rjsf (or the list route pulls AG Grid in before its rows show), and what each route is made of
// by package. Usage: npx vite build && npx tsx scripts/bench-form/bundle-size.ts
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

// Each route's static closure: what loads before its content is on screen. The list draws its first page in a plain
// table; AG Grid comes after (a lazy chunk), so it is counted in its own line, with the list, and not in the budget.
const LIST_ROUTE = ['index.html', 'shell/MainLayout.tsx', 'shell/ResourceRoute.tsx', 'renderer/ResourceListPage.tsx'];
const LOGIN = 'login (/login)';
const LIST = 'customer list (/cliente)';
const LIST_WITH_GRID = 'customer list with its lazy grid';
const routes: Record<string, string[]> = {
  [LOGIN]: ['index.html', 'shell/LoginPage.tsx'],
  [LIST]: LIST_ROUTE,
  [LIST_WITH_GRID]: [...LIST_ROUTE, 'renderer/ResourceGrid.tsx'],
  'customer form (/modifica/cliente/:id)': ['index.html', 'shell/MainLayout.tsx', 'shell/ResourceRoute.tsx', 'renderer/ResourceFormPage.tsx'],
};

const budgets: Record<string, number> = { [LOGIN]: LOGIN_BUDGET_KB, [LIST]: LIST_BUDGET_KB };
const forbidden: Record<string, string[]> = { [LOGIN]: ['ag-root-wrapper', 'rjsf-field'], [LIST]: ['ag-root-wrapper'] };

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
  const figure = { figure: `${label} JavaScript, gzip`, value: Math.round(total / 102.4) / 10, unit: 'KB' };
  const budget = budgets[label];
  if (budget) recordFigure('bundle', { ...figure, target: `< ${budget} KB`, met: total / 1024 < budget });
  else if (label === LIST_WITH_GRID) recordFigure('bundle', { ...figure, target: 'reported', met: true });
  const code = files.map((f) => readFileSync(path.join(DIST, f), 'utf8')).join('\n');
  // Markers only AG Grid and rjsf ship: the login route must carry neither, the list route not AG Grid before its rows.
  for (const marker of forbidden[label] ?? []) {
    if (code.includes(marker)) {
      console.log(`  ${label} contains "${marker}"`);
      failed = true;
    }
  }
  if (label === LOGIN && total / 1024 > LOGIN_BUDGET_KB) {
    console.log(`  over the ${LOGIN_BUDGET_KB} KB budget`);
    failed = true;
  }
}
const css = Object.values(manifest).flatMap((c) => c.css ?? []);
for (const file of new Set(css)) console.log(`${'stylesheet ' + file}`.padEnd(40), kb(gz(file)).padStart(9), 'gzip CSS');
process.exitCode = failed ? 1 : 0;

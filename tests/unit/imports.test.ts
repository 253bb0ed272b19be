// Import directions (issue 9): shared imports nothing from server or client; the server's core imports no domain;
// a domain imports no other domain; widgets and the generic renderer import no page.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SRC = path.join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every relative module a file imports (static, re-exports, dynamic), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)]
    .map((m) => m[1] ?? m[2] ?? m[3]!)
    .filter((s) => s.startsWith('.'));
  return specifiers.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)).split(path.sep).join('/'));
}

const graph = sources(SRC).map((file) => ({ file: path.relative(SRC, file).split(path.sep).join('/'), imports: importsOf(file) }));

function violations(from: (file: string) => boolean, forbidden: (target: string, file: string) => boolean): string[] {
  return graph.filter((m) => from(m.file)).flatMap((m) => m.imports.filter((t) => forbidden(t, m.file)).map((t) => `${m.file} → ${t}`));
}

const domainOf = (file: string) => /^server\/domains\/([^/]+)\//.exec(file)?.[1];

// The server's generic core: every file outside domains/ but the process entry (main.ts passes the list of domains
// to startServer) and seed/ (demo data made through the domains on purpose). The core meets the domains only as
// plugins it is given (buildApp({ domains }), prepareDatabase(..., domains)).
const ENTRY = /^server\/main\.ts$|^server\/seed\//;
const CORE = (file: string) => file.startsWith('server/') && !file.startsWith('server/domains/') && !ENTRY.test(file);

describe('import directions', () => {
  it('reads the import graph of src/', () => {
    expect(graph.length).toBeGreaterThan(100);
    expect(graph.find((m) => m.file === 'client/router.tsx')?.imports).toContain('client/pages/registry.ts');
  });

  it('shared imports nothing from server or client', () => {
    expect(violations((f) => f.startsWith('shared/'), (t) => t.startsWith('server/') || t.startsWith('client/'))).toEqual([]);
  });

  it('the client imports nothing from the server', () => {
    expect(violations((f) => f.startsWith('client/'), (t) => t.startsWith('server/'))).toEqual([]);
  });

  it('the server core imports no domain', () => {
    expect(graph.filter((m) => CORE(m.file)).length).toBeGreaterThan(50);
    expect(violations(CORE, (t) => t.startsWith('server/domains/'))).toEqual([]);
  });

  it('only the entry point imports the list of domains', () => {
    expect(graph.filter((m) => m.imports.includes('server/domains/index.ts')).map((m) => m.file).sort()).toEqual(['server/main.ts', 'server/seed/demo.ts']);
  });

  it('a domain imports no other domain', () => {
    expect(violations((f) => domainOf(f) !== undefined, (t, f) => domainOf(t) !== undefined && domainOf(t) !== domainOf(f))).toEqual([]);
  });

  it('widgets, the renderer and the shared client libraries import no page', () => {
    expect(violations((f) => /^client\/(widgets|renderer|lib|api)\//.test(f), (t) => t.startsWith('client/pages/'))).toEqual([]);
  });
});

// The README and the guides under docs/ quote scripts, links, variables and figures: each quote is checked against
// what it names, so a renamed script, a moved heading or a stale count fails here instead of misleading a reader.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../src/server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const markdownUnder = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
const DOCS = ['README.md', ...markdownUnder('docs')];
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const configNames = Object.keys(CONFIG_SCHEMA.properties);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
const anchorsOf = (markdown: string) => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
};
const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The section under a heading, up to the next heading of the same or a higher level. */
const section = (markdown: string, heading: string) => {
  const level = /^#+/.exec(heading)![0];
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`heading not found: ${heading}`);
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
};
/** The variables named in the first column of a markdown table (`NAME`, or `PREFIX_*` for a family). */
const firstColumnNames = (table: string) =>
  table.split('\n').filter((line) => line.startsWith('| `')).flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z0-9_]+\*?)`/g)].map((m) => m[1]!));

describe('README and docs/', () => {
  it('finds the guides', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/operations.md', 'docs/api.md', 'docs/analyst-guide.md', 'docs/benchmarks.md']));
  });

  it('every `npm run <script>` quoted exists in package.json', () => {
    const missing = DOCS.flatMap((file) => [...read(file).matchAll(/npm run ([\w:.-]+)/g)].map((m) => m[1]!).filter((name) => !(name in scripts)).map((name) => `${file}: npm run ${name}`));
    expect(missing).toEqual([]);
  });

  it('every script run with `npx tsx <file>` exists', () => {
    const missing = DOCS.flatMap((file) => [...read(file).matchAll(/npx tsx ([\w./-]+\.ts)/g)].map((m) => m[1]!).filter((script) => !existsSync(path.join(ROOT, script))).map((script) => `${file}: ${script}`));
    expect(missing).toEqual([]);
  });

  it('every relative link points at an existing file and heading', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      const text = withoutFences(read(file)).replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [filePart, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = filePart ? path.join(path.dirname(file), decodeURIComponent(filePart)) : file;
        if (!existsSync(path.join(ROOT, resolved))) broken.push(`${file}: ${target} (no file ${resolved})`);
        else if (anchor !== undefined && !anchorsOf(read(resolved)).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the configuration table lists exactly the variables of src/server/config.ts', () => {
    const table = firstColumnNames(section(read('docs/operations.md'), '## Configuration (environment)'));
    expect(table.filter((name) => !configNames.includes(name))).toEqual([]);
    expect(configNames.filter((name) => !table.includes(name))).toEqual([]);
  });

  it('every variable named in any table of the docs is a configuration variable', () => {
    const unknown = DOCS.flatMap((file) =>
      firstColumnNames(read(file))
        .filter((name) => /_/.test(name) && name === name.toUpperCase())
        .filter((name) => (name.endsWith('*') ? !configNames.some((known) => known.startsWith(name.slice(0, -1))) : !configNames.includes(name)))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('the count of spec calls quoted equals the contract file', () => {
    const { calls } = JSON.parse(read('tests/contract/spec-calls.json')) as { calls: { status: string }[] };
    const served = calls.filter((call) => call.status === 'served').length;
    const quotes = DOCS.flatMap((file) => [...read(file).matchAll(/(\d+) of (\d+) served|(\d+)\/(\d+) spec calls/g)].map((m) => ({ file, served: Number(m[1] ?? m[3]), total: Number(m[2] ?? m[4]) })));
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) expect(quote, quote.file).toEqual({ file: quote.file, served, total: calls.length });
  });

  it('each figure "measured by `npm run ...`" names an existing script and the date it was measured', () => {
    const quotes = DOCS.flatMap((file) => [...read(file).matchAll(/measured by `npm run ([\w:.-]+)`([^)]*)\)/g)].map((m) => ({ file, script: m[1]!, rest: m[2]! })));
    expect(quotes.length).toBeGreaterThan(0);
    const bad = quotes.filter((quote) => !(quote.script in scripts) || !/\b20\d\d-\d\d-\d\d\b/.test(quote.rest));
    expect(bad).toEqual([]);
  });
});

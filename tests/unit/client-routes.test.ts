// Pages name their routes (a routes.ts, the definitions) and call them through the data layer (routePath, callRoute,
// useRoute, recordAction, the media verbs): none builds an API path by interpolating into a URL, none reads with SWR
// or fetch by itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PAGES = path.resolve(import.meta.dirname, '..', '..', 'src', 'client', 'pages');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

/** Template literals that make an API path: '/api…${x}', or '${something}/…' after a path or base. */
const HAND_BUILT = [/`\/api\/[^`]*\$\{/, /`\$\{[^}`]*(?:[bB]ase|[pP]ath)\}\//];

function handBuiltPaths(text: string): string[] {
  return text.split('\n').filter((line) => HAND_BUILT.some((re) => re.test(line))).map((line) => line.trim());
}

describe('client pages and API paths', () => {
  it('the check sees a hand-built path', () => {
    expect(handBuiltPaths("request('GET', `/api/quixa/FastQuotationFlow/${id}`)")).toHaveLength(1);
    expect(handBuiltPaths('listPath={`${def.resource.api.path}/${id}/media`}')).toHaveLength(1);
    expect(handBuiltPaths("callRoute('GET', RCA_ROUTES.quotazione, { id })")).toHaveLength(0);
  });

  it('no page reads with SWR or fetches by itself: it goes through the data layer\'s hooks (src/client/api/hooks.ts)', () => {
    const found = sources(PAGES).filter((file) => /from 'swr'|\bfetch\(/.test(readFileSync(file, 'utf8'))).map((file) => path.relative(PAGES, file));
    expect(found).toEqual([]);
  });

  it('no page builds an API path by hand', () => {
    const found = sources(PAGES).flatMap((file) => handBuiltPaths(readFileSync(file, 'utf8')).map((line) => `${path.relative(PAGES, file)}: ${line}`));
    expect(found).toEqual([]);
  });
});

// src/generated must match what gen:types would write from today's schemas.
import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadAll } from '../../src/server/bootstrap.ts';
import { generateTypes } from '../../scripts/lib/typegen.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('generated types', () => {
  it('are up to date (run npm run gen:types)', async () => {
    const { definitions } = await loadAll(path.join(root, 'schemas'));
    const expected = await generateTypes(definitions);
    const dir = path.join(root, 'src', 'generated');
    expect((await readdir(dir)).sort()).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) {
      expect(await readFile(path.join(dir, name), 'utf8'), `src/generated/${name} is stale`).toBe(content);
    }
  });
});

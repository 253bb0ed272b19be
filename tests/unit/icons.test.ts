// Every icon the definitions name draws an icon: an unknown name would fall back to a dot on the menu and the title.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { knownIcon } from '../../src/client/lib/Icon.tsx';

async function iconNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) names.push(...(await iconNames(file)));
    else if (entry.name.endsWith('.json')) {
      for (const match of (await readFile(file, 'utf8')).matchAll(/"icon"\s*:\s*"([^"]+)"/g)) names.push(`${match[1]} (${path.relative('schemas', file)})`);
    }
  }
  return names;
}

it('every icon named under schemas/ is drawn', async () => {
  const names = await iconNames(path.resolve('schemas'));
  expect(names.length).toBeGreaterThan(10);
  expect(names.filter((n) => !knownIcon(n.split(' ')[0]!))).toEqual([]);
});

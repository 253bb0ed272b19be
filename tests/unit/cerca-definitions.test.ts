// The search declarations (resource.json search, cerca) are checked at start, naming the file and the pointer.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';

it('refuses a list without search fields and cerca entries, labels or routes that name nothing', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cerca-'));
  try {
    await cp(path.resolve('schemas'), dir, { recursive: true });
    const file = (name: string) => path.join(dir, name, 'resource.json');
    const titolo = JSON.parse(await readFile(file('titolo'), 'utf8'));
    const polizza = JSON.parse(await readFile(file('polizza'), 'utf8'));
    const attempt = async (name: string, resource: unknown, pointer: string) => {
      await writeFile(file(name), JSON.stringify(resource));
      await expect(loadDefinitions(dir)).rejects.toThrow(`${name}/resource.json#${pointer}`);
    };
    // The bug of the titles' list: a search box searching nothing answered every row.
    await attempt('titolo', { ...titolo, search: undefined }, '/search');
    await attempt('titolo', { ...titolo, search: ['premio'] }, '/search/0');
    await attempt('polizza', { ...polizza, cerca: { ...polizza.cerca, fields: ['garanzie[].nonesiste'] } }, '/cerca/fields/0');
    await attempt('polizza', { ...polizza, cerca: { ...polizza.cerca, label: '{nonesiste}' } }, '/cerca/label');
    await attempt('polizza', { ...polizza, cerca: { ...polizza.cerca, route: '/nessuna/schermata/{id}' } }, '/cerca/route');
    await writeFile(file('polizza'), JSON.stringify(polizza));
    await writeFile(file('titolo'), JSON.stringify(titolo));
    await expect(loadDefinitions(dir)).resolves.toBeDefined();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// resource.json "related" (the record screen's tabs of related rows) is checked at start, naming the file and the pointer.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';

it('refuses related tabs naming an unknown resource, a field not pointing at the record, or a route elsewhere', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'related-'));
  try {
    await cp(path.resolve('schemas'), dir, { recursive: true });
    const file = path.join(dir, 'cliente', 'resource.json');
    const cliente = JSON.parse(await readFile(file, 'utf8'));
    const attempt = async (related: unknown[], pointer: string, detail: string) => {
      await writeFile(file, JSON.stringify({ ...cliente, related }));
      await expect(loadDefinitions(dir)).rejects.toThrow(`cliente/resource.json#${pointer}: ${detail}`);
    };
    await attempt([{ title: 'X', resource: 'nessuna', field: 'cliente_id' }], '/related/0/resource', 'risorsa sconosciuta "nessuna"');
    // collaboratore_id of a quotation points at the collaborator, not at the customer.
    await attempt([{ title: 'Q', resource: 'quotazione', field: 'cliente_id' }, { title: 'X', resource: 'quotazione', field: 'collaboratore_id' }],
      '/related/1/field', '"quotazione.collaboratore_id" non rimanda a "cliente" (x-ref)');
    await attempt([{ title: 'X', resource: 'quotazione', field: 'nonesiste' }], '/related/0/field', 'proprietà sconosciuta "nonesiste" di "quotazione"');
    await attempt([{ title: 'X', resource: 'quotazione' }], '/related/0', 'una scheda di tipo "list" indica "field" oppure "match" (uno solo dei due)');
    await attempt([{ title: 'X', resource: 'email_outbox', match: { destinatario: 'nonesiste' } }], '/related/0/match/destinatario', '"nonesiste" non è una proprietà di "cliente" leggibile da tutti gli utenti');
    await attempt([{ title: 'X', resource: 'titolo', field: 'cliente_id', sort: '-nonesiste' }], '/related/0/sort', 'proprietà sconosciuta in "-nonesiste"');
    await attempt([{ title: 'X', kind: 'tabella', path: '/api/polizza/{id}/x', columns: [{ field: 'a', headerName: 'A' }] }], '/related/0/path', 'deve essere un percorso sotto "/api/cliente/{id}/"');
    await attempt([{ title: 'X', kind: 'storico', resource: 'quotazione' }], '/related/0/resource', 'non serve a una scheda di tipo "storico"');
    await attempt([{ title: 'X', kind: 'altro' }], '/related/0/kind', 'deve essere uguale ad uno dei valori consentiti');
    // The project's own declaration passes.
    await writeFile(file, JSON.stringify(cliente));
    const defs = await loadDefinitions(dir);
    expect(defs.resources.get('cliente')!.resource.related!.map((t) => t.title)).toContain('Storico');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

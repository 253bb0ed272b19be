// Dashboard cards as data (schemas/_shared/dashboard.json) and the documents desks' definitions: the eight routes of
// spec 002 §2.1 in order, a malformed card stops the start naming file and pointer, filter options from the media.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { archivioDef, trackDef } from '../../src/client/pages/documenti/deskDef.ts';
import type { DashboardCard, ResourceDef } from '../../src/client/types.ts';

const SPEC_ROUTES = ['/prodotti', '/appendici', '/track_gestione_documenti', '/estratto_conto', '/provvigionale', '/gestione_incassi', '/quietanze', '/gestione_documenti'];

async function clientResources(): Promise<ResourceDef[]> {
  const definitions = await loadDefinitions(path.resolve('schemas'));
  return [...definitions.resources.values()].map((d) => ({
    name: d.name, resource: d.resource, schema: d.schema, list: d.list, form: d.form, can: { list: true, read: true, create: true, update: true, delete: true },
  }));
}

describe('dashboard cards', () => {
  it('are the eight cards of the specification, in order, then the issues\' desks, each with a permission', async () => {
    const { dashboard } = await loadDefinitions(path.resolve('schemas'));
    // Issues 31, 36 and 34 add the 'Storico' desk, the scheduler's 'Pianificazioni' (super_admin by default), the expiry calendar and the definitions' 'Studio' after the specification's eight.
    expect(dashboard.map((c) => c.route)).toEqual([...SPEC_ROUTES, '/storico', '/pianificazioni', '/scadenziario', '/studio']);
    expect(dashboard.every((c) => c.permission.length > 0)).toBe(true);
  });

  it('a malformed card stops the start naming the file and the pointer', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dashboard-'));
    try {
      await cp(path.resolve('schemas'), dir, { recursive: true });
      await writeFile(path.join(dir, '_shared', 'dashboard.json'), JSON.stringify([{ title: 'X', route: 'senza-barra', permission: 'show_dashboard' }]));
      await expect(loadDefinitions(dir)).rejects.toThrow('_shared/dashboard.json#/0/route');
      await writeFile(path.join(dir, '_shared', 'dashboard.json'), JSON.stringify([{ title: 'X', route: '/x', permission: 'show_dashboard', count: 'inventato' }]));
      await expect(loadDefinitions(dir)).rejects.toThrow('_shared/dashboard.json#/0/count');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('documents desks', () => {
  const card: DashboardCard = { title: 'Track Gestione Documenti', route: '/track_gestione_documenti', permission: 'show_track_documenti', order: 30 };

  it('filter by what is missing among the collections the resources declare required', async () => {
    const def = trackDef(card, await clientResources());
    const options = (def.schema.properties!.mancante!.oneOf as Array<{ const: string }>).map((o) => o.const);
    expect(options[0]).toBe('*');
    // The quotation's (other resources, policies, join when their media mark collections required).
    expect(options).toEqual(expect.arrayContaining(['carta_identita', 'patente', 'codice_fiscale', 'libretto']));
    expect(options).not.toContain('varie');
    expect(def.resource.api.path).toBe('/api/track_gestione_documenti');
    expect(def.can).toMatchObject({ list: true, create: false, delete: false });
  });

  it('the archive filters by every owner with media and every collection', async () => {
    const def = archivioDef({ ...card, route: '/gestione_documenti' }, await clientResources());
    const owners = (def.schema.properties!.owner_resource!.oneOf as Array<{ const: string }>).map((o) => o.const);
    expect(owners).toEqual(expect.arrayContaining(['categoria_prodotto', 'quotazione']));
    expect(owners).not.toContain('cliente');
    const collections = (def.schema.properties!.collection_name!.oneOf as Array<{ const: string }>).map((o) => o.const);
    expect(collections).toEqual(expect.arrayContaining(['contratto_firmato', 'libretto', 'set_informativo']));
  });
});

describe("the quotations chart's status names", () => {
  it('are drawn whole, on lines of about 18 characters, never cut', async () => {
    const { wrapLabel } = await import('../../src/client/shell/DashboardCharts.tsx');
    expect(wrapLabel('Preventivo in attesa di verifica')).toEqual(['Preventivo in', 'attesa di verifica']);
    expect(wrapLabel('Bozza')).toEqual(['Bozza']);
    // A word longer than a line stays whole on its own line.
    expect(wrapLabel('Precisazioni supplementari richieste', 10)).toEqual(['Precisazioni', 'supplementari', 'richieste']);
  });
});

// The client data layer's custom verbs and the one access check can(resource, action, record?).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider, setApiHandlers } from '../../src/client/api/dataProvider.ts';
import { endSession, startSession } from '../../src/client/api/session.ts';
import { can, canOpen, loadWorkflows } from '../../src/client/lib/access.ts';
import type { ResourceConfig, ResourceDef } from '../../src/client/types.ts';
import type { WorkflowDefinition } from '../../src/shared/workflow/machine.ts';

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

const fetchMock = vi.fn();
const user = { id: 1, name: 'Giulia Bianchi', initials: 'GB', email: 'g@b.it' };
const quotazioni: ResourceConfig = { name: 'quotazione', title: 'Quotazioni', singular: 'Quotazione', api: { path: '/api/quotazioni' }, permissions: {} as never };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }));
const call = (i = 0) => fetchMock.mock.calls[i] as [string, RequestInit];

beforeEach(() => {
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  setApiHandlers({ onSessionExpired: () => {}, onMaintenance: () => {} });
  endSession();
  startSession('tok', { permissions: ['show_sue_quotazioni', 'conferma_quotazione'], roles: ['collaboratore'], user, environment: {} });
});
afterEach(() => vi.unstubAllGlobals());

describe('custom verbs of the data provider', () => {
  it('sends a workflow event to its route, and the manual change with the id in the body', async () => {
    json(200, { message: 'ok' });
    await dataProvider.transition(quotazioni, 'conferma', 7, { nota: 'x' });
    expect(call()[0]).toBe('/api/quotazioni/conferma/7');
    expect(JSON.parse(String(call()[1].body))).toEqual({ nota: 'x' });
    json(200, { message: 'ok' });
    await dataProvider.transition(quotazioni, 'cambioStato', undefined, { id: 7, stato_quotazione_id: 3 });
    expect(call(1)[0]).toBe('/api/quotazioni/cambioStato');
  });

  it('calculates, reads the workflow and exports every row', async () => {
    json(200, { colore: 'v' });
    await dataProvider.calcola(quotazioni, { id: 7 });
    expect(call()[0]).toBe('/api/quotazioni/calcolo');
    json(200, { data: {} });
    await dataProvider.workflow(quotazioni, 7);
    expect(call(1)[0]).toMatch(/^\/api\/quotazioni\/7\/workflow\?_t=\d+$/);
    fetchMock.mockResolvedValueOnce(new Response('\ufeffId;Cognome\r\n1;ROSSI\r\n2;ROSSINI\r\n', {
      status: 200, headers: { 'Content-Type': 'text/csv', 'X-Total-Count': '2', 'Content-Disposition': 'attachment; filename="quotazione-2026-01-01.csv"' },
    }));
    const progress: unknown[] = [];
    const file = await dataProvider.export(quotazioni, { search: 'rossi', filters: { stato_quotazione_id: '1' } }, { format: 'csv', columns: ['id', 'cognome'], onProgress: (p) => progress.push(p) });
    const url = new URL(call(2)[0], 'http://x');
    expect(url.pathname).toBe('/api/quotazioni/export');
    const query = url.searchParams;
    expect([query.get('per_page'), query.get('page'), query.get('search'), query.get('filter[stato_quotazione_id]'), query.get('format'), query.get('columns')]).toEqual([null, null, 'rossi', '1', 'csv', 'id,cognome']);
    expect(file.filename).toBe('quotazione-2026-01-01.csv');
    expect(progress.at(-1)).toMatchObject({ rows: 2, total: 2 });
  });

  it('imports a file as multipart with the fields before the file', async () => {
    json(200, { message: 'Importati 1 modelli.' });
    await dataProvider.importFile({ ...quotazioni, api: { path: '/api/autostoriche' } }, new Blob(['a;b']), { cancella: '1' });
    const [url, init] = call();
    expect(url).toBe('/api/autostoriche/import');
    const form = init.body as FormData;
    expect([...form.keys()]).toEqual(['cancella', 'file']);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('downloads bytes with the file name, and a failed download goes through the error catalogue', async () => {
    fetchMock.mockResolvedValueOnce(new Response('%PDF-1.4', { status: 200, headers: { 'Content-Disposition': "attachment; filename*=UTF-8''contratto%20firmato.pdf" } }));
    const file = await dataProvider.download('/api/quotazioni/getDocument/contratto/3');
    expect(file.filename).toBe('contratto firmato.pdf');
    expect(await file.blob.text()).toBe('%PDF-1.4');
    expect((call()[1].headers as Record<string, string>).Authorization).toBe('Bearer tok');
    json(404, { message: 'Risorsa non trovata.' });
    await expect(dataProvider.download('/api/quotazioni/getDocument/contratto/4')).rejects.toMatchObject({ status: 404 });
  });

  it('asks nothing for an empty set of ids', async () => {
    expect((await dataProvider.getMany(quotazioni, [null, undefined])).size).toBe(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('can(resource, action, record?)', () => {
  const machine = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', 'workflows', 'quotazione_auto_storica.json'), 'utf8')) as WorkflowDefinition;
  const def = {
    name: 'quotazione',
    resource: { ...quotazioni, routes: { list: { name: 'quotazione_index', path: '/auto_storiche' } } },
    can: { list: true, read: true, create: true, update: true, delete: true },
    workflow: machine,
  } as unknown as ResourceDef;

  it('answers from the grants, and for a record from its status machine', async () => {
    expect(can(undefined, 'list')).toBe(false);
    expect(can({ ...def, can: { ...def.can, delete: false } }, 'delete')).toBe(false);
    expect(can(def, 'delete')).toBe(true);
    // The machines load on demand (not with the shell): asked about a record's status before, can() says so.
    expect(() => can(def, 'delete', { id: 1, stato_quotazione_id: 1 })).toThrow(/useWorkflows/);
    await loadWorkflows();
    // Deleting is the ELIMINA event: allowed in a draft, not once the policy waits for its signature (status 9).
    expect(can(def, 'delete', { id: 1, stato_quotazione_id: 1 })).toBe(true);
    expect(can(def, 'delete', { id: 1, stato_quotazione_id: 9 })).toBe(false);
    expect(can(def, 'update', { id: 1, stato_quotazione_id: 1 })).toBe(true);
    expect(can(def, 'update', { id: 1, stato_quotazione_id: 9 })).toBe(false);
    expect(can(def, 'read', { id: 1, stato_quotazione_id: 9 })).toBe(true);
  });

  it('opens a menu entry of a resource by its list grant, a static one by its permission', () => {
    expect(canOpen({ title: 'RCA Auto Storiche', route: '/auto_storiche', permission: 'nessuno', order: 1 }, [def])).toBe(true);
    expect(canOpen({ title: 'RCA Auto Storiche', route: '/auto_storiche', permission: 'show_sue_quotazioni', order: 1 }, [{ ...def, can: { ...def.can, list: false } }])).toBe(false);
    expect(canOpen({ title: 'Dashboard', route: '/dashboard', permission: 'show_sue_quotazioni', order: 0 }, [def])).toBe(true);
    expect(canOpen({ title: 'Polizze', route: '/polizza', permission: 'show_polizze', order: 2 }, [def])).toBe(false);
  });
});

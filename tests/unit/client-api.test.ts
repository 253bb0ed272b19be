// Data provider and session: bearer token, cache busting, the error catalogue (spec 000 §8), menu and routes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, getList, request, setApiHandlers } from '../../src/client/api/dataProvider.ts';
import { can, endSession, getToken, startSession, wasExpired } from '../../src/client/api/session.ts';
import { matchResource, visibleMenu } from '../../src/client/shell/menu.ts';
import type { ResourceDef } from '../../src/client/types.ts';

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

const user = { id: 1, name: 'Giulia Bianchi', initials: 'GB', email: 'g@b.it' };
const fetchMock = vi.fn();
const onSessionExpired = vi.fn();
const onMaintenance = vi.fn();

function answer(status: number, body: unknown) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

beforeEach(() => {
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  onSessionExpired.mockReset();
  onMaintenance.mockReset();
  setApiHandlers({ onSessionExpired, onMaintenance });
  endSession();
  sessionStorage.clear();
});

afterEach(() => vi.unstubAllGlobals());

describe('session', () => {
  it('treats the literal text "undefined" as no token', () => {
    sessionStorage.setItem('token', 'undefined');
    endSession(); // drops the cached read
    sessionStorage.setItem('token', 'undefined');
    expect(getToken()).toBeNull();
  });

  it('checks permissions with | (any) and & (all), denying without a session', () => {
    expect(can('show_suoi_clienti')).toBe(false);
    startSession('t1', { permissions: ['a', 'b'], roles: ['staff'], user, environment: {} });
    expect(can('a|z')).toBe(true);
    expect(can('a&z')).toBe(false);
    expect(can('a&b')).toBe(true);
    expect(can(undefined)).toBe(false);
  });
});

describe('requests', () => {
  it('sends the bearer token and a cache-busting _t on GET', async () => {
    startSession('secret-token', { permissions: [], roles: [], user, environment: {} });
    answer(200, { data: [], current_page: 1, last_page: 1, per_page: 15, total: 0 });
    await getList(
      { name: 'cliente', title: 'Clienti', api: { path: '/api/cliente' }, permissions: {} as never },
      {
        page: 2,
        perPage: 15,
        sort: '-id',
        search: 'ros',
        filters: { attivo: 'true', cognome: '' },
      },
    );
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    const query = new URL(url, 'http://x').searchParams;
    expect(url.startsWith('/api/cliente?')).toBe(true);
    expect(query.get('page')).toBe('2');
    expect(query.get('per_page')).toBe('15');
    expect(query.get('sort')).toBe('-id');
    expect(query.get('search')).toBe('ros');
    expect(query.get('filter[attivo]')).toBe('true');
    expect(query.has('filter[cognome]')).toBe(false);
    expect(Number(query.get('_t'))).toBeGreaterThan(0);
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer secret-token');
    expect(init.cache).toBe('no-store');
  });

  it('does not add _t to writes', async () => {
    answer(201, { message: 'ok', data: { model: { id: 1 } } });
    await request('POST', '/api/cliente', { body: { nome: 'X' } });
    expect(fetchMock.mock.calls[0][0]).toBe('/api/cliente');
  });

  it('turns a network failure into "Errore di connessione al server"', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(request('GET', '/api/user')).rejects.toMatchObject({ status: 0, message: 'Errore di connessione al server', errors: {} });
  });

  it('on 401 drops the token, goes to login and says the session expired', async () => {
    startSession('old', { permissions: [], roles: [], user, environment: {} });
    answer(401, { message: 'Unauthenticated.', code: 'UNAUTHENTICATED' });
    await expect(request('GET', '/api/definitions')).rejects.toMatchObject({ status: 401, message: 'Sessione scaduta. Effettua nuovamente il login.' });
    expect(getToken()).toBeNull();
    expect(wasExpired()).toBe(true);
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('decides on the code, never on the message text', async () => {
    startSession('old', { permissions: [], roles: [], user, environment: {} });
    answer(400, { message: 'Unauthenticated.', code: 'BAD_REQUEST' });
    await expect(request('GET', '/api/user')).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(getToken()).toBe('old');
    answer(503, { message: 'Sito in aggiornamento', code: 'UNAVAILABLE' });
    await expect(request('GET', '/api/cliente')).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(onMaintenance).not.toHaveBeenCalled();
  });

  it('lets the login call answer 401/503 itself', async () => {
    answer(503, { message: 'Sito in aggiornamento', code: 'MAINTENANCE', maintenance: true });
    await expect(request('POST', '/api/login', { body: {}, noRedirect: true })).rejects.toMatchObject({ status: 503 });
    expect(onMaintenance).not.toHaveBeenCalled();
  });

  it('sends 503 to the maintenance page', async () => {
    answer(503, { message: 'Sito in aggiornamento', code: 'MAINTENANCE' });
    await expect(request('GET', '/api/cliente')).rejects.toBeInstanceOf(ApiError);
    expect(onMaintenance).toHaveBeenCalledOnce();
  });

  it('reports 404 as "[404] risorsa non trovata" with a prefix', async () => {
    answer(404, { message: 'Cliente non trovata.', code: 'NOT_FOUND' });
    await expect(request('GET', '/api/cliente/9', { label: 'Cliente' })).rejects.toMatchObject({ status: 404, message: 'Cliente: [404] risorsa non trovata' });
  });

  it('keeps 422 field errors', async () => {
    answer(422, { message: 'I dati inseriti non sono validi.', code: 'VALIDATION', errors: { cf: ['Codice fiscale non valido'] } });
    await expect(request('POST', '/api/cliente', { body: {} })).rejects.toMatchObject({ status: 422, code: 'VALIDATION', errors: { cf: ['Codice fiscale non valido'] } });
  });
});

describe('menu and resource routes', () => {
  it('hides entries without permission and sorts by order', () => {
    const menu = [
      { title: 'Clienti', route: '/cliente', permission: 'show_suoi_clienti', order: 50 },
      { title: 'Dashboard', route: '/dashboard', permission: 'show_dashboard', order: 0 },
      { title: 'Polizze', route: '/polizza', permission: 'show_polizze', order: 20 },
    ];
    const granted = new Set(['show_dashboard', 'show_suoi_clienti']);
    expect(visibleMenu(menu, (p) => granted.has(p)).map((e) => e.title)).toEqual(['Dashboard', 'Clienti']);
  });

  it('opens list, new and edit (aliases too) for any resource', () => {
    const def = {
      name: 'cliente',
      resource: {
        routes: {
          list: { name: 'cliente_index', path: '/cliente', aliases: ['/clienti'] },
          new: { name: 'cliente_store', path: '/new/cliente' },
          edit: { name: 'cliente_edit', path: '/modifica/cliente/:id', aliases: ['/modifica/Cliente/:id'] },
        },
      },
    } as unknown as ResourceDef;
    expect(matchResource([def], '/cliente')?.mode).toBe('list');
    expect(matchResource([def], '/clienti')?.mode).toBe('list');
    expect(matchResource([def], '/new/cliente')?.mode).toBe('new');
    expect(matchResource([def], '/modifica/cliente/12')).toMatchObject({ mode: 'edit', id: '12' });
    expect(matchResource([def], '/modifica/Cliente/7')).toMatchObject({ mode: 'edit', id: '7' });
    expect(matchResource([def], '/polizza')).toBeUndefined();
  });
});

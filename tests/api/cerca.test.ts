// The top bar's one search (GET /api/cerca) and the lists' search boxes, on the demo data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';

interface Hit { tipo: string; id: number; label: string; route: string }
type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let staff: string;
let rossi: string;
let verdi: string;
const one = async <T extends Row>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.connection.db)).rows[0]!;

beforeAll(async () => {
  t = await createTestApp();
  // Quotation ids of three digits at least: the search starts at three characters, as the pickers do.
  await sql`SELECT setval(pg_get_serial_sequence('quotazione', 'id'), 1000)`.execute(t.connection.db);
  await seedDemo(t.connection.db, () => undefined);
  const users = JSON.parse(await readFile(path.join(process.cwd(), 'scripts/demo/users.json'), 'utf8')) as Array<{ email: string; password: string; roles: string[] }>;
  const login = (role: string, nth = 0) => { const u = users.filter((x) => x.roles.includes(role))[nth]!; return t.login(u.email, u.password); };
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await login('staff');
  rossi = await login('collaboratore', 0);
  verdi = await login('collaboratore', 1);
}, 180_000);
afterAll(() => t?.close());

async function cerca(q: string, token = staff): Promise<Hit[]> {
  const res = await t.call('GET', `/api/cerca?q=${encodeURIComponent(q)}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Hit[];
}

describe('GET /api/cerca', () => {
  it('finds each kind by each of its keys, with the screen that opens it', async () => {
    const cliente = await one(sql<{ id: number; cognome: string; cf: string; email: string }>`
      SELECT id, cognome, cf, email FROM cliente WHERE cf IS NOT NULL AND email IS NOT NULL ORDER BY id LIMIT 1`);
    for (const key of [cliente.cognome, cliente.cf, cliente.email]) {
      expect(await cerca(key), key).toContainEqual(expect.objectContaining({ tipo: 'cliente', id: cliente.id, route: `/modifica/cliente/${cliente.id}` }));
    }
    // A name typed in lower case, surname after name, finds the customer too.
    const named = await one(sql<{ id: number; cognome: string; nome: string }>`SELECT id, cognome, nome FROM cliente WHERE nome IS NOT NULL ORDER BY id LIMIT 1`);
    expect(await cerca(`${named.nome} ${named.cognome}`.toLowerCase())).toContainEqual(expect.objectContaining({ tipo: 'cliente', id: named.id }));
    // A company by its partita IVA (the demo has none: one is given to a customer).
    await sql`UPDATE cliente SET piva = '01234567897' WHERE id = ${cliente.id}`.execute(t.connection.db);
    expect(await cerca('01234567897')).toContainEqual(expect.objectContaining({ tipo: 'cliente', id: cliente.id }));

    const quotazione = await one(sql<{ id: number; targa: string }>`
      SELECT id, veicoli_storici->0->>'targa' AS targa FROM quotazione WHERE veicoli_storici->0->>'targa' IS NOT NULL ORDER BY id LIMIT 1`);
    expect(quotazione.id).toBeGreaterThanOrEqual(1000);
    expect(await cerca(String(quotazione.id))).toContainEqual(expect.objectContaining({ tipo: 'quotazione', id: quotazione.id, route: `/modifica/quotazione/${quotazione.id}` }));
    // A plate lives inside the quotation's vehicles (jsonb); a part of it, in lower case, finds it.
    expect(await cerca(quotazione.targa.slice(0, 5).toLowerCase())).toContainEqual(expect.objectContaining({ tipo: 'quotazione', id: quotazione.id }));

    const polizza = await one(sql<{ id: number; polizza_numero: string }>`SELECT id, polizza_numero FROM polizza WHERE polizza_numero IS NOT NULL ORDER BY id LIMIT 1`);
    const byNumber = await cerca(polizza.polizza_numero);
    expect(byNumber).toContainEqual(expect.objectContaining({ tipo: 'polizza', id: polizza.id, route: `/modifica/polizza/${polizza.id}` }));
    expect(byNumber.find((h) => h.tipo === 'polizza' && h.id === polizza.id)!.label).toContain(polizza.polizza_numero);
    // Its titles are found by the policy's number too, and open the policy.
    const titolo = await one(sql<{ id: number; polizza_id: number; polizza_numero: string }>`
      SELECT t.id, t.polizza_id, p.polizza_numero FROM titolo t JOIN polizza p ON p.id = t.polizza_id WHERE p.polizza_numero IS NOT NULL ORDER BY t.id LIMIT 1`);
    expect(await cerca(titolo.polizza_numero)).toContainEqual(expect.objectContaining({ tipo: 'titolo', route: `/modifica/polizza/${titolo.polizza_id}` }));

    const rca = await one(sql<{ id: number; simulation_number: string }>`SELECT id, simulation_number FROM quotazioni_rca WHERE simulation_number IS NOT NULL ORDER BY id LIMIT 1`);
    expect(await cerca(rca.simulation_number)).toContainEqual(expect.objectContaining({ tipo: 'quotazioni_rca', id: rca.id, route: `/modifica/quotazioni_rca/${rca.id}` }));

    const collaboratore = await one(sql<{ id: number; cognome: string }>`SELECT id, cognome FROM collaboratore WHERE cognome IS NOT NULL ORDER BY id LIMIT 1`);
    expect(await cerca(collaboratore.cognome)).toContainEqual(expect.objectContaining({ tipo: 'collaboratore', id: collaboratore.id, route: `/modifica/collaboratore/${collaboratore.id}` }));
    const fornitore = await one(sql<{ id: number; ragioneSociale: string }>`SELECT id, "ragioneSociale" FROM compagnia ORDER BY id LIMIT 1`);
    expect(await cerca(fornitore.ragioneSociale.toLowerCase())).toContainEqual(expect.objectContaining({ tipo: 'compagnia', id: fornitore.id, route: `/modifica/compagnia/${fornitore.id}` }));
  });

  it('answers a few results per kind, each labelled', async () => {
    const hits = await cerca('a@', admin);
    expect(hits).toEqual([]); // two characters
    const many = await cerca('demo', admin);
    const perKind = new Map<string, number>();
    for (const hit of many) {
      perKind.set(hit.tipo, (perKind.get(hit.tipo) ?? 0) + 1);
      expect(hit.label).not.toBe('');
    }
    expect(Math.max(...perKind.values())).toBeLessThanOrEqual(5);
  });

  it('keeps a collaborator to their own records', async () => {
    const suo = (await t.call('GET', '/api/user', { token: rossi })).body.user.collaboratore_id as number;
    expect(suo).toBeGreaterThan(0);
    const rows = (await sql<{ id: number; cf: string; mine: boolean }>`
      SELECT id, cf, collaboratore_id = ${suo} AS mine FROM cliente
      WHERE cf IS NOT NULL AND collaboratore_id IS NOT NULL ORDER BY id`.execute(t.connection.db)).rows;
    const own = rows.find((r) => r.mine)!;
    const other = rows.find((r) => !r.mine)!;
    expect(own && other).toBeTruthy();
    expect(await cerca(own.cf, rossi)).toContainEqual(expect.objectContaining({ tipo: 'cliente', id: own.id }));
    expect((await cerca(other.cf, rossi)).filter((h) => h.tipo === 'cliente')).toEqual([]);
    // The other collaborator finds theirs, and staff finds both.
    expect((await cerca(own.cf, verdi)).filter((h) => h.tipo === 'cliente')).toEqual([]);
    expect(await cerca(other.cf)).toContainEqual(expect.objectContaining({ tipo: 'cliente', id: other.id }));
    // Nor do another's policies turn up through their customer.
    const altrui = await one(sql<{ polizza_numero: string }>`SELECT polizza_numero FROM polizza
      WHERE collaboratore_id <> ${suo} AND polizza_numero IS NOT NULL ORDER BY id LIMIT 1`);
    expect((await cerca(altrui.polizza_numero, rossi)).filter((h) => h.tipo === 'polizza' || h.tipo === 'titolo')).toEqual([]);
  });

  it('leaves out the kinds the user may not list', async () => {
    const collaboratore = await one(sql<{ cognome: string }>`SELECT cognome FROM collaboratore WHERE cognome IS NOT NULL ORDER BY id LIMIT 1`);
    const fornitore = await one(sql<{ ragioneSociale: string }>`SELECT "ragioneSociale" FROM compagnia ORDER BY id LIMIT 1`);
    expect((await cerca(collaboratore.cognome)).some((h) => h.tipo === 'collaboratore')).toBe(true);
    // The collaborator role lists neither collaborators nor suppliers.
    expect((await cerca(collaboratore.cognome, rossi)).filter((h) => h.tipo === 'collaboratore')).toEqual([]);
    expect((await cerca(fornitore.ragioneSociale, rossi)).filter((h) => h.tipo === 'compagnia')).toEqual([]);
  });

  it('searches from three characters, needs q and a login', async () => {
    const cliente = await one(sql<{ cognome: string }>`SELECT cognome FROM cliente WHERE length(cognome) >= 3 ORDER BY id LIMIT 1`);
    expect((await cerca(cliente.cognome.slice(0, 3))).length).toBeGreaterThan(0);
    expect(await cerca(cliente.cognome.slice(0, 2))).toEqual([]);
    expect(await cerca('  ')).toEqual([]);
    const missing = await t.call('GET', '/api/cerca', { token: staff });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.q?.[0]).toMatch(/[a-zà-ù]/);
    expect((await t.call('GET', '/api/cerca?q=rossi')).status).toBe(401);
  });
});

describe('lists\' search boxes', () => {
  it('every list with a search box finds nothing for text nothing holds', async () => {
    const defs = (await t.call('GET', '/api/definitions', { token: admin })).body;
    const resources = Object.values(defs.resources ?? defs) as Array<{ resource: { name: string; routes?: { list?: unknown }; api: { path: string; operations?: string[] } } }>;
    const listed = resources.filter((d) => d.resource?.routes?.list && (!d.resource.api.operations || d.resource.api.operations.includes('list')));
    expect(listed.map((d) => d.resource.name)).toEqual(expect.arrayContaining(['titolo', 'polizza', 'cliente']));
    for (const { resource } of listed) {
      const all = await t.call('GET', `${resource.api.path}?per_page=1`, { token: admin });
      expect(all.status, resource.name).toBe(200);
      const res = await t.call('GET', `${resource.api.path}?search=zzzzzz`, { token: admin });
      expect(res.status, resource.name).toBe(200);
      expect({ name: resource.name, rows: res.body.data.length, total: res.body.total }).toEqual({ name: resource.name, rows: 0, total: 0 });
    }
  });

  it('titles find by policy number and customer; policies by number and customer, with those columns', async () => {
    const row = await one(sql<{ polizza_id: number; polizza_numero: string; cliente_id: number; cognome: string }>`
      SELECT p.id AS polizza_id, p.polizza_numero, c.id AS cliente_id, c.cognome FROM polizza p JOIN cliente c ON c.id = p.cliente_id
      WHERE p.polizza_numero IS NOT NULL AND EXISTS (SELECT 1 FROM titolo t WHERE t.polizza_id = p.id) ORDER BY p.id LIMIT 1`);
    const titoli = (await t.call('GET', `/api/titolo?per_page=100&search=${encodeURIComponent(row.polizza_numero)}`, { token: staff })).body.data as Row[];
    expect(titoli.length).toBeGreaterThan(0);
    expect(titoli.every((r) => r.polizza_id === row.polizza_id)).toBe(true);
    const perCliente = (await t.call('GET', `/api/titolo?per_page=100&search=${encodeURIComponent(row.cognome.toLowerCase())}`, { token: staff })).body.data as Row[];
    expect(perCliente.some((r) => r.cliente_id === row.cliente_id)).toBe(true);

    const polizze = (await t.call('GET', `/api/polizza?per_page=100&search=${encodeURIComponent(row.polizza_numero)}`, { token: staff })).body.data as Row[];
    expect(polizze.map((r) => r.id)).toContain(row.polizza_id);
    const perNome = (await t.call('GET', `/api/polizza?per_page=100&search=${encodeURIComponent(row.cognome)}`, { token: staff })).body.data as Row[];
    expect(perNome.some((r) => r.cliente_id === row.cliente_id)).toBe(true);
    expect(perNome.find((r) => r.cliente_id === row.cliente_id)!.cliente_id__label).toContain(row.cognome);
    const columns = (await t.call('GET', '/headers/polizze.json', { token: staff })).body as Array<{ field?: string; value?: string }> | { columns: Array<{ field: string }> };
    const fields = JSON.stringify(columns);
    expect(fields).toContain('polizza_numero');
    expect(fields).toContain('cliente_id');
  });
});

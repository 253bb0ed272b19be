// Lists at scale: the same rows in the same order whatever the paging route (page N, deep pages read through their
// ids, the last page, the opaque cursor), with ties on the sort column, nulls, inserts between cursor pages and row scope.
// Anchors every 7 rows (LIST_ANCHOR_EVERY) from offset 14 (LIST_ANCHORED_FROM): most pages by number seek after one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collab: string;
let collabId: number;

const ROWS = 300;
const ANCHOR_EVERY = 7;
// PostgreSQL's default nulls, as the list's ORDER BY has them; id breaks every tie, in the first key's direction.
const ORDERS: Record<string, string> = {
  'cognome': 'cognome ASC, id ASC',
  '-cognome': 'cognome DESC, id DESC',
  'dataNascita': '"dataNascita" ASC, id ASC',
  '-dataNascita': '"dataNascita" DESC, id DESC',
  'nome,-cognome': 'nome ASC, cognome DESC, id ASC',
  '-nome,cognome': 'nome DESC, cognome ASC, id DESC',
  '-id': 'id DESC',
};

async function expected(order: string, where = sql`true`): Promise<number[]> {
  return (await sql<{ id: number }>`SELECT id FROM cliente WHERE ${where} ORDER BY ${sql.raw(order)}`.execute(t.connection.db)).rows.map((r) => r.id);
}

async function get(path: string, token = admin) {
  const res = await t.call('GET', path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Array<{ id: number }>; last_page: number; next_cursor: string | null };
}

/** Every id by following next_cursor from page 1. */
async function byCursor(query: string, token = admin): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = '';
  for (let i = 0; i < 100 && cursor !== null; i++) {
    const body = await get(`/api/cliente?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    ids.push(...body.data.map((r) => r.id));
    cursor = body.next_cursor;
  }
  expect(cursor).toBeNull();
  return ids;
}

/** Every id by asking page 1, 2, ... last_page. */
async function byPage(query: string, token = admin): Promise<number[]> {
  const first = await get(`/api/cliente?${query}`, token);
  const ids = first.data.map((r) => r.id);
  for (let page = 2; page <= first.last_page; page++) ids.push(...(await get(`/api/cliente?${query}&page=${page}`, token)).data.map((r) => r.id));
  return ids;
}

beforeAll(async () => {
  t = await createTestApp({ config: { LIST_ANCHOR_EVERY: ANCHOR_EVERY, LIST_ANCHORED_FROM: 2 * ANCHOR_EVERY } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  collabId = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome: 'SCALA', tipo: 'AGENTE', email: 'scala@example.it' } })).body.data.model.id as number;
  collab = await userWithRoles(t, admin, { email: 'collab.scala@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  // Surnames in groups of four (ties), every seventh birth date missing (nulls), one customer in three the collaborator's.
  await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo, "dataNascita", collaboratore_id)
    SELECT 'RETAIL', 'M', 'NOME ' || (g % 5), 'COGNOME ' || lpad(((g * 37) % ${ROWS / 4})::text, 3, '0'), true,
      CASE WHEN g % 7 = 0 THEN NULL ELSE date '1950-01-01' + (g * 53) % 9000 END,
      CASE WHEN g % 3 = 0 THEN ${collabId}::int END
    FROM generate_series(1, ${ROWS}) g`.execute(t.connection.db);
  await sql`ANALYZE cliente`.execute(t.connection.db);
});
afterAll(async () => {
  await t?.close();
});

describe('lists at scale', () => {
  it('every order answers the same rows in the same order by page number (deep pages included) and by cursor', async () => {
    for (const [sort, order] of Object.entries(ORDERS)) {
      const all = await expected(order);
      expect(all.length).toBeGreaterThanOrEqual(ROWS);
      // 50 a page: pages 5 and 6 start at offset 200 and beyond, where a page reads its ids first.
      expect(await byPage(`sort=${sort}&per_page=50`), sort).toEqual(all);
      expect(await byCursor(`sort=${sort}&per_page=23`), sort).toEqual(all);
    }
  });

  it('deep pages by number seek from anchors that follow every write moving a row, with an exact total; other writes keep them', async () => {
    const generation = async () => Number((await sql<{ n: string }>`SELECT sum(cambi) AS n FROM lista_generazione WHERE tabella = 'cliente'`.execute(t.connection.db)).rows[0]!.n);
    const pages = async (sort: string, filter = '') => {
      const first = await get(`/api/cliente?sort=${sort}&per_page=10${filter}`);
      // The first deep page skips its offset and starts the walk; once it ends, the pages below seek from anchors.
      await get(`/api/cliente?sort=${sort}&per_page=10&page=${first.last_page}${filter}`);
      await t.app.ctx.cache.anchors.settled();
      const ids = first.data.map((r) => r.id);
      for (let page = 2; page <= first.last_page; page++) {
        const body = await get(`/api/cliente?sort=${sort}&per_page=10&page=${page}${filter}`) as Awaited<ReturnType<typeof get>> & { total: number; total_is_estimate: boolean };
        expect(body.total_is_estimate).toBe(false);
        expect(body.total).toBe(first.data.length + (first.last_page - 1) * 10 - (10 - (await get(`/api/cliente?sort=${sort}&per_page=10&page=${first.last_page}${filter}`)).data.length));
        ids.push(...body.data.map((r) => r.id));
      }
      return ids;
    };
    expect(await pages('-dataNascita')).toEqual(await expected(ORDERS['-dataNascita']!));
    // A filter on the table's own column is anchored too, on its own rows.
    expect(await pages('cognome', '&filter[nome]=NOME 2')).toEqual(await expected(ORDERS.cognome!, sql`nome = 'NOME 2'`));
    // An insert before every anchor, an update moving a row from the start to the end, a delete: the next deep page is exact.
    const before = await generation();
    const [{ id: moved }] = (await sql<{ id: number }>`SELECT id FROM cliente ORDER BY cognome, id LIMIT 1`.execute(t.connection.db)).rows as [{ id: number }];
    await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) VALUES ('RETAIL', 'F', 'ANNA', 'A PRIMA DI TUTTI', true)`.execute(t.connection.db);
    await sql`UPDATE cliente SET cognome = 'ZZ ULTIMO' WHERE id = ${moved}`.execute(t.connection.db);
    await sql`DELETE FROM cliente WHERE id = (SELECT id FROM cliente WHERE cognome LIKE 'COGNOME%' ORDER BY cognome DESC, id DESC LIMIT 1 OFFSET 100)`.execute(t.connection.db);
    expect(await generation()).toBe(before + 3);
    const all = await expected(ORDERS.cognome!);
    expect(await pages('cognome')).toEqual(all);
    expect((await get(`/api/cliente?sort=cognome&per_page=10&page=${Math.ceil(all.length / 10)}`)).data.map((r) => r.id).at(-1)).toBe(moved);
    // A write to a column no list sorts or filters on moves nothing, and keeps the anchors.
    const kept = await generation();
    await sql`UPDATE cliente SET note = 'letto' WHERE id = ${moved}`.execute(t.connection.db);
    expect(await generation()).toBe(kept);
    // A search is not anchored (it may read other tables), yet agrees all the same.
    expect(await pages('-cognome', '&search=cognome')).toEqual(await expected(ORDERS['-cognome']!, sql`cognome LIKE '%COGNOME%'`));
  });

  it('the last page by number is the list\'s tail, and a cursor continues from any page asked by number', async () => {
    const all = await expected(ORDERS.cognome!);
    const first = await get('/api/cliente?sort=cognome&per_page=40');
    const last = await get(`/api/cliente?sort=cognome&per_page=40&page=${first.last_page}`);
    expect(last.data.map((r) => r.id)).toEqual(all.slice((first.last_page - 1) * 40));
    expect(last.next_cursor).toBeNull();
    const sixth = await get('/api/cliente?sort=cognome&per_page=40&page=6');
    const after = await get(`/api/cliente?sort=cognome&per_page=40&cursor=${encodeURIComponent(sixth.next_cursor!)}`);
    expect(after.data.map((r) => r.id)).toEqual(all.slice(240, 280));
  });

  it('rows inserted between cursor pages never show a row twice nor skip one that was there', async () => {
    const before = await expected(ORDERS.cognome!);
    const first = await get('/api/cliente?sort=cognome&per_page=30');
    // Before the cursor (would shift an OFFSET page by one) and after it (must appear in its place).
    await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) VALUES
      ('RETAIL', 'F', 'ANNA', 'AAA PRIMA', true), ('RETAIL', 'F', 'ANNA', 'AAB PRIMA', true), ('RETAIL', 'F', 'ANNA', 'ZZZ DOPO', true)`.execute(t.connection.db);
    const seen = first.data.map((r) => r.id);
    let cursor = first.next_cursor;
    while (cursor) {
      const body = await get(`/api/cliente?sort=cognome&per_page=30&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...body.data.map((r) => r.id));
      cursor = body.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const now = await expected(ORDERS.cognome!);
    const inserted = now.filter((id) => !before.includes(id));
    expect(inserted).toHaveLength(3);
    // Every row that was there is seen once, in order; of the new ones only the one after the cursor.
    expect(seen).toEqual(now.filter((id) => before.includes(id) || id === now[now.length - 1]));
    expect(seen).toContain(now[now.length - 1]);
  });

  it('a collaborator sees only the rows in scope, the same by page and by cursor, and an admin\'s cursor opens no others', async () => {
    const scoped = await expected(ORDERS['-cognome']!, sql`collaboratore_id = ${collabId}`);
    expect(scoped.length).toBe(ROWS / 3);
    expect(await byPage('sort=-cognome&per_page=15', collab)).toEqual(scoped);
    expect(await byCursor('sort=-cognome&per_page=15', collab)).toEqual(scoped);
    const adminPage = await get('/api/cliente?sort=-cognome&per_page=15');
    const body = await get(`/api/cliente?sort=-cognome&per_page=500&cursor=${encodeURIComponent(adminPage.next_cursor!)}`, collab);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((r) => scoped.includes(r.id))).toBe(true);
  });

  it('filters and search seek by cursor like the plain list', async () => {
    const filtered = await expected(ORDERS.dataNascita!, sql`nome = 'NOME 3'`);
    expect(await byCursor('sort=dataNascita&per_page=11&filter[nome]=NOME 3')).toEqual(filtered);
    // Each word in any search field: every surname holds COGNOME, the other fields are empty here.
    const searched = await expected(ORDERS.dataNascita!, sql`cognome LIKE '%01%'`);
    expect(searched.length).toBeGreaterThan(0);
    expect(await byCursor('sort=dataNascita&per_page=5&search=cognome 01')).toEqual(searched);
  });

  it('search ignores case and accents, and is answered from the trigram index on the very expression it compares', async () => {
    await sql`INSERT INTO cliente (tipo, sesso, nome, cognome, attivo) VALUES
      ('RETAIL', 'M', 'NICCOLÒ', 'SCIALÒ', true), ('RETAIL', 'M', 'NICCOLO', 'SCIALO', true), ('RETAIL', 'F', 'ANNA', 'SCIALLA', true)`.execute(t.connection.db);
    const ids = async (text: string) => (await get(`/api/cliente?per_page=50&search=${encodeURIComponent(text)}`)).data.map((r) => r.id).sort();
    const both = await ids('scialo');
    expect(both).toHaveLength(2);
    for (const text of ['SCIALÒ', 'Scialò', 'sciàlo', 'niccolo scialo', 'NICCOLÒ']) expect(await ids(text), text).toEqual(both);
    expect(await ids('scial')).toHaveLength(3);
    // The plan of the search's own condition, the table's rows out of the way (and the GIN's pending list merged, as
    // autovacuum does): the trigram index, not a read of every row.
    await sql`VACUUM ANALYZE cliente`.execute(t.connection.db);
    const plan = await t.connection.db.transaction().execute(async (trx) => {
      for (const scan of ['seqscan', 'indexscan', 'indexonlyscan']) await sql.raw(`SET LOCAL enable_${scan} = off`).execute(trx);
      return (await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM cliente WHERE testo_cercabile(cognome) LIKE testo_cercabile(${'%scialo%'})`.execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('testo_cliente_cognome');
  });

  it('a cursor that is not one, or is another order\'s, or carries a value the column cannot hold, answers 422', async () => {
    const page = await get('/api/cliente?sort=cognome&per_page=5');
    const forge = (o: string, v: unknown[]) => Buffer.from(JSON.stringify({ o, v })).toString('base64url');
    for (const cursor of ['non-un-cursore', 'e30', Buffer.from('null').toString('base64url'), forge('id', ['x']), forge('cognome,id', ['ROSSI', 1.5]),
      forge('cognome,id', [{ a: 1 }, 1]), forge('cognome,id', ['A\u0000', 1]), forge('dataNascita,id', ['2026-02-30', 1]), forge('cognome,id', ['ROSSI', null])]) {
      const res = await t.call('GET', `/api/cliente?sort=cognome&per_page=5&cursor=${encodeURIComponent(cursor)}`, { token: admin });
      expect(res.status, cursor).toBe(422);
      expect(res.body.errors.cursor).toBeDefined();
    }
    const other = await t.call('GET', `/api/cliente?sort=-cognome&per_page=5&cursor=${encodeURIComponent(page.next_cursor!)}`, { token: admin });
    expect(other.status).toBe(422);
  });
});

// The change history: one entry per write with the exact differences, none for a refused write, secrets without values,
// scope and field permissions on reads, restore through validation/version/machine, delete and restore, the chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/server/app.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { connect } from '../../src/server/db/connection.ts';
import { domains } from '../../src/server/domains/index.ts';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

const base = { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Storico' };
const IBAN_1 = 'IT60X0542811101000000123456';
const IBAN_2 = 'IT07X0542811101000000654321';

async function psql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<T>> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    return await client.query<T>(text, values);
  } finally {
    await client.end();
  }
}

async function storico(id: number, token = admin) {
  // As the client asks: paged, with its cache-busting timestamp (spec 000 §7).
  const res = await t.call('GET', `/api/cliente/${id}/storico?page=1&per_page=200&_t=${Date.now()}`, { token });
  return res;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

describe('what is recorded', () => {
  it('a create, an update and a delete leave one entry each with the exact differences; a refused write leaves none', async () => {
    const created = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, IBAN: IBAN_1 } });
    expect(created.status).toBe(201);
    const id = created.body.data.model.id as number;
    let h = await storico(id);
    expect(h.status).toBe(200);
    expect(h.body.total).toBe(1);
    const [creazione] = h.body.data;
    expect(creazione).toMatchObject({ azione: 'creazione', origine: 'utente', utente: { name: expect.any(String) }, evento: null });
    expect(creazione.utente.id).toBeGreaterThan(0);
    expect(creazione.modifiche).toEqual(expect.arrayContaining([{ campo: 'IBAN', da: null, a: IBAN_1 }, { campo: 'cognome', da: null, a: 'STORICO' }]));
    // The engine's own bookkeeping is no change a person made.
    expect(creazione.modifiche.map((m: { campo: string }) => m.campo)).not.toContain('version');

    const updated = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { IBAN: IBAN_2, version: 1 } });
    expect(updated.status).toBe(200);
    h = await storico(id);
    expect(h.body.total).toBe(2);
    expect(h.body.data[0]).toMatchObject({ azione: 'modifica', modifiche: [{ campo: 'IBAN', da: IBAN_1, a: IBAN_2 }] });

    // Refused: a bad IBAN (422) and a stale version (409) write nothing, so they leave nothing.
    expect((await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { IBAN: 'IT00', version: 2 } })).status).toBe(422);
    expect((await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Luigi', version: 1 } })).status).toBe(409);
    expect((await storico(id)).body.total).toBe(2);

    // An update that changes nothing is no entry either.
    expect((await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { IBAN: IBAN_2, version: 2 } })).status).toBe(200);
    expect((await storico(id)).body.total).toBe(2);

    expect((await t.call('DELETE', `/api/cliente/${id}`, { token: admin })).status).toBe(200);
    const desk = await t.call('GET', `/api/storico?risorsa=cliente&record_id=${id}`, { token: admin });
    expect(desk.status).toBe(200);
    expect(desk.body.data.map((v: { azione: string }) => v.azione)).toEqual(['eliminazione', 'modifica', 'creazione']);
    expect(desk.body.data[0].modifiche).toEqual(expect.arrayContaining([{ campo: 'IBAN', da: IBAN_2, a: null }]));
    // The generic list's shape of the same filters (the 'Storico' desk), with the author's name as a column.
    const asList = await t.call('GET', `/api/storico?filter[risorsa]=cliente&filter[record_id]=${id}&filter[azione]=modifica&sort=-id&per_page=25`, { token: admin });
    expect(asList.status).toBe(200);
    expect(asList.body.data.map((v: { azione: string }) => v.azione)).toEqual(['modifica']);
    expect(asList.body.data[0].utente_nome).toBe(asList.body.data[0].utente.name);
    expect((await t.call('GET', '/api/storico?filter[record_id]=abc', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/storico?sort=nome', { token: admin })).status).toBe(422);
    const csv = await t.call('GET', `/api/storico/export?format=csv&filter[risorsa]=cliente&filter[record_id]=${id}&columns=at,azione`, { token: admin });
    expect(csv.status).toBe(200);
    expect(String(csv.body).split('\r\n').filter(Boolean)).toHaveLength(4);
  });

  it('restores a change through the same validation and version as a PUT, and records the restore', async () => {
    const id = (await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome: 'Ripristino', IBAN: IBAN_1 } })).body.data.model.id as number;
    await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { IBAN: IBAN_2, version: 1 } });
    const change = (await storico(id)).body.data[0];
    // Without the version read, or with a stale one, nothing is written.
    expect((await t.call('POST', `/api/cliente/${id}/storico/${change.id}/ripristina`, { token: admin, body: {} })).status).toBe(428);
    expect((await t.call('POST', `/api/cliente/${id}/storico/${change.id}/ripristina`, { token: admin, body: { version: 1 } })).status).toBe(409);
    const restored = await t.call('POST', `/api/cliente/${id}/storico/${change.id}/ripristina`, { token: admin, body: { version: 2 } });
    expect(restored.status).toBe(200);
    expect(restored.body.data.model.IBAN).toBe(IBAN_1);
    const h = (await storico(id)).body;
    expect(h.total).toBe(3);
    expect(h.data[0]).toMatchObject({ azione: 'ripristino', modifiche: [{ campo: 'IBAN', da: IBAN_2, a: IBAN_1 }] });
    // An entry of another record is not this record's.
    const other = (await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome: 'Altro' } })).body.data.model.id as number;
    expect((await t.call('POST', `/api/cliente/${other}/storico/${change.id}/ripristina`, { token: admin, body: { version: 1 } })).status).toBe(404);
  });

  it('a deleted record comes back from its deletion entry, with its id', async () => {
    const id = (await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome: 'Eliminato', IBAN: IBAN_1 } })).body.data.model.id as number;
    expect((await t.call('DELETE', `/api/cliente/${id}`, { token: admin })).status).toBe(200);
    const entry = (await t.call('GET', `/api/storico?risorsa=cliente&record_id=${id}&azione=eliminazione`, { token: admin })).body.data[0];
    const back = await t.call('POST', `/api/cliente/${id}/storico/${entry.id}/ripristina`, { token: admin, body: {} });
    expect(back.status).toBe(200);
    expect(back.body.data.model).toMatchObject({ id, cognome: 'ELIMINATO', IBAN: IBAN_1 });
    expect((await t.call('GET', `/api/cliente/${id}`, { token: admin })).status).toBe(200);
    expect((await storico(id)).body.data[0]).toMatchObject({ azione: 'ripristino' });
    // Twice is once too many: the record exists.
    expect((await t.call('POST', `/api/cliente/${id}/storico/${entry.id}/ripristina`, { token: admin, body: {} })).status).toBe(409);
  });

  it('a secret field is recorded as changed, never with its value', async () => {
    const token = await userWithRoles(t, admin, { email: 'segreto@storico.test', roles: ['staff'] });
    expect(token).toBeTruthy();
    const rows = await psql<{ modifiche: Record<string, unknown> }>(`SELECT modifiche FROM storico WHERE risorsa = 'utente' AND azione = 'creazione' ORDER BY id DESC LIMIT 1`);
    expect(rows.rows[0]!.modifiche.password).toEqual({ segreto: true });
    expect(JSON.stringify(rows.rows[0]!.modifiche)).not.toContain('argon2');
  });
});

describe('the writes the server makes and the sign-in events', () => {
  it('a workflow transition is recorded with its event and the status change', async () => {
    const q = await t.call('POST', '/api/quotazioni', { token: admin, body: {
      persona: 'f', sesso: 'M', nome: 'Tina', cognome: 'Transizione', email: 'tina@esempio.it', provincia_codice: 'RM',
      veicoli_storici: [{ marca: 'FIAT', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'RM000999' }],
    } });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    const id = q.body.data.model.id as number;
    // The vehicles are nested rows: a change in one is that row's field.
    const current = (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data;
    const veicoli = current.veicoli_storici.map((v: Record<string, unknown>) => ({ ...v, targa: 'RM000998' }));
    const put = await t.call('PUT', `/api/quotazioni/${id}`, { token: admin, body: { veicoli_storici: veicoli, version: current.version } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const last = (await t.call('GET', `/api/quotazioni/${id}/storico`, { token: admin })).body.data[0];
    expect(last.modifiche).toContainEqual({ campo: 'veicoli_storici.0.targa', da: 'RM000999', a: 'RM000998' });
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 5 } })).status).toBe(200);
    const h = (await t.call('GET', `/api/quotazioni/${id}/storico`, { token: admin })).body;
    expect(h.data[0]).toMatchObject({ azione: 'transizione', evento: 'CAMBIO_STATO', origine: 'utente' });
    expect(h.data[0].modifiche).toContainEqual({ campo: 'stato_quotazione_id', da: 1, a: 5 });
    expect(h.data.at(-1).modifiche).toContainEqual(expect.objectContaining({ campo: 'veicoli_storici', da: null }));
  });

  it('login, failed login, password change and logout are in the user history', async () => {
    const token = await userWithRoles(t, admin, { email: 'accessi@storico.test', roles: ['staff'] });
    expect((await t.call('POST', '/api/login', { body: { email: 'accessi@storico.test', password: 'sbagliata-123456' } })).status).toBe(422);
    expect((await t.call('PUT', '/api/account', { token, body: { password_attuale: 'user-password-1234', password: 'nuova-password-5678' } })).status).toBe(200);
    expect((await t.call('GET', '/api/api_logout', { token })).status).toBe(200);
    const me = (await psql<{ id: number }>(`SELECT id FROM utente WHERE email = 'accessi@storico.test'`)).rows[0]!.id;
    const events = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${me}&azione=accesso`, { token: admin })).body.data.map((v: { evento: string }) => v.evento);
    // The exemption from the staff role's required verification that the helper grants is recorded too.
    expect(events).toEqual(['logout', 'cambio_password', 'login_fallito', 'login', 'mfa_esenzione_concessa']);
    // The password change is also a change of the record, with the secret as changed and no value.
    const change = (await t.call('GET', `/api/storico?risorsa=utente&record_id=${me}&azione=modifica`, { token: admin })).body.data[0];
    expect(change.modifiche).toEqual([{ campo: 'password', nascosto: true }]);
  });
});

describe('reading it', () => {
  it("a collaborator reads the history of their own records only", async () => {
    const coll = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Carlo', cognome: 'Collaboratore', tipo: 'AGENTE' } }));
    expect(coll.status, JSON.stringify(coll.body)).toBe(201);
    const token = await userWithRoles(t, admin, { email: 'carlo@storico.test', roles: ['collaboratore'], collaboratore_id: coll.body.data.model.id });
    const mine = await t.call('POST', '/api/cliente', { token, body: { ...base, cognome: 'Mio' } });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect((await storico(mine.body.data.model.id, token)).status).toBe(200);
    const theirs = (await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome: 'Suo' } })).body.data.model.id as number;
    expect((await storico(theirs, token)).status).toBe(404);
    // The desk is for show_storico.
    expect((await t.call('GET', '/api/storico', { token })).status).toBe(403);
  });
});

describe('one chain for every instance', () => {
  it('two instances writing at once keep one valid chain', async () => {
    const b = connect(t.databaseUrl, 5);
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const other = await buildApp({ domains, db: b.db, definitions });
    try {
      const ids = await Promise.all(Array.from({ length: 4 }, async (_, i) =>
        (await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome: `Parallelo${i}` } })).body.data.model.id as number));
      const writes = ids.flatMap((id) => [1, 2, 3].map((n) => ({ id, n })));
      await Promise.all(writes.map(async ({ id, n }, i) => {
        const app = i % 2 ? other : t.app;
        // Each write reads the version it changes, as a client would; a 409 from the race is retried.
        for (;;) {
          const version = (await t.call('GET', `/api/cliente/${id}`, { token: admin })).body.data.version;
          const res = await app.inject({ method: 'PUT', url: `/api/cliente/${id}`, headers: { authorization: `Bearer ${admin}` }, payload: { note: `scrittura ${n}`, version } });
          if (res.statusCode !== 409) return expect(res.statusCode).toBe(200);
        }
      }));
      const v = await t.call('GET', '/api/storico/verifica', { token: admin });
      expect(v.body.ok).toBe(true);
      const seqs = (await psql<{ seq: string }>('SELECT seq FROM storico ORDER BY seq')).rows.map((r) => Number(r.seq));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    } finally {
      await other.close();
      await b.close();
    }
  });
});

describe('nobody rewrites it', () => {
  it('the application cannot update or delete an entry', async () => {
    await expect(psql('UPDATE storico SET utente_nome = $1 WHERE id = (SELECT min(id) FROM storico)', ['falso'])).rejects.toThrow(/storico/);
    await expect(psql('DELETE FROM storico WHERE id = (SELECT min(id) FROM storico)')).rejects.toThrow(/storico/);
  });

  it('the chain verifies, and detects an entry changed behind the triggers', async () => {
    const ok = await t.call('GET', '/api/storico/verifica', { token: admin });
    expect(ok.status).toBe(200);
    expect(ok.body.ok).toBe(true);
    expect(ok.body.voci).toBeGreaterThan(5);
    const victim = (await psql<{ id: string }>('SELECT id FROM storico ORDER BY seq LIMIT 1 OFFSET 2')).rows[0]!.id;
    // As a database owner could: with the triggers off for the session.
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await client.query("SET session_replication_role = 'replica'");
      await client.query(`UPDATE storico SET modifiche = '{"IBAN": [null, "IT00X"]}'::jsonb WHERE id = $1`, [victim]);
    } finally {
      await client.end();
    }
    const broken = await t.call('GET', '/api/storico/verifica', { token: admin });
    expect(broken.body).toMatchObject({ ok: false, prima_voce_alterata: { id: Number(victim) } });
  });
});

// Two app instances on one database, each with its own pool and its own cache (as two processes behind a load
// balancer would be): sessions, revocation, maintenance, throttling, the outbox, documents and workflow races.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { connect, type Connection } from '../../src/server/db/connection.ts';
import { deliverDue, enqueueEmail, type MailTransport } from '../../src/server/mail/outbox.ts';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { domains } from '../../src/server/domains/index.ts';

let a: TestApp;
let b: FastifyInstance;
let bConnection: Connection;

async function call(app: FastifyInstance, method: string, url: string, { token, body, headers }: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await app.inject({
    method: method as 'GET', url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  let parsed: unknown = res.body;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    // not JSON
  }
  return { status: res.statusCode, body: parsed as any, raw: res.rawPayload, headers: res.headers };
}

/** How long until `probe` answers `want` (polled every 10 ms), or fails the test after `limitMs`. */
async function within(limitMs: number, probe: () => Promise<unknown>, want: unknown): Promise<number> {
  const t0 = Date.now();
  await expect.poll(probe, { timeout: limitMs, interval: 10 }).toEqual(want);
  return Date.now() - t0;
}

beforeAll(async () => {
  a = await createTestApp();
  // The second instance: its own pool on the same database, its own app (and so its own cache and listener).
  bConnection = connect(a.databaseUrl, 5);
  const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
  b = await buildApp({ domains, db: bConnection.db, definitions });
  expect(a.app.ctx.cache).not.toBe(b.ctx.cache);
  expect(a.app.ctx.cache.listening && b.ctx.cache.listening).toBe(true);
});
afterAll(async () => {
  await b?.close();
  await bConnection?.close();
  await a?.close();
});

describe('two instances on one database', () => {
  it('a session opened on one works on the other; logout on one is refused on the other within 1 s', async () => {
    const token = await a.login(ADMIN.email, ADMIN.password);
    expect((await call(b, 'GET', '/api/user', { token })).status).toBe(200);
    // B now holds the session in its cache: only the notification can end it there.
    expect((await call(b, 'GET', '/api/cliente', { token })).status).toBe(200);
    expect((await call(a.app, 'GET', '/api/api_logout', { token })).status).toBe(200);
    expect((await call(a.app, 'GET', '/api/user', { token })).status).toBe(401);
    const ms = await within(1000, async () => (await call(b, 'GET', '/api/user', { token })).status, 401);
    expect(ms).toBeLessThan(1000);
  });

  it('a password change on one ends the other sessions on the other within 1 s', async () => {
    const admin = await a.login(ADMIN.email, ADMIN.password);
    const first = await userWithRoles(a, admin, { email: 'due.istanze@test.it', roles: ['staff'] });
    const second = await a.login('due.istanze@test.it', 'user-password-1234');
    expect((await call(b, 'GET', '/api/user', { token: second })).status).toBe(200);
    const changed = await call(a.app, 'PUT', '/api/account', { token: first, body: { password_attuale: 'user-password-1234', password: 'new-password-98765' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await within(1000, async () => (await call(b, 'GET', '/api/user', { token: second })).status, 401);
    // The session that changed the password stays, on both.
    expect((await call(b, 'GET', '/api/user', { token: first })).status).toBe(200);
  });

  it('deactivating a user on one locks them out of the other within 1 s', async () => {
    const admin = await a.login(ADMIN.email, ADMIN.password);
    const token = await userWithRoles(a, admin, { email: 'disattivo.b@test.it', roles: ['staff'] });
    expect((await call(b, 'GET', '/api/user', { token })).status).toBe(200);
    const id = (await sql<{ id: number }>`SELECT id FROM utente WHERE email = 'disattivo.b@test.it'`.execute(a.connection.db)).rows[0]!.id;
    const current = await call(a.app, 'GET', `/api/utente/${id}`, { token: admin });
    const off = await call(a.app, 'PUT', `/api/utente/${id}`, { token: admin, body: { attivo: false, version: current.body.data.version } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await within(1000, async () => (await call(b, 'GET', '/api/user', { token })).status, 401);
  });

  it('the maintenance flag is seen by both within 2 s, and its end too', async () => {
    const token = await a.login(ADMIN.email, ADMIN.password);
    // Both have the setting cached as off.
    expect((await call(a.app, 'GET', '/api/cliente', { token })).status).toBe(200);
    expect((await call(b, 'GET', '/api/cliente', { token })).status).toBe(200);
    await sql`INSERT INTO app_setting (key, value) VALUES ('maintenance', 'true'::jsonb)`.execute(a.connection.db);
    try {
      await within(2000, async () => [(await call(a.app, 'GET', '/api/cliente', { token })).status, (await call(b, 'GET', '/api/cliente', { token })).status], [503, 503]);
    } finally {
      await sql`DELETE FROM app_setting WHERE key = 'maintenance'`.execute(a.connection.db);
    }
    await within(2000, async () => [(await call(a.app, 'GET', '/api/cliente', { token })).status, (await call(b, 'GET', '/api/cliente', { token })).status], [200, 200]);
  });

  it('login throttling counts the failures made on both', async () => {
    const admin = await a.login(ADMIN.email, ADMIN.password);
    await userWithRoles(a, admin, { email: 'bersaglio@test.it', roles: ['staff'] });
    const attempt = (app: FastifyInstance, password: string) =>
      call(app, 'POST', '/api/login', { body: { email: 'bersaglio@test.it', password } });
    // Five failures from one address, alternating instances: the sixth attempt is refused on either, right password or not.
    for (let i = 0; i < 5; i++) expect((await attempt(i % 2 ? b : a.app, 'wrong-password-xx')).status).toBe(422);
    expect((await attempt(a.app, 'user-password-1234')).status).toBe(429);
    expect((await attempt(b, 'user-password-1234')).status).toBe(429);
  });

  it('an outbox e-mail is delivered exactly once when both deliver at the same time', async () => {
    await sql`DELETE FROM email_outbox`.execute(a.connection.db);
    for (let i = 0; i < 30; i++) await enqueueEmail(a.connection.db, { to: `cliente${i}@example.it`, subject: `Oggetto ${i}`, body: 'Testo' });
    const sent: string[] = [];
    // A slow SMTP server, so both deliveries overlap.
    const transport: MailTransport = { sendMail: async (m) => { sent.push(m.to); await new Promise((r) => setTimeout(r, 5)); } };
    const rounds = async (db: Connection['db']) => {
      for (let i = 0; i < 4; i++) await deliverDue(db, transport, 'noreply@test.it');
    };
    await Promise.all([rounds(a.connection.db), rounds(bConnection.db)]);
    expect(sent).toHaveLength(30);
    expect(new Set(sent).size).toBe(30);
    const states = await sql<{ stato: string; n: number }>`SELECT stato, count(*)::int AS n FROM email_outbox GROUP BY stato`.execute(a.connection.db);
    expect(states.rows).toEqual([{ stato: 'inviata', n: 30 }]);
  });

  describe('with a quotation', () => {
    let admin: string;
    let collab: string;
    let staff: string;
    let quotazioneId: number;
    beforeAll(async () => {
      admin = await a.login(ADMIN.email, ADMIN.password);
      const collabId = (await call(a.app, 'POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome: 'VERDI', tipo: 'AGENTE', email: 'verdi.agente@example.it' } })).body.data.model.id as number;
      collab = await userWithRoles(a, admin, { email: 'collab.mi@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
      staff = await userWithRoles(a, admin, { email: 'staff.mi@test.it', roles: ['staff'] });
      const modello = await call(a.app, 'POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 L', anno: 1970, valore_b: 9000, colore: 'rosso', tipologia: 'A' } });
      expect(modello.status, JSON.stringify(modello.body)).toBe(201);
      const res = await call(a.app, 'POST', '/api/quotazioni', { token: collab, body: {
        persona: 'f', nome: 'Giovanni', cognome: 'Esposito', email: 'giovanni.esposito@example.it', telefono: '+39 333 7654321', provincia_codice: 'RM', competenze: 20,
        veicoli_storici: [{ id: 'v1', auto_storica_id: modello.body.data.model.id, marca: 'Fiat', modello: '500 L', anno: 1970, tipologia_ania: 'A', targa: 'AB123CD' }],
      } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      quotazioneId = res.body.data.model.id;
      // Documents are collected from status 5 (spec 001 §4).
      expect((await call(a.app, 'POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: quotazioneId, stato_quotazione_id: 5 } })).status).toBe(200);
    });

    it('a document uploaded to one downloads from the other', async () => {
      const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
      const boundary = '----multiistanza';
      const payload = Buffer.concat([
        ...Object.entries({ id: String(quotazioneId), collection: 'carta_identita', model: 'Quotazione' })
          .map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ci.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), PDF,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const up = await a.app.inject({ method: 'POST', url: '/api/quotazioni/upload', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${collab}` } });
      expect(up.statusCode, up.body).toBe(201);
      const media = JSON.parse(up.body).data.media as { id: number };
      const file = await call(b, 'GET', `/api/quotazioni/getDocument/carta_identita/${media.id}`, { token: collab });
      expect(file.status).toBe(200);
      expect(file.raw.equals(PDF)).toBe(true);
    });

    it('a workflow action raced on both instances succeeds once', async () => {
      // Four requests for one transition (documents done), two on each instance: the row lock lets one through.
      const move = (app: FastifyInstance) => call(app, 'POST', `/api/quotazioni/terminaCaricamento/${quotazioneId}`, { token: collab });
      const results = await Promise.all([move(a.app), move(b), move(a.app), move(b)]);
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200), JSON.stringify(results.map((r) => r.body.message))).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(3);
      const history = await sql<{ n: number }>`SELECT count(*)::int AS n FROM workflow_history
        WHERE resource = 'quotazione' AND record_id = ${quotazioneId} AND event = 'TERMINA_CARICAMENTO'`.execute(a.connection.db);
      expect(history.rows[0]!.n).toBe(1);
    });

    it('status counts, kept by a trigger in the writing transaction, match the table on both instances', async () => {
      await sql`INSERT INTO quotazione (tipo, bundle_key, stato_quotazione_id, collaboratore_id, persona, nome, cognome)
        SELECT tipo, bundle_key, 3, NULL, persona, nome, cognome FROM quotazione`.execute(a.connection.db);
      await sql`UPDATE quotazione SET stato_quotazione_id = 2 WHERE collaboratore_id IS NULL`.execute(a.connection.db);
      const live = await sql<{ s: number; n: number }>`SELECT stato_quotazione_id AS s, count(*)::int AS n FROM quotazione GROUP BY 1`.execute(a.connection.db);
      const expected = Object.fromEntries(live.rows.map((r) => [r.s, r.n]));
      for (const app of [a.app, b]) {
        const res = await call(app, 'GET', '/api/stati_quotazione', { token: admin });
        expect(res.status).toBe(200);
        const got = Object.fromEntries((res.body.data as Array<{ id: number; count: number }>).filter((r) => r.count).map((r) => [r.id, r.count]));
        expect(got).toEqual(expected);
      }
      await sql`DELETE FROM quotazione WHERE collaboratore_id IS NULL`.execute(a.connection.db);
      const after = await call(b, 'GET', '/api/stati_quotazione', { token: admin });
      expect((after.body.data as Array<{ id: number; count: number }>).find((r) => r.id === 2)!.count).toBe(0);
    });
  });
});

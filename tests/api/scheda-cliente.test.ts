// The customer card's tabs (cliente/resource.json "related") ask the related lists with filter[<field>]=<customer id>:
// every answer holds only that customer's rows, and a collaborator's only those of their scope.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.connection.db, () => undefined);
}, 180_000);
afterAll(() => t?.close());

type Row = Record<string, unknown>;
interface Tab { title: string; kind?: string; resource?: string; field?: string; match?: Record<string, string> }

it('answers each related list of the customer card with only the customer\'s rows, within the user\'s scope', { timeout: 120_000 }, async () => {
  const users = JSON.parse(await readFile(path.join(process.cwd(), 'scripts/demo/users.json'), 'utf8')) as Array<{ email: string; password: string; roles: string[] }>;
  const login = (role: string, nth = 0) => { const u = users.filter((x) => x.roles.includes(role))[nth]!; return t.login(u.email, u.password); };
  const staff = await login('staff');
  const rossi = await login('collaboratore', 0);
  const verdi = await login('collaboratore', 1);
  const collaboratore = async (nth: number) => {
    const email = users.filter((x) => x.roles.includes('collaboratore'))[nth]!.email;
    return (await sql<{ collaboratore_id: number }>`SELECT collaboratore_id FROM utente WHERE email = ${email}`.execute(t.connection.db)).rows[0]!;
  };
  const me = { rossi: await collaboratore(0), verdi: await collaboratore(1) };

  const defs = (await t.call('GET', '/api/definitions', { token: staff })).body as { resources: Array<{ name: string; resource: { api: { path: string }; related?: Tab[] } }> };
  const cliente = defs.resources.find((r) => r.name === 'cliente')!;
  const tabs = (cliente.resource.related ?? []).filter((tab) => (tab.kind ?? 'list') === 'list' && tab.field);
  expect(tabs.map((tab) => tab.resource)).toEqual(expect.arrayContaining(['quotazione', 'quotazioni_rca', 'polizza', 'titolo']));
  const pathOf = (name: string) => defs.resources.find((r) => r.name === name)?.resource.api.path ?? `/api/${name}`;

  // The demo customer with the most policies, and who owns it.
  const { id, collaboratore_id: owner } = (await sql<{ id: number; collaboratore_id: number }>`
    SELECT c.id, c.collaboratore_id FROM cliente c JOIN polizza p ON p.cliente_id = c.id
    GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 1`.execute(t.connection.db)).rows[0]!;
  const ownerToken = owner === (me.rossi.collaboratore_id as number) ? rossi : owner === (me.verdi.collaboratore_id as number) ? verdi : undefined;
  expect(ownerToken, 'the demo customer belongs to a demo collaborator').toBeDefined();
  const otherToken = ownerToken === rossi ? verdi : rossi;
  let seen = 0;
  for (const tab of tabs) {
    const table = tab.resource!;
    const url = `${pathOf(table)}?filter[${tab.field}]=${id}&per_page=-1`;
    const all = (await sql<{ id: number; collaboratore_id: number | null }>`SELECT id, collaboratore_id FROM ${sql.table(table)} WHERE ${sql.ref(tab.field!)} = ${id}`.execute(t.connection.db)).rows;
    const asStaff = await t.call('GET', url, { token: staff });
    expect(asStaff.status, `${tab.title} (staff)`).toBe(200);
    expect(asStaff.body.data.every((r: Row) => r[tab.field!] === id), tab.title).toBe(true);
    expect(asStaff.body.data.map((r: Row) => r.id).sort(), tab.title).toEqual(all.map((r) => r.id).sort());
    seen += all.length;
    for (const token of [ownerToken, otherToken].filter((x): x is string => !!x)) {
      const mine = token === rossi ? me.rossi.collaboratore_id : me.verdi.collaboratore_id;
      const answer = await t.call('GET', url, { token });
      // A resource the collaborator may not list is refused (and the card hides its tab).
      if (answer.status === 403) continue;
      expect(answer.status, tab.title).toBe(200);
      expect(answer.body.data.every((r: Row) => r[tab.field!] === id), tab.title).toBe(true);
      // Within their scope: their own rows of this customer (the other collaborator's, if any, stay out).
      const own = all.filter((r) => r.collaboratore_id === mine).map((r) => r.id).sort();
      const got = answer.body.data.map((r: Row) => r.id).sort();
      expect(got.every((x: number) => all.some((r) => r.id === x)), tab.title).toBe(true);
      if (token !== ownerToken) expect(got, `${tab.title}: another collaborator`).toEqual(own);
      else expect(got.length, `${tab.title}: the owner`).toBeGreaterThanOrEqual(own.length);
    }
  }
  // The demo customer really has related rows, so the checks above compared something.
  expect(seen).toBeGreaterThan(0);

  // The sent e-mails tab matches the customer's address; only the super admin lists the outbox.
  const mailTab = (cliente.resource.related ?? []).find((tab) => tab.resource === 'email_outbox')!;
  const [[theirs, ours]] = Object.entries(mailTab.match!) as [[string, string]];
  const email = (await sql<{ email: string }>`SELECT ${sql.ref(ours)} AS email FROM cliente WHERE id = ${id}`.execute(t.connection.db)).rows[0]!.email;
  await sql`INSERT INTO email_outbox (destinatario, oggetto, corpo, stato) VALUES (${email}, 'Per il cliente', 'x', 'in_attesa'), ('altro@example.it', 'Per altri', 'x', 'in_attesa')`.execute(t.connection.db);
  const root = await t.login(ADMIN.email, ADMIN.password);
  const mails = await t.call('GET', `/api/email_outbox?filter[${theirs}]=${encodeURIComponent(email)}&per_page=-1`, { token: root });
  expect(mails.status).toBe(200);
  expect(mails.body.data.map((r: Row) => r.oggetto)).toContain('Per il cliente');
  expect(mails.body.data.every((r: Row) => r.destinatario === email)).toBe(true);
  expect((await t.call('GET', `/api/email_outbox?filter[${theirs}]=${encodeURIComponent(email)}`, { token: staff })).status).toBe(403);
});

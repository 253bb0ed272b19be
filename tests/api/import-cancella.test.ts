// Import with 'cancella' while quotations point at models (issue 29): a preview counts the quotations, nothing is wiped
// without confirmation, and after it the referenced models survive out of catalogue, still priced by Calcola.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

const HEADER = 'marca;modello;anno;valore_b;colore;tipologia';

function upload(csv: string, fields: Record<string, string>) {
  const boundary = `----cancella${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="catalogo.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.call('POST', '/api/autostoriche/import', { token: admin, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

const models = async () => (await sql<{ id: number; modello: string; fuori_catalogo: boolean | null }>`
  SELECT id, modello, fuori_catalogo FROM autostoriche ORDER BY modello`.execute(t.connection.db)).rows;

async function quotazione(ids: number[]): Promise<number> {
  const res = await t.call('POST', '/api/quotazioni', { token: admin, body: {
    persona: 'f', nome: 'Giovanni', cognome: 'Esposito', email: 'giovanni.esposito@example.it', telefono: '+39 333 7654321', provincia_codice: 'RM',
    veicoli_storici: ids.map((id, i) => ({ auto_storica_id: id, marca: 'Fiat', modello: 'Modello', anno: 1968, tipologia_ania: 'A', targa: `RM10000${i}` })),
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

describe("import with 'cancella' and quotations using the models", () => {
  it('without quotations using them, the spec call (file, cancella) still replaces the catalogue', async () => {
    expect((await upload(`${HEADER}\nFIAT;VECCHIO;1965;5000;verde;A\n`, {})).status).toBe(200);
    const res = await upload(`${HEADER}\nFIAT;GIULIA USATA;1968;18000;giallo;A\nFIAT;500 USATA;1968;6000;verde;A\nFIAT;LIBERA;1970;7000;verde;A\n`, { cancella: '1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ imported: 3, deleted: 1, fuori_catalogo: 0, quotazioni: 0 });
    expect((await models()).map((m) => m.modello)).toEqual(['500 USATA', 'GIULIA USATA', 'LIBERA']);
  });

  it('previews, refuses without confirmation, then keeps the used models out of catalogue and Calcola still prices them', async () => {
    const byName = Object.fromEntries((await models()).map((m) => [m.modello, m.id]));
    const giulia = byName['GIULIA USATA']!;
    const cinquecento = byName['500 USATA']!;
    const quotations = [await quotazione([giulia]), await quotazione([giulia, cinquecento]), await quotazione([cinquecento])];
    for (const id of quotations) expect((await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } })).status).toBe(200);
    const before = await models();
    const nuovo = `${HEADER}\nLANCIA;FULVIA NUOVA;1970;9000;verde;A\nLANCIA;FLAVIA NUOVA;1968;8000;verde;A\n`;

    // The preview reads the file and counts, keeping nothing.
    const preview = await upload(nuovo, { cancella: '1', anteprima: '1' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ anteprima: true, da_importare: 2, da_eliminare: 1, fuori_catalogo: 2, quotazioni: 3 });
    expect(preview.body.message).toMatch(/3 quotazioni usano 2 modelli esistenti: resteranno fuori catalogo/);
    expect(await models()).toEqual(before);

    // Without confirmation: 409 with the same count, nothing deleted or added.
    const refused = await upload(nuovo, { cancella: '1' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body).toMatchObject({ quotazioni: 3, conferma_richiesta: true, errors: { cancella: [expect.stringMatching(/^3 quotazioni usano modelli/)] } });
    expect(await models()).toEqual(before);

    const done = await upload(nuovo, { cancella: '1', conferma: '1' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ imported: 2, deleted: 1, fuori_catalogo: 2, quotazioni: 3 });
    expect(await models()).toEqual([
      { id: cinquecento, modello: '500 USATA', fuori_catalogo: true },
      { id: expect.any(Number), modello: 'FLAVIA NUOVA', fuori_catalogo: false },
      { id: expect.any(Number), modello: 'FULVIA NUOVA', fuori_catalogo: false },
      { id: giulia, modello: 'GIULIA USATA', fuori_catalogo: true },
    ]);
    for (const id of quotations) {
      const res = await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Still readable, no longer offered for new vehicles.
    expect((await t.call('GET', `/api/autostoriche/${giulia}`, { token: admin })).body.data).toMatchObject({ modello: 'GIULIA USATA', fuori_catalogo: true });
    const offered = await t.call('GET', '/api/autostoriche/search?search=USATA', { token: admin });
    expect(offered.body.data).toEqual([]);
    expect((await t.call('GET', '/api/autostoriche/search?search=NUOVA', { token: admin })).body.data).toHaveLength(2);
    expect((await t.call('GET', '/api/autostoriche/marche', { token: admin })).body.data).toEqual(['LANCIA']);
  });

  it('refuses a flag it cannot read, changing nothing', async () => {
    const before = await models();
    const res = await upload(`${HEADER}\nFIAT;ALTRO;1970;7000;verde;A\n`, { cancella: '1', conferma: 'forse' });
    expect(res.status).toBe(422);
    expect(res.body.errors.conferma).toEqual(['Valore non ammesso: usa 1 per confermare la cancellazione dei modelli esistenti']);
    expect(await models()).toEqual(before);
  });
});

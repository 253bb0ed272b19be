// Signature of an issued historic-car policy (issue 29): whoever issues leaves the contract to sign, 'Rigenera documenti'
// stores it again, 'Firma Manuale' takes only that contract signed, and the quotation's GET carries its latest request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';
import { SandboxFirma } from '../../src/server/adapters/firma/sandbox.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collab: string;
let collabId: number;
let modello: number;
const sandbox = new SandboxFirma(0);

const OGGI = oggiIso();
const IERI = giornoIso(-1);

interface Media { id: number; name: string; collection_name: string; url: string; meta: { versione?: number; codice?: string } }

/** A quotation priced, at 'In attesa di emissione' (7) with its issue data: no contract stored yet. */
async function inAttesaDiEmissione(targa: string): Promise<number> {
  const created = await t.call('POST', '/api/quotazioni', { token: admin, body: {
    persona: 'f', nome: 'Mario', cognome: 'Rossi', email: 'mario.rossi@example.it', telefono: '+39 333 1234567', cfisc: 'RSSMRA80A01H501U',
    provincia_codice: 'RM', competenze: 20, collaboratore_id: collabId,
    veicoli_storici: [{ auto_storica_id: modello, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa }],
  } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.model.id as number;
  expect((await t.call('POST', '/api/quotazioni/calcolo', { token: admin, body: { id } })).status).toBe(200);
  expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: admin, body: { id, stato_quotazione_id: 7 } })).status).toBe(200);
  const saved = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: staff, body: { data_incasso: IERI } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return id;
}

/** Issued by staff with 'Emetti' straight from status 7 (no 'Richiedi emissione' before). */
async function emessa(targa: string): Promise<number> {
  const id = await inAttesaDiEmissione(targa);
  const res = await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: staff, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result).toBe(0);
  return id;
}

const contratti = async (id: number): Promise<Media[]> =>
  (await t.call('GET', `/api/quotazioni/${id}/media`, { token: staff })).body.data.filter((m: Media) => m.collection_name === 'contratto_itas');

async function scarica(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${staff}` } });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** What the customer gives back: the downloaded contract with a signature drawn on it, saved again. */
async function firma(contratto: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.load(contratto);
  const page = doc.getPage(doc.getPageCount() - 1);
  page.drawText('Mario Rossi', { x: 220, y: 120, size: 14, font: await doc.embedFont(StandardFonts.HelveticaOblique) });
  return Buffer.from(await doc.save());
}

async function pdfQualsiasi(testo: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(testo, { x: 50, y: 780, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

async function caricaFirmato(id: number, content: Buffer, name = 'contratto firmato.pdf') {
  const boundary = `----firma${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    content, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST', url: `/api/v1/policies/${id}/signature_request/signed`, payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${staff}` },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

beforeAll(async () => {
  t = await createTestApp({ firmaProvider: sandbox });
  admin = await t.login(ADMIN.email, ADMIN.password);
  collabId = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome: 'BIANCHI', tipo: 'AGENTE', email: 'bianchi.firma@example.it' } })).body.data.model.id;
  staff = await userWithRoles(t, admin, { email: 'staff.firma@test.it', roles: ['staff'] });
  collab = await userWithRoles(t, admin, { email: 'collab.firma@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  const m = await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } });
  modello = m.body.data.model.id;
});
afterAll(() => t?.close());

describe('the contract to sign after the issue', () => {
  it("staff 'Emetti' stores the issued contract (with the policy number): the OTP signature request goes out", async () => {
    const id = await emessa('FE100AA');
    const [contratto] = await contratti(id);
    expect(contratto, 'the issue stores the contract').toBeDefined();
    const numero = (await t.call('GET', `/api/quotazioni/${id}`, { token: staff })).body.data.verti_policy_number as string;
    const doc = await PDFDocument.load(await scarica(contratto!.url));
    expect(doc.getKeywords()).toContain(contratto!.meta.codice);
    expect(doc.getSubject()).toContain(numero);

    const sent = await t.call('POST', `/api/v1/policies/${id}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.last_signature_request).toMatchObject({ status: 'ongoing', modalita: 'otp', documenti: [contratto!.id] });
    sandbox.avanza(sent.body.data.last_signature_request.response.id);
    const read = await t.call('GET', `/api/v1/policies/${id}/signature_request`, { token: staff });
    expect(read.body.data.last_signature_request.status).toBe('done');
    expect(read.body.data.model.stato_quotazione_id).toBe(10);
  });

  it("'Richiedi emissione' then 'Emetti': the contract to sign is the issued version, the latest", async () => {
    const id = await inAttesaDiEmissione('FE101AA');
    // The collaborator asks for the issue (who may issue does not see the button); staff issue.
    expect((await t.call('POST', `/api/quotazioni/richiediEmissione/${id}`, { token: collab })).status).toBe(200);
    expect((await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: staff, body: {} })).body.result).toBe(0);
    expect((await contratti(id)).map((m) => m.meta.versione)).toEqual([1, 2]);
    const answer = await t.call('GET', `/api/v1/policies/${id}/signature_request`, { token: staff });
    expect(answer.body.data.contratto).toMatchObject({ versione: 2, codice: (await contratti(id))[1]!.meta.codice });
  });

  it("'Rigenera documenti' of an issued policy stores a new version of the contract", async () => {
    const id = await emessa('FE102AA');
    const before = await contratti(id);
    const res = await t.call('POST', `/api/quotazioni/${id}/rigenera-documenti-compagnia`, { token: staff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await contratti(id);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)!.meta.versione).toBe(before.length + 1);
    // A refused regeneration (no policy yet) stores nothing.
    const early = await inAttesaDiEmissione('FE103AA');
    expect((await t.call('POST', `/api/quotazioni/${early}/rigenera-documenti-compagnia`, { token: staff })).status).toBe(409);
    expect(await contratti(early)).toEqual([]);
  });
});

describe("'Firma Manuale' takes only the contract to sign, signed", () => {
  it('refuses a random PDF, the unsigned contract and an older version at the file field; accepts the signed contract', async () => {
    const id = await emessa('FM100AA');
    const rigenera = await t.call('POST', `/api/quotazioni/${id}/rigenera-documenti-compagnia`, { token: staff });
    expect(rigenera.status).toBe(200);
    const [vecchio, ultimo] = await contratti(id);
    const answer = await t.call('GET', `/api/v1/policies/${id}/signature_request`, { token: staff });
    // The box offers the contract to download: the latest version, with its code.
    expect(answer.body.data.contratto).toMatchObject({ id: ultimo!.id, url: ultimo!.url, versione: 2, codice: ultimo!.meta.codice });

    const files = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM media WHERE owner_id = ${id} AND collection_name = 'contratto_firmato'`.execute(t.connection.db)).rows[0]!.n;
    const casuale = await caricaFirmato(id, await pdfQualsiasi(`Contratto quotazione ${id} - firmato`));
    expect(casuale.status, JSON.stringify(casuale.body)).toBe(422);
    expect(Object.keys(casuale.body.errors)).toEqual(['file']);
    expect(casuale.body.errors.file[0]).toContain(ultimo!.meta.codice);

    const nonFirmato = await caricaFirmato(id, await scarica(ultimo!.url));
    expect(nonFirmato.status).toBe(422);
    expect(nonFirmato.body.errors.file[0]).toMatch(/non firmato/);

    const superato = await caricaFirmato(id, await firma(await scarica(vecchio!.url)));
    expect(superato.status).toBe(422);
    expect(superato.body.errors.file[0]).toMatch(/versione 1.*versione 2/);
    expect(await files()).toBe(0);
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: staff })).body.data.stato_quotazione_id).toBe(9);

    const ok = await caricaFirmato(id, await firma(await scarica(ultimo!.url)));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.last_signature_request).toMatchObject({ status: 'done', modalita: 'manual' });
    expect(ok.body.data.model.stato_quotazione_id).toBe(10);
    expect(await files()).toBe(1);
  });
});

describe('the quotation answers its latest signature request (spec 001 §3)', () => {
  it('GET /api/quotazioni/{id} carries last_signature_request: null before, the request after', async () => {
    const id = await emessa('LS100AA');
    const before = await t.call('GET', `/api/quotazioni/${id}`, { token: staff });
    expect(before.status).toBe(200);
    expect(before.body.data).toHaveProperty('last_signature_request', null);
    const sent = await t.call('POST', `/api/v1/policies/${id}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const after = await t.call('GET', `/api/quotazioni/${id}`, { token: staff });
    expect(after.body.data.last_signature_request).toMatchObject({ id: sent.body.data.last_signature_request.id, status: 'ongoing', modalita: 'otp' });
    // The list stays as it was: the request is read for one record only.
    const list = await t.call('GET', `/api/quotazioni?filter[id]=${id}`, { token: staff });
    expect(list.body.data[0]).not.toHaveProperty('last_signature_request');
  });
});

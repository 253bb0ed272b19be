// Documents and signature through the API: refusals leave no row and no bytes, downloads are scoped like the
// quotation, a second instance on the same database serves the file, the contract and the signature flow.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { SandboxFirma } from '../../src/server/adapters/firma/sandbox.ts';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { domains } from '../../src/server/domains/index.ts';

let t: TestApp;
let admin: string;
let collab: string;
let otherCollab: string;
let staff: string;
let quotazioneId: number;
const sandbox = new SandboxFirma(0);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer; type?: string }, fileFirst = false) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  const fieldParts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const filePart = file ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/pdf'}\r\n\r\n`), file.content, Buffer.from('\r\n')] : [];
  if (fileFirst) parts.push(...filePart, ...fieldParts);
  else parts.push(...fieldParts, ...filePart);
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(app: Pick<TestApp['app'], 'inject'>, token: string, fields: Record<string, string>, file?: { name: string; content: Buffer; type?: string }, url = '/api/quotazioni/upload', fileFirst = false) {
  const body = multipart(fields, file, fileFirst);
  const res = await app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

const storedBytes = (db: TestApp['connection']['db'], app: Pick<TestApp['app'], 'ctx'> = t.app) => app.ctx.media.storedBytes(db);

async function nothingStored(before: { rows: number; chunks: number; files: number }, app: Pick<TestApp['app'], 'ctx'> = t.app) {
  expect(await storedBytes(t.connection.db, app)).toEqual(before);
}

/** The copy the customer gives back: the latest contract to sign, downloaded, with a signature drawn on it. */
async function contrattoFirmato(id: number, token: string): Promise<Buffer> {
  const contratto = (await t.call('GET', `/api/quotazioni/${id}/media`, { token })).body.data.filter((m: { collection_name: string }) => m.collection_name === 'contratto_itas').at(-1);
  const pdf = await t.app.inject({ method: 'GET', url: contratto.url, headers: { authorization: `Bearer ${token}` } });
  const doc = await PDFDocument.load(pdf.rawPayload);
  doc.getPage(0).drawText('firmato', { x: 300, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  t = await createTestApp({ firmaProvider: sandbox });
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  const collabId = await mk('BIANCHI', 'bianchi.agente@example.it');
  const otherId = await mk('NERI', 'neri.agente@example.it');
  collab = await userWithRoles(t, admin, { email: 'collab.d@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  otherCollab = await userWithRoles(t, admin, { email: 'other.d@test.it', roles: ['collaboratore'], collaboratore_id: otherId });
  staff = await userWithRoles(t, admin, { email: 'staff.d@test.it', roles: ['staff'] });
  const modello = await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'ALFA ROMEO', modello: 'GIULIA SUPER', anno: 1968, valore_b: 18000, colore: 'verde', tipologia: 'A' } });
  expect(modello.status, JSON.stringify(modello.body)).toBe(201);
  const res = await t.call('POST', '/api/quotazioni', { token: collab, body: {
    persona: 'f', nome: 'Giovanni', cognome: 'Esposito', email: 'giovanni.esposito@example.it', telefono: '+39 333 7654321', provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ id: 'v1', auto_storica_id: modello.body.data.model.id, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa: 'AB123CD' }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  quotazioneId = res.body.data.model.id;
  // The request to issue needs a calculation bound to the quotation's data.
  const calcolo = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: quotazioneId } });
  expect(calcolo.status, JSON.stringify(calcolo.body)).toBe(200);
  // Documents are collected from status 5 (spec 001 §4).
  expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: quotazioneId, stato_quotazione_id: 5 } })).status).toBe(200);
});
afterAll(() => t?.close());

describe('upload', () => {
  it('stores a PDF, lists it and downloads the same bytes with type and name', async () => {
    const res = await upload(t.app, collab, { id: String(quotazioneId), collection: 'carta_identita', model: 'Quotazione', nome_file: 'Carta identità.pdf' }, { name: 'ci.pdf', content: PDF });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Documento caricato con successo');
    const media = res.body.data.media;
    expect(media).toMatchObject({ collection_name: 'carta_identita', name: 'Carta identità.pdf', mime_type: 'application/pdf', size: PDF.length });
    const list = await t.call('GET', `/api/v1/goold/quotations/${quotazioneId}/media`, { token: collab });
    expect(list.body.data.map((m: { id: number }) => m.id)).toContain(media.id);
    const file = await t.app.inject({ method: 'GET', url: `/api/quotazioni/getDocument/carta_identita/${media.id}`, headers: { authorization: `Bearer ${collab}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toContain("filename*=UTF-8''Carta%20identit%C3%A0.pdf");
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('serves active content (a PDF with JavaScript, a PDF/HTML polyglot) as a sandboxed attachment, never inline', async () => {
    const active = Buffer.from('%PDF-1.4\n<html><script>alert(document.domain)</script></html>\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer <<>>\n%%EOF\n');
    const res = await upload(t.app, collab, { id: String(quotazioneId), collection: 'tessera_club', model: 'Quotazione', nome_file: 'attivo.pdf' }, { name: 'attivo.pdf', content: active });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const query of ['', '?download=1']) {
      const file = await t.app.inject({ method: 'GET', url: `/api/quotazioni/getDocument/tessera_club/${res.body.data.media.id}${query}`, headers: { authorization: `Bearer ${collab}` } });
      expect(file.statusCode).toBe(200);
      expect(String(file.headers['content-disposition'])).toMatch(/^attachment; /);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(String(file.headers['content-security-policy'])).toMatch(/^sandbox; default-src 'none'/);
    }
    // The later tests count this collection's files.
    expect((await t.call('DELETE', `/api/quotazioni/getDocument/tessera_club/${res.body.data.media.id}`, { token: collab })).status).toBe(200);
  });

  it('takes the type from the content: a PNG sent as PDF is a PNG; the fields may follow the file', async () => {
    const res = await upload(t.app, collab, { id: String(quotazioneId), collection: 'patente', model: 'Quotazione' }, { name: 'patente.pdf', content: PNG, type: 'application/pdf' }, '/api/v1/goold/quotations/upload', true);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.media).toMatchObject({ mime_type: 'image/png', collection_name: 'patente', name: 'patente.pdf' });
  });

  it('stores a vehicle booklet under the vehicle (model Veicolo)', async () => {
    const res = await upload(t.app, collab, { id: 'v1', collection: 'libretto', model: 'Veicolo' }, { name: 'libretto.png', content: PNG, type: 'image/png' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.media).toMatchObject({ item_model: 'Veicolo', item_id: 'v1', collection_name: 'libretto' });
    expect((await upload(t.app, collab, { id: String(quotazioneId), collection: 'libretto', model: 'Quotazione' }, { name: 'l.png', content: PNG })).status).toBe(422);
  });

  it('asks which record when a vehicle row id repeats (a renewal copied before copies got ids of their own)', async () => {
    const copy = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Giovanni', cognome: 'Esposito', provincia_codice: 'RM',
      veicoli_storici: [{ id: 'v1', marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A' }] } });
    const copyId = copy.body.data.model.id as number;
    // A write now gives the copy a row id of its own: the repeated id is older data, made here by hand.
    expect(copy.body.data.model.veicoli_storici[0].id).not.toBe('v1');
    await sql`UPDATE quotazione SET veicoli_storici = jsonb_set(veicoli_storici, '{0,id}', '"v1"') WHERE id = ${copyId}`.execute(t.connection.db);
    await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: copyId, stato_quotazione_id: 5 } });
    const ambiguous = await upload(t.app, collab, { id: 'v1', collection: 'libretto', model: 'Veicolo' }, { name: 'libretto.png', content: PNG });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.errors.owner_id).toBeDefined();
    const named = await upload(t.app, collab, { id: 'v1', owner_id: String(copyId), collection: 'libretto', model: 'Veicolo' }, { name: 'libretto.png', content: PNG });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect((await t.call('GET', `/api/quotazioni/${copyId}/media`, { token: collab })).body.data.map((m: { item_id: string }) => m.item_id)).toEqual(['v1']);
  });

  it('refuses wrong content, too big, a fifth in a category, path names, no file: no row and no bytes left', async () => {
    const before = await storedBytes(t.connection.db);
    const fields = { id: String(quotazioneId), collection: 'varie', model: 'Quotazione' };
    const text = await upload(t.app, collab, fields, { name: 'falso.pdf', content: Buffer.from('questo non è un PDF, solo testo'.repeat(100)) });
    expect(text.status).toBe(422);
    expect(text.body.errors.file[0]).toMatch(/Tipo di file non consentito/);
    await nothingStored(before);

    // 25 MB limit; the refusal comes while streaming, after the first chunks were written in the transaction.
    const big = Buffer.concat([PDF, Buffer.alloc(26 * 1024 * 1024, 0x20)]);
    const tooBig = await upload(t.app, collab, fields, { name: 'grande.pdf', content: big });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors.file[0]).toMatch(/dimensione massima/);
    await nothingStored(before);

    const traversal = await upload(t.app, collab, fields, { name: '../../etc/passwd.pdf', content: PDF });
    expect(traversal.status).toBe(422);
    expect(traversal.body.errors.file).toEqual(['Il nome del file non può contenere percorsi.']);
    const nul = await upload(t.app, collab, { ...fields, nome_file: 'a\u0000b.pdf' }, { name: 'ok.pdf', content: PDF });
    expect(nul.status).toBe(422);
    expect(nul.body.errors.nome_file).toBeDefined();
    await nothingStored(before);

    const none = await upload(t.app, collab, fields);
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ message: 'Non hai specificato un file da caricare', errors: { file: ['Non hai specificato un file da caricare'] } });
    const emptyPart = await upload(t.app, collab, fields, { name: '', content: Buffer.alloc(0) });
    expect(emptyPart.body.message).toBe('Non hai specificato un file da caricare');
    await nothingStored(before);

    for (let i = 0; i < 4; i++) expect((await upload(t.app, collab, fields, { name: `v${i}.pdf`, content: PDF })).status).toBe(201);
    const afterFour = await storedBytes(t.connection.db);
    const fifth = await upload(t.app, collab, fields, { name: 'v5.pdf', content: PDF });
    expect(fifth.status).toBe(422);
    expect(fifth.body.errors.file[0]).toMatch(/Sono già presenti 4 documenti/);
    await nothingStored(afterFour);
  });

  it('scopes downloads and lists like the quotation: another collaborator gets 404', async () => {
    const list = await t.call('GET', `/api/quotazioni/${quotazioneId}/media`, { token: collab });
    const id = list.body.data[0].id;
    const other = await t.call('GET', `/api/quotazioni/getDocument/carta_identita/${id}`, { token: otherCollab });
    expect(other.status).toBe(404);
    expect((await t.call('GET', `/api/quotazioni/${quotazioneId}/media`, { token: otherCollab })).status).toBe(404);
    const before = await storedBytes(t.connection.db);
    expect((await upload(t.app, otherCollab, { id: String(quotazioneId), collection: 'varie' }, { name: 'x.pdf', content: PDF })).status).toBe(404);
    expect((await t.call('DELETE', `/api/quotazioni/getDocument/carta_identita/${id}`, { token: otherCollab })).status).toBe(404);
    await nothingStored(before);
    expect((await t.call('GET', `/api/quotazioni/getDocument/patente/${id}`, { token: collab })).status).toBe(404);
  });

  it('deletes while the machine allows it', async () => {
    const res = await upload(t.app, collab, { id: String(quotazioneId), collection: 'tessera_club' }, { name: 'club.pdf', content: PDF });
    const id = res.body.data.media.id;
    const del = await t.call('DELETE', `/api/quotazioni/getDocument/tessera_club/${id}`, { token: collab });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect((await t.call('GET', `/api/quotazioni/getDocument/tessera_club/${id}`, { token: collab })).status).toBe(404);
  });

  it('serves a document uploaded through one instance from a second instance on the same database', async () => {
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const second = await buildApp({ domains, db: t.connection.db, definitions });
    try {
      const res = await upload(t.app, collab, { id: String(quotazioneId), collection: 'codice_fiscale' }, { name: 'cf.png', content: PNG });
      const file = await second.inject({ method: 'GET', url: `/api/quotazioni/getDocument/codice_fiscale/${res.body.data.media.id}`, headers: { authorization: `Bearer ${collab}` } });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.rawPayload.equals(PNG)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('each app keeps its own store: PostgreSQL here, a shared directory in two others of the same process', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'media-'));
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const config = { MEDIA_STORAGE: 'dir' as const, MEDIA_DIR: dir };
    const first = await buildApp({ domains, db: t.connection.db, definitions, config });
    const second = await buildApp({ domains, db: t.connection.db, definitions, config });
    try {
      const before = await storedBytes(t.connection.db, first);
      const bad = await upload(first, staff, { id: String(quotazioneId), collection: 'codice_fiscale' }, { name: 'x.pdf', content: Buffer.concat([PDF, Buffer.alloc(26 * 1024 * 1024)]) });
      expect(bad.status).toBe(422);
      await nothingStored(before, first);
      const res = await upload(first, staff, { id: String(quotazioneId), collection: 'codice_fiscale' }, { name: 'cf2.pdf', content: PDF });
      expect(res.status).toBe(201);
      const afterDir = await storedBytes(t.connection.db, first);
      expect(afterDir).toEqual({ rows: before.rows + 1, chunks: before.chunks, files: before.files + 1 });
      // Meanwhile this process's first app still writes its bytes to PostgreSQL, not to the other apps' directory.
      const pg = await upload(t.app, staff, { id: String(quotazioneId), collection: 'codice_fiscale' }, { name: 'cf3.pdf', content: PDF });
      expect(pg.status).toBe(201);
      expect(await storedBytes(t.connection.db, first)).toEqual({ rows: afterDir.rows + 1, chunks: afterDir.chunks + 1, files: afterDir.files });
      const file = await second.inject({ method: 'GET', url: `/api/quotazioni/getDocument/codice_fiscale/${res.body.data.media.id}`, headers: { authorization: `Bearer ${staff}` } });
      expect(file.rawPayload.equals(PDF)).toBe(true);
      const del = await first.inject({ method: 'DELETE', url: `/api/quotazioni/getDocument/codice_fiscale/${res.body.data.media.id}`, headers: { authorization: `Bearer ${staff}` } });
      expect(del.statusCode).toBe(200);
      expect((await storedBytes(t.connection.db, first)).files).toBe(before.files);
      expect((await t.call('DELETE', `/api/quotazioni/getDocument/codice_fiscale/${pg.body.data.media.id}`, { token: staff })).status).toBe(200);
    } finally {
      await first.close();
      await second.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('each app keeps its own signature provider', async () => {
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const other = await buildApp({ domains, db: t.connection.db, definitions, config: { FIRMA_ADAPTER: 'http', FIRMA_URL: 'http://127.0.0.1:9', FIRMA_API_KEY: 'chiave' } });
    try {
      expect(other.ctx.firma.nome).toBe('http');
      expect(t.app.ctx.firma).toBe(sandbox);
    } finally {
      await other.close();
    }
  });

});

describe('contract and signature', () => {
  it('confermaDoc marks the uploaded documents; richiediEmissione stores the generated contract; rigenera keeps the old version', async () => {
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: quotazioneId, stato_quotazione_id: 6 } })).status).toBe(200);
    const conferma = await t.call('POST', `/api/quotazioni/confermaDoc/${quotazioneId}`, { token: collab });
    expect(conferma.status, JSON.stringify(conferma.body)).toBe(200);
    const marked = (await t.call('GET', `/api/quotazioni/${quotazioneId}/media`, { token: collab })).body.data;
    expect(marked.find((m: { collection_name: string }) => m.collection_name === 'carta_identita').meta.verifica.esito).toBe('confermato');

    const res = await t.call('POST', `/api/quotazioni/richiediEmissione/${quotazioneId}`, { token: collab });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const contratti = (await t.call('GET', `/api/quotazioni/${quotazioneId}/media`, { token: collab })).body.data.filter((m: { collection_name: string }) => m.collection_name === 'contratto_itas');
    expect(contratti).toHaveLength(1);
    const pdf = await t.app.inject({ method: 'GET', url: contratti[0].url, headers: { authorization: `Bearer ${collab}` } });
    const doc = await PDFDocument.load(pdf.rawPayload);
    expect(doc.getTitle()).toBe(`Contratto quotazione ${quotazioneId} v1`);

    const again = await t.call('POST', `/api/v1/goold/emissione/${quotazioneId}/rigenera-documenti-emissione`, { token: staff });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.data.map((m: { meta: { versione: number } }) => m.meta.versione)).toEqual([1, 2]);
  });

  it('refuses to send before status 9, then sends once (double click), completes and concludes the quotation', async () => {
    const early = await t.call('POST', `/api/v1/policies/${quotazioneId}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(early.status).toBe(409);
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: quotazioneId, stato_quotazione_id: 9 } })).status).toBe(200);
    expect((await t.call('POST', `/api/v1/policies/${quotazioneId}/signature_request/send`, { token: staff, body: {} })).body.errors.modalita).toEqual(['Scegli la modalità di firma.']);
    const [a, b] = await Promise.all([
      t.call('POST', `/api/v1/policies/${quotazioneId}/signature_request/send`, { token: staff, body: { modalita: 'otp' } }),
      t.call('POST', `/api/v1/policies/${quotazioneId}/signature_request/send`, { token: staff, body: { modalita: 'otp' } }),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data.last_signature_request.status).toBe('ongoing');
    expect(a.body.data.history).toHaveLength(1);
    expect(sandbox.richieste().filter((r) => r.chiave.startsWith(`quotazione:${quotazioneId}:`))).toHaveLength(1);

    sandbox.avanza(a.body.data.last_signature_request.response.id);
    const read = await t.call('GET', `/api/v1/policies/${quotazioneId}/signature_request`, { token: collab });
    expect(read.body.data.last_signature_request.status).toBe('done');
    expect(read.body.data.model.stato_quotazione_id).toBe(10);
    const firmati = (await t.call('GET', `/api/quotazioni/${quotazioneId}/media`, { token: collab })).body.data.filter((m: { collection_name: string }) => m.collection_name === 'contratto_firmato');
    expect(firmati).toHaveLength(1);
    const pdf = await t.app.inject({ method: 'GET', url: firmati[0].url, headers: { authorization: `Bearer ${collab}` } });
    // Contract page(s) plus the signature certificate.
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBeGreaterThanOrEqual(2);
    const history = (await t.call('GET', `/api/quotazioni/${quotazioneId}/workflow`, { token: collab })).body.data.storico;
    expect(history.at(-1)).toMatchObject({ event: 'FIRMA_COMPLETATA', to_status: 10 });
    // A second poll changes nothing.
    await t.call('GET', `/api/v1/policies/${quotazioneId}/signature_request`, { token: collab });
    expect((await t.call('GET', `/api/quotazioni/${quotazioneId}/media`, { token: collab })).body.data.filter((m: { collection_name: string }) => m.collection_name === 'contratto_firmato')).toHaveLength(1);
  });

  it('a manual request is a draft: its contacts can be saved, a resend replaces it', async () => {
    const res = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Ugo', cognome: 'Pace', email: 'ugo.pace@example.it', provincia_codice: 'MI',
      veicoli_storici: [{ marca: 'Fiat', modello: '500', anno: 1965, tipologia_ania: 'A' }] } });
    const id = res.body.data.model.id as number;
    await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 7 } });
    await t.call('POST', `/api/v1/goold/emissione/${id}/rigenera-documenti-emissione`, { token: staff });
    await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 9 } });
    // OTP needs a phone: refused at the field, nothing recorded.
    const otp = await t.call('POST', `/api/v1/policies/${id}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(otp.status).toBe(422);
    expect(otp.body.errors.telefono).toBeDefined();
    const draft = await t.call('POST', `/api/v1/policies/${id}/signature_request/send`, { token: staff, body: { modalita: 'manual' } });
    expect(draft.body.data.last_signature_request).toMatchObject({ status: 'draft', modalita: 'manual', email: 'ugo.pace@example.it' });
    const saved = await t.call('PUT', `/api/v1/policies/${id}/signature_request`, { token: staff, body: { email: 'ugo@example.it', telefono: '+39 333 9990001' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.last_signature_request).toMatchObject({ status: 'draft', email: 'ugo@example.it', telefono: '+39 333 9990001' });
    const again = await t.call('POST', `/api/v1/policies/${id}/signature_request/send`, { token: staff, body: { modalita: 'otp', telefono: '+39 333 9990001', resend: true } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.history.map((h: { status: string }) => h.status)).toEqual(['ongoing', 'expired']);
    expect((await t.call('PUT', `/api/v1/policies/${id}/signature_request`, { token: staff, body: { email: 'x@example.it' } })).status).toBe(409);
  });

  it('manual signature: staff upload the contract to sign, signed by the customer (no other PDF), which completes the request and concludes the quotation', async () => {
    const res = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Elsa', cognome: 'Carta', email: 'elsa.carta@example.it', provincia_codice: 'MI',
      veicoli_storici: [{ marca: 'Fiat', modello: '500', anno: 1965, tipologia_ania: 'A' }] } });
    const id = res.body.data.model.id as number;
    const signed = (token: string, content: Buffer, name = 'contratto firmato.pdf') =>
      upload(t.app, token, {}, { name, content }, `/api/v1/policies/${id}/signature_request/signed`);
    await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 7 } });
    await t.call('POST', `/api/v1/goold/emissione/${id}/rigenera-documenti-emissione`, { token: staff });
    // Only while the quotation waits for the signature; another collaborator gets 404, as for the quotation.
    const early = await signed(staff, PDF);
    expect(early.status).toBe(409);
    await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 9 } });
    expect((await signed(otherCollab, PDF)).status).toBe(404);
    // The manual request prepared for the customer (draft), then the signed copy: refused content leaves the draft as it was.
    const draft = await t.call('POST', `/api/v1/policies/${id}/signature_request/send`, { token: staff, body: { modalita: 'manual' } });
    expect(draft.body.data.last_signature_request).toMatchObject({ status: 'draft', modalita: 'manual' });
    const before = await storedBytes(t.connection.db);
    const wrong = await signed(staff, PNG, 'firmato.pdf');
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['file']);
    await nothingStored(before);
    expect((await t.call('GET', `/api/v1/policies/${id}/signature_request`, { token: staff })).body.data.last_signature_request.status).toBe('draft');
    const none = await upload(t.app, staff, {}, undefined, `/api/v1/policies/${id}/signature_request/signed`);
    expect(none.status).toBe(422);
    expect(none.body.errors.file).toEqual(['Non hai specificato un file da caricare']);

    // Any PDF is not the contract signed: refused at the file field too.
    const other = await signed(staff, PDF);
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(['file']);
    await nothingStored(before);
    const firmato = await contrattoFirmato(id, staff);
    const ok = await signed(staff, firmato);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.last_signature_request).toMatchObject({ status: 'done', modalita: 'manual', signed_media_id: expect.any(Number) });
    expect(ok.body.data.history).toHaveLength(1);
    expect(ok.body.data.model.stato_quotazione_id).toBe(10);
    const firmati = (await t.call('GET', `/api/quotazioni/${id}/media`, { token: staff })).body.data.filter((m: { collection_name: string }) => m.collection_name === 'contratto_firmato');
    expect(firmati.map((m: { id: number; name: string }) => [m.id, m.name])).toEqual([[ok.body.data.last_signature_request.signed_media_id, 'contratto firmato.pdf']]);
    const pdf = await t.app.inject({ method: 'GET', url: firmati[0].url, headers: { authorization: `Bearer ${staff}` } });
    expect(pdf.rawPayload.equals(firmato)).toBe(true);
    const history = (await t.call('GET', `/api/quotazioni/${id}/workflow`, { token: staff })).body.data.storico;
    expect(history.at(-1)).toMatchObject({ event: 'FIRMA_COMPLETATA', to_status: 10 });
    // Signed once: a second copy is refused.
    expect((await signed(staff, firmato)).status).toBe(409);
  });

  it('manual signature without a prior request records one, done with its signed copy; an OTP request in progress refuses it', async () => {
    const mk = async (telefono?: string) => {
      const res = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Ada', cognome: 'Penna', email: 'ada.penna@example.it', provincia_codice: 'MI',
        ...(telefono ? { telefono } : {}), veicoli_storici: [{ marca: 'Fiat', modello: '500', anno: 1965, tipologia_ania: 'A' }] } });
      const id = res.body.data.model.id as number;
      await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 7 } });
      await t.call('POST', `/api/v1/goold/emissione/${id}/rigenera-documenti-emissione`, { token: staff });
      await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 9 } });
      return id;
    };
    const direct = await mk();
    const ok = await upload(t.app, staff, {}, { name: 'firmato.pdf', content: await contrattoFirmato(direct, staff) }, `/api/v1/policies/${direct}/signature_request/signed`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.last_signature_request).toMatchObject({ status: 'done', modalita: 'manual' });
    expect(ok.body.data.last_signature_request.documenti).toHaveLength(1);
    expect(ok.body.data.model.stato_quotazione_id).toBe(10);

    const otp = await mk('+39 333 4445556');
    const sent = await t.call('POST', `/api/v1/policies/${otp}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(sent.body.data.last_signature_request.status).toBe('ongoing');
    const before = await storedBytes(t.connection.db);
    const refused = await upload(t.app, staff, {}, { name: 'firmato.pdf', content: PDF }, `/api/v1/policies/${otp}/signature_request/signed`);
    expect(refused.status).toBe(409);
    await nothingStored(before);
    // Another collaborator's quotation: 404, as the quotation itself.
    expect((await upload(t.app, otherCollab, {}, { name: 'firmato.pdf', content: PDF }, `/api/v1/policies/${otp}/signature_request/signed`)).status).toBe(404);
  });

  it('shows a refusal with its errors and survives a timeout with one request at the provider', async () => {
    const mk = async (email: string) => {
      const res = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Rita', cognome: 'Gallo', email, telefono: '+39 333 1112223', provincia_codice: 'MI',
        veicoli_storici: [{ marca: 'Fiat', modello: '500', anno: 1965, tipologia_ania: 'A' }] } });
      const id = res.body.data.model.id as number;
      await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 7 } });
      await t.call('POST', `/api/v1/goold/emissione/${id}/rigenera-documenti-emissione`, { token: staff });
      await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id, stato_quotazione_id: 9 } });
      return id;
    };
    const refused = await mk('rita.rifiuto@example.it');
    const res = await t.call('POST', `/api/v1/policies/${refused}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Richiesta di firma rifiutata dal servizio di firma.');
    expect(res.body.errors.firma[0]).toMatch(/non è abilitato/);

    const slow = await mk('rita.timeout@example.it');
    const first = await t.call('POST', `/api/v1/policies/${slow}/signature_request/send`, { token: staff, body: { modalita: 'otp' } });
    expect(first.status).toBe(504);
    const read = await t.call('GET', `/api/v1/policies/${slow}/signature_request`, { token: staff });
    expect(read.body.data.last_signature_request.status).toBe('ongoing');
    expect(read.body.data.history).toHaveLength(1);
    expect(sandbox.richieste().filter((r) => r.chiave.startsWith(`quotazione:${slow}:`))).toHaveLength(1);
  });
});

describe('pre-contract notices of the mandate products (documents page)', () => {
  let prodotto: number;
  beforeAll(async () => {
    const fornitore = (await t.call('POST', '/api/compagnia', { token: admin, body: { ragioneSociale: 'Tirrenica Assicurazioni S.p.A.', tipoCompagnia: 'DIRETTO' } })).body.data.model.id;
    const contrattuale = (await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: { nome: 'Tirrenica Vita' } })).body.data.model.id;
    const res = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { nome: 'RCA Auto Storiche', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    prodotto = res.body.data.model.id;
  });

  it('staff upload versions with validity dates; every user lists and downloads; the one in force is marked', async () => {
    const before = await storedBytes(t.connection.db);
    const missing = await upload(t.app, staff, { id: String(prodotto), collection: 'set_informativo', model: 'Prodotto' }, { name: 'set.pdf', content: PDF }, '/api/categoria_prodotto/upload');
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ versione: ['Campo Obbligatorio.'], valido_dal: ['Campo Obbligatorio.'] });
    await nothingStored(before);
    expect((await upload(t.app, collab, { id: String(prodotto), collection: 'set_informativo', versione: '1', valido_dal: '2024-01-01' }, { name: 'set.pdf', content: PDF }, '/api/categoria_prodotto/upload')).status).toBe(403);
    await nothingStored(before);

    const v1 = await upload(t.app, staff, { id: String(prodotto), collection: 'set_informativo', versione: '2024.1', valido_dal: '2024-01-01' }, { name: 'set-2024.pdf', content: PDF }, '/api/categoria_prodotto/upload');
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    expect(v1.body.data.media.meta).toEqual({ versione: '2024.1', valido_dal: '2024-01-01' });
    const future = await upload(t.app, staff, { id: String(prodotto), collection: 'set_informativo', versione: '2099.1', valido_dal: '2099-01-01' }, { name: 'set-2099.pdf', content: PDF }, '/api/categoria_prodotto/upload', true);
    expect(future.status, JSON.stringify(future.body)).toBe(201);
    await upload(t.app, staff, { id: String(prodotto), collection: 'dip_ipid', versione: 'A', valido_dal: '2025-03-01' }, { name: 'dip.pdf', content: PDF }, '/api/categoria_prodotto/upload');

    const page = await t.call('GET', '/api/documenti-precontrattuali', { token: collab });
    expect(page.status).toBe(200);
    expect(page.body.can_upload).toBe(false);
    const docs = page.body.data.find((p: { id: number }) => p.id === prodotto).documenti as Array<{ name: string; corrente: boolean; url: string }>;
    expect(docs.map((d) => [d.name, d.corrente])).toEqual([['dip.pdf', true], ['set-2099.pdf', false], ['set-2024.pdf', true]]);
    const file = await t.app.inject({ method: 'GET', url: docs[2]!.url, headers: { authorization: `Bearer ${collab}` } });
    expect(file.statusCode).toBe(200);
    const { currentNotices } = await import('../../src/server/domains/categoria_prodotto/documenti.ts');
    expect((await currentNotices(t.connection.db, prodotto)).map((m) => m.meta.versione)).toEqual(['A', '2024.1']);
  });
});

describe('reuse by other flows and the provider callback', () => {
  it('acceptUpload with the public audience refuses the fourth document of a category', async () => {
    const Fastify = (await import('fastify')).default;
    const multipartPlugin = (await import('@fastify/multipart')).default;
    const { acceptUpload, collectionsOf } = await import('../../src/server/media/routes.ts');
    const def = t.app.ctx.definitions.resources.get('quotazione')!;
    const publicApp = Fastify();
    await publicApp.register(multipartPlugin, { preservePath: true } as never);
    // What the customer's flow does: the owner from its link, no user, the public limit.
    publicApp.post('/upload', async (request, reply) => {
      const media = await acceptUpload(t.app.ctx, request, {
        collections: collectionsOf(def.resource.media!), audience: 'public', user: null,
        async resolve(_trx, fields) {
          return { owner: { resource: 'quotazione', id: quotazioneId }, collectionName: fields.collection!, collection: collectionsOf(def.resource.media!).get(fields.collection!)! };
        },
      });
      reply.code(201);
      return { id: media.id };
    });
    publicApp.setErrorHandler((error: { statusCode?: number; body?: () => unknown }, _request, reply) => reply.code(error.statusCode ?? 500).send(error.body?.() ?? {}));
    try {
      for (let i = 0; i < 3; i++) expect((await upload(publicApp as never, '', { id: '1', collection: 'tessera_club' }, { name: `club${i}.png`, content: PNG }, '/upload')).status).toBe(201);
      const before = await storedBytes(t.connection.db);
      const fourth = await upload(publicApp as never, '', { id: '1', collection: 'tessera_club' }, { name: 'club4.png', content: PNG }, '/upload');
      expect(fourth.status).toBe(422);
      expect(fourth.body.errors.file[0]).toMatch(/Sono già presenti 3 documenti/);
      await nothingStored(before);
    } finally {
      await publicApp.close();
    }
  });

  it('the callback needs the shared secret', async () => {
    // The secret is the app's configuration: off in this app, so every call is refused.
    const res = await t.call('POST', '/api/firma/callback', { body: { id: 'sbx-x', status: 'done' }, headers: { 'x-firma-secret': '' } });
    expect(res.status).toBe(401);
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const withSecret = await buildApp({ domains, db: t.connection.db, definitions, config: { FIRMA_CALLBACK_SECRET: 'segreto-di-prova' }, firmaProvider: sandbox });
    try {
      const wrong = await withSecret.inject({ method: 'POST', url: '/api/firma/callback', payload: { id: 'sbx-x' }, headers: { 'x-firma-secret': 'sbagliato' } });
      expect(wrong.statusCode).toBe(401);
      const unknown = await withSecret.inject({ method: 'POST', url: '/api/firma/callback', payload: { id: 'sbx-x' }, headers: { 'x-firma-secret': 'segreto-di-prova' } });
      expect(unknown.statusCode).toBe(404);
      const ongoing = (await sql<{ provider_id: string; owner_id: number }>`SELECT provider_id, owner_id FROM firma_richiesta WHERE stato = 'ongoing' LIMIT 1`.execute(t.connection.db)).rows[0]!;
      sandbox.avanza(ongoing.provider_id);
      const done = await withSecret.inject({ method: 'POST', url: '/api/firma/callback', payload: { id: ongoing.provider_id, status: 'done' }, headers: { 'x-firma-secret': 'segreto-di-prova' } });
      expect(done.statusCode, done.body).toBe(200);
      expect(JSON.parse(done.body).data.status).toBe('done');
      const q = await t.call('GET', `/api/quotazioni/${ongoing.owner_id}`, { token: staff });
      expect(q.body.data.stato_quotazione_id).toBe(10);
    } finally {
      await withSecret.close();
    }
  });
});

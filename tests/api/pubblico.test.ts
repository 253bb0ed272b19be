// The customer's public link: access only while the machine allows it, the public view's limits, step rules with the
// spec's messages, consent records, the machine moves, rate limiting shared through PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { domains } from '../../src/server/domains/index.ts';

let t: TestApp;
let admin: string;
let collab: string;
let other: string;
let verde: number;
const INVALID = { message: 'Il link non è più valido.', code: 'NOT_FOUND' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

async function multipartPost(url: string, fields: Record<string, string>, file?: { name: string; content: Buffer }, token?: string) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`), file.content, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await t.app.inject({ method: 'POST', url, payload: Buffer.concat(parts), headers });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

const upload = (uuid: string, fields: Record<string, string>, file?: { name: string; content: Buffer }) => multipartPost(`/api/cliente/quotazione/upload/${uuid}`, fields, file);

async function confirmed(extra: Record<string, unknown> = {}): Promise<{ id: number; uuid: string }> {
  const q = (await t.call('POST', '/api/quotazioni', { token: collab, body: {
    persona: 'f', nome: 'Lucia', cognome: 'Bianchi', email: 'lucia.bianchi@example.it', provincia_codice: 'RM', competenze: 20, note: 'nota interna',
    veicoli_storici: [
      { auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'RM100001' },
      { auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno: 1970, tipologia_ania: 'A', targa: 'RM100002' },
    ],
    ...extra,
  } })).body.data.model;
  expect((await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: { id: q.id } })).status).toBe(200);
  const res = await t.call('POST', `/api/quotazioni/conferma/${q.id}`, { token: collab });
  expect(res.body.data.model.stato_quotazione_id, JSON.stringify(res.body)).toBe(4);
  // The link as the customer receives it: from the e-mail in the outbox.
  const mail = (await sql<{ corpo: string }>`SELECT corpo FROM email_outbox WHERE record_id = ${q.id} AND evento = 'CONFERMA'`.execute(t.connection.db)).rows[0]!;
  const uuid = /\/quotazione\/cliente\/([0-9a-f-]{36})/.exec(mail.corpo)![1]!;
  return { id: q.id, uuid };
}

const personali = (uuid: string, extra: Record<string, unknown> = {}) => ({
  uuid, persona: 'f', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cfisc: 'RSSMRA80A01H501U', email: 'mario.rossi@example.it',
  telefono: '+393331234567', attivita_lavorativa: 'LAVORATORE_AUTONOMO', dataNascita: '1980-01-01', nazione_nascita_id: '1',
  provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via Roma', residenzaCivico: '1',
  residenzaCap: '00100', residenza_comune_id: '058091', provincia_codice: 'RM', ...extra,
});
const consensi = { consenso_trattamento: 'ok', radio1: 'ko', radio2: 'ok', radio3: 'ok', consenso_allegati: 'ok', consenso_otp: 'ok' };
const questionario = (extra: Record<string, unknown> = {}) => ({
  radio0: 'ok', copertura: 'ko', ...Object.fromEntries([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((n) => [`radio${n}`, 'ok'])),
  patenti: 2, quotidiano: 1,
  veicoli_storici: [{ targa: 'RM100001', tipologia_ania: 'A', anno: 1968 }, { targa: ' rm100002 ', tipologia_ania: 'A', anno: 1970 }],
  veicoli_moderni: [{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'ab123cd', grado_parentela: 'Contraente' }],
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const mk = async (cognome: string, email: string) =>
    (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', email } })).body.data.model.id as number;
  const collabId = await mk('ROSSI', 'rossi.pub@example.it');
  const otherId = await mk('VERDI', 'verdi.pub@example.it');
  collab = await userWithRoles(t, admin, { email: 'collab.pub@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  other = await userWithRoles(t, admin, { email: 'other.pub@test.it', roles: ['collaboratore'], collaboratore_id: otherId });
  verde = (await t.call('POST', '/api/autostoriche', { token: admin, body: { marca: 'FIAT', modello: '500 F', anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' } })).body.data.model.id;
});
afterAll(() => t?.close());

describe('the link', () => {
  it('opens its quotation only in the statuses the machine allows the customer; wrong and closed links answer alike', async () => {
    const { uuid } = await confirmed();
    const ok = await t.call('GET', `/api/cliente/quotazione/${uuid}`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.fase).toBe('form');
    expect(ok.body.data.stato_quotazione).toEqual({ id: 4, nome: 'In attesa compilazione form' });
    expect(ok.body.definizione.schema.properties.telefono.format).toBe('telefono-pubblico');
    expect(ok.headers['cache-control']).toBe('no-store');

    const draft = (await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'A', cognome: 'B' } })).body.data.model;
    // The link upper-cased with its last digit changed (to another digit: one in 16 links ends in '0').
    const changed = uuid.toUpperCase().replace(/.$/, uuid.endsWith('0') ? '1' : '0');
    for (const wrong of [randomUUID(), 'abc', draft.uuid, `${uuid}x`, changed]) {
      const res = await t.call('GET', `/api/cliente/quotazione/${encodeURIComponent(wrong)}`);
      expect([res.status, res.body]).toEqual([404, INVALID]);
    }
  });

  it('shows only the public view: no premiums, notes, collaborator, customer or model ids, vehicles trimmed', async () => {
    const { uuid } = await confirmed();
    const { data } = (await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body;
    for (const hidden of ['premio', 'premio_verti', 'premio_forzato', 'competenze', 'preventivi', 'note', 'collaboratore_id', 'cliente_id', 'colore', 'version', 'minoreAnni']) {
      expect(data, hidden).not.toHaveProperty(hidden);
    }
    expect(data).toMatchObject({ nome: 'LUCIA', cognome: 'BIANCHI', email: 'lucia.bianchi@example.it', consenso_trattamento: null });
    expect(data.veicoli_storici).toEqual([
      // Each vehicle row keeps its id (the page hides it): the customer's booklet upload names the vehicle by it. The
      // model is its make and name, never the catalogue's id.
      { id: expect.any(String), marca: 'Fiat', modello: '500 F', anno: 1968, targa: 'RM100001', tipologia_ania: 'A' },
      { id: expect.any(String), marca: 'Fiat', modello: '500 F', anno: 1970, targa: 'RM100002', tipologia_ania: 'A' },
    ]);
    expect(JSON.stringify(data)).not.toContain('nota interna');
  });
});

describe('steps and rules', () => {
  it('personal data: the spec\'s messages, nothing stored when refused, a customer record created on success', async () => {
    const { id, uuid } = await confirmed();
    const version = async () => Number((await sql<{ version: number }>`SELECT version FROM quotazione WHERE id = ${id}`.execute(t.connection.db)).rows[0]!.version);
    const before = await version();
    const bad = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, {
      telefono: '3331234567', residenzaCap: '001000', dataNascita: '1922-12-31', provincia_nascita_codice: null, nome: null,
    }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      telefono: ['Formato telefono non valido'], residenzaCap: expect.arrayContaining([expect.any(String)]),
      dataNascita: [expect.stringContaining('1923')], provincia_nascita_codice: ['Campo Obbligatorio.'], nome: ['Campo Obbligatorio.'],
    });
    const forbidden = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { premio: 1, collaboratore_id: 3, note: 'x' }) });
    expect(forbidden.body.errors).toEqual({ premio: ['Campo non consentito.'], collaboratore_id: ['Campo non consentito.'], note: ['Campo non consentito.'] });
    const company = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { persona: 'g', rsoc: null, piva: null }) });
    expect(company.body.errors).toMatchObject({ rsoc: ['Campo Obbligatorio.'], piva: ['Campo Obbligatorio.'], attivita_lavorativa: ['Valore non ammesso'] });
    // Birth year at most the current year minus 17 (spec 001 §5).
    const young = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { dataNascita: `${new Date().getFullYear() - 16}-01-01` }) });
    expect(young.body.errors).toEqual({ dataNascita: [expect.stringContaining(String(new Date().getFullYear() - 17))] });
    // Born abroad: no birth province or municipality asked.
    const abroad = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { nazione_nascita_id: '2', provincia_nascita_codice: null, comune_nascita_id: null, telefono: '+39123' }) });
    expect(abroad.body.errors).toEqual({ telefono: ['Formato telefono non valido'] });
    expect(await version()).toBe(before);
    expect(Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM cliente`.execute(t.connection.db)).rows[0]!.n)).toBe(0);

    const res = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const clienteId = res.body.data.model.id;
    const cliente = (await t.call('GET', `/api/cliente/${clienteId}`, { token: admin })).body.data;
    // The birth country under the same id on the customer as on the quotation ('1', Italy).
    expect(cliente).toMatchObject({ nome: 'MARIO', cognome: 'ROSSI', cf: 'RSSMRA80A01H501U', cell: '+393331234567', residenzaProv: 'RM', nazioneNascita: '1' });
    const q = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    expect(q).toMatchObject({ cliente_id: clienteId, nome: 'MARIO', telefono: '+393331234567', stato_quotazione_id: 4, premio: expect.any(Number) });
    // What the link wrote is the customer's in the record's history.
    const storico = (await t.call('GET', `/api/cliente/${clienteId}/storico`, { token: admin })).body.data;
    expect(storico.at(-1)).toMatchObject({ azione: 'creazione', origine: 'cliente', utente: { id: null, name: 'Cliente (link personale)' } });
    // Again: the same customer record is kept up to date, not duplicated.
    const again = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { residenzaCivico: '2' }) });
    expect(again.body.data.model.id).toBe(clienteId);
  });

  it('a phone staff stored with spaces is the customer\'s valid number as it is, stored without spaces', async () => {
    const { id, uuid } = await confirmed({ telefono: '+39 333 1112233' });
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data.telefono).toBe('+393331112233');
    // A number stored with its spaces before phones were normalised.
    await sql`UPDATE quotazione SET telefono = '+39 333 1112233' WHERE id = ${id}`.execute(t.connection.db);
    const shown = (await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.telefono;
    expect(shown).toBe('+39 333 1112233');
    // The page sends back what it was given.
    const res = await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { telefono: shown }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data.telefono).toBe('+393331112233');
    expect((await t.call('GET', `/api/cliente/${res.body.data.model.id}`, { token: admin })).body.data.cell).toBe('+393331112233');
    // Staff screens store the same number the same way.
    const put = await t.call('PUT', `/api/cliente/${res.body.data.model.id}`, { token: admin, body: { cell: ' +39 333 444 5566 ', version: (await t.call('GET', `/api/cliente/${res.body.data.model.id}`, { token: admin })).body.data.version } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.model.cell).toBe('+393334445566');
  });

  it('consents must be given, every answer is a record with version, text, uuid, address and agent; a change adds one', async () => {
    const { id, uuid } = await confirmed();
    await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid) });
    const refused = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 2, ...consensi, consenso_trattamento: 'ko' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ consenso_trattamento: ['Obbligatorio prestare il consenso'] });
    const records = async () => (await t.call('GET', `/api/quotazioni/${id}/consensi`, { token: collab })).body.data as Array<Record<string, unknown>>;
    expect(await records()).toEqual([]);

    const step2 = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 2, consenso_trattamento: 'ok', radio1: 'ko', radio2: 'ok', radio3: 'ok' }, headers: { 'user-agent': 'Telefono di prova' } });
    expect(step2.status, JSON.stringify(step2.body)).toBe(201);
    expect(step2.body.data.model).toMatchObject({ consenso_trattamento: 'ok', radio1: 'ko', fase: 'form' });
    const step3 = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 3, consenso_allegati: 'ok', consenso_otp: 'ko' } });
    expect(step3.body.errors).toEqual({ consenso_otp: ['Obbligatorio prestare il consenso'] });
    // A later step cannot skip an earlier one.
    const skipped = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 4, ...questionario() } });
    expect(skipped.body.errors).toEqual({ consenso_allegati: ['Campo Obbligatorio.'], consenso_otp: ['Campo Obbligatorio.'] });
    await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 3, consenso_allegati: 'ok', consenso_otp: 'ok' } });
    // The customer changes their mind on marketing: a new record, the old one stays.
    await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 2, consenso_trattamento: 'ok', radio1: 'ok', radio2: 'ok', radio3: 'ok' } });
    const list = await records();
    expect(list.map((r) => [r.consenso, r.risposta])).toEqual([
      ['consenso_trattamento', 'ok'], ['radio1', 'ko'], ['radio2', 'ok'], ['radio3', 'ok'], ['consenso_allegati', 'ok'], ['consenso_otp', 'ok'], ['radio1', 'ok'],
    ]);
    expect(list[0]).toMatchObject({ versione: '2026-11-01', uuid, indirizzo: '127.0.0.1', user_agent: 'Telefono di prova', testo: expect.stringContaining('trattamento') });
    expect(list[0]!.registrato_il).toBeTruthy();
    await expect(sql`UPDATE quotazione_consenso SET risposta = 'ko' WHERE quotazione_id = ${id}`.execute(t.connection.db)).rejects.toThrow(/append-only/);
    expect((await t.call('GET', `/api/quotazioni/${id}/consensi`, { token: other })).status).toBe(404);
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data).toMatchObject({ consenso_trattamento: true, consenso_allegati: true });
  });

  it('questionnaire and vehicles: coverage, plates and types, years, licences and daily use; then documents, then closed', async () => {
    const { id, uuid } = await confirmed();
    await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid) });
    await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 3, ...consensi } });
    const put = (body: Record<string, unknown>) => t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, ...body } });
    const bad = await put(questionario({
      copertura: 'ok', patenti: 6, quotidiano: 2,
      veicoli_storici: [{ targa: 'RM100001', tipologia_ania: null, anno: 1899 }, { targa: null, tipologia_ania: 'A', anno: new Date().getFullYear() + 1 }],
      veicoli_moderni: [{ marca: 'Fiat', modello: 'Panda', anno: '19', targa: 'AB123CD' }],
    }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      copertura: ['Non puoi avere altre coperture assicurative in corso sullo stesso rischio'],
      quotidiano: ['Il valore minimo è 3'],
      'veicoli_storici.0.tipologia_ania': ['non hai compilato la tipologia di veicolo per la targa RM100001'],
      'veicoli_storici.0.anno': [`Inserisci un anno valido, dal 1900 al ${new Date().getFullYear()}`],
      'veicoli_storici.1.anno': [`Inserisci un anno valido, dal 1900 al ${new Date().getFullYear()}`],
      'veicoli_storici.1.targa': ['Campo Obbligatorio.'],
      'veicoli_moderni.0.anno': ["L'anno deve essere di 4 cifre"],
      veicoli_moderni: ['Indica i dati di 2 veicoli di uso quotidiano.'],
    });
    const added = await put(questionario({ veicoli_storici: [{ targa: 'X1', tipologia_ania: 'A', anno: 1970 }] }));
    expect(added.body.errors).toEqual({ veicoli_storici: ['Non puoi aggiungere o togliere veicoli storici: contatta il tuo intermediario.'] });
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data.stato_quotazione_id).toBe(4);

    // Another quotation's id with this link's uuid opens nothing.
    const foreign = await t.call('PUT', `/api/cliente/quotazione/${id - 1}`, { body: { uuid, ...questionario() } });
    expect([foreign.status, foreign.body]).toEqual([404, INVALID]);

    const done = await put(questionario({ veicoli_storici: [{ targa: 'RM100001', tipologia_ania: 'A', anno: 1968, marca: 'Ferrari', premio: 1 }, { targa: ' rm100002 ', tipologia_ania: 'C', anno: 1970 }] }));
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data.model.fase).toBe('documenti');
    const staff = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    expect(staff.stato_quotazione_id).toBe(5);
    // Only plate, type and year of a historic vehicle are the customer's to write.
    expect(staff.veicoli_storici.map((v: Record<string, unknown>) => [v.marca, v.targa, v.tipologia_ania, v.valore])).toEqual([['Fiat', 'RM100001', 'A', 6000], ['Fiat', 'RM100002', 'C', 6000]]);
    expect(staff.veicoli_moderni).toEqual([{ marca: 'Fiat', modello: 'Panda', anno: '2019', targa: 'AB123CD', grado_parentela: 'Contraente' }]);
    expect(staff).toMatchObject({ copertura: 'ko', patenti: 2, quotidiano: 1, radio16: 'ok' });
    const history = (await t.call('GET', `/api/quotazioni/${id}/workflow`, { token: collab })).body.data.storico;
    expect(history.at(-1)).toMatchObject({ event: 'COMPILAZIONE_CLIENTE', from_status: 4, to_status: 5, user_name: 'Cliente (link personale)' });

    expect((await put(questionario())).status).toBe(409);
    expect((await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid) })).status).toBe(409);
    expect((await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.fase).toBe('documenti');

    // Documents: a file per category, by content; a fourth of a category is refused by the server.
    const opened = (await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body;
    expect(opened.definizione.categorie.map((c: { name: string; max: number }) => [c.name, c.max])).toEqual([
      ['carta_identita', 3], ['patente', 3], ['codice_fiscale', 3], ['tessera_club', 3], ['varie', 3], ['libretto', 3],
    ]);
    for (const collection of ['carta_identita', 'patente', 'codice_fiscale', 'tessera_club', 'varie']) {
      const res = await upload(uuid, { collection }, { name: `${collection}.pdf`, content: PDF });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.message).toBe('Documento caricato con successo');
    }
    const vehicleId = opened.data.veicoli_storici[1].id as string;
    expect(vehicleId).toBeTruthy();
    const libretto = await upload(uuid, { collection: 'libretto', model: 'Veicolo', id: vehicleId }, { name: 'libretto.png', content: PNG });
    expect(libretto.body.data.media).toMatchObject({ collection_name: 'libretto', item_id: vehicleId, mime_type: 'image/png' });
    expect((await upload(uuid, { collection: 'libretto', model: 'Veicolo', id: 'altro' }, { name: 'l.png', content: PNG })).body.errors).toEqual({ id: ['Veicolo non trovato.'] });
    expect((await upload(uuid, { collection: 'contratto_itas' }, { name: 'c.pdf', content: PDF })).body.errors).toEqual({ collection: ['Categoria di documento non valida.'] });
    expect((await upload(uuid, { collection: 'varie' }, { name: 'falso.pdf', content: Buffer.from('solo testo, non un PDF '.repeat(20)) })).status).toBe(422);
    expect((await upload(uuid, { collection: 'varie' })).body).toMatchObject({ message: 'Non hai specificato un file da caricare' });
    await upload(uuid, { collection: 'patente' }, { name: 'p2.pdf', content: PDF });
    await upload(uuid, { collection: 'patente' }, { name: 'p3.pdf', content: PDF });
    const fourth = await upload(uuid, { collection: 'patente' }, { name: 'p4.pdf', content: PDF });
    expect([fourth.status, fourth.body.errors]).toEqual([422, { file: ['Sono già presenti 3 documenti per la categoria "Patente".'] }]);
    const listed = (await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.documenti as Array<{ collection_name: string }>;
    expect(listed.filter((d) => d.collection_name === 'patente')).toHaveLength(3);
    expect(listed).toHaveLength(8);
    // Staff see the same files on the quotation.
    expect((await t.call('GET', `/api/quotazioni/${id}/media`, { token: collab })).body.data).toHaveLength(8);

    const end = await t.call('POST', `/api/cliente/quotazione/terminaCaricamento/${uuid}`);
    expect(end.status, JSON.stringify(end.body)).toBe(201);
    expect((await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data.stato_quotazione_id).toBe(6);
    expect((await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body).toEqual(INVALID);
    expect((await t.call('POST', `/api/cliente/quotazione/terminaCaricamento/${uuid}`)).body).toEqual(INVALID);
    expect((await upload(uuid, { collection: 'varie' }, { name: 'tardi.pdf', content: PDF })).body).toEqual(INVALID);
    // Staff asking for a revision reopens the documents stage of the same link.
    await t.call('POST', `/api/quotazioni/revisioneDoc/${id}`, { token: admin, body: { revisioneNote: 'Patente illeggibile' } });
    expect((await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.fase).toBe('documenti');
  });

  it('a historic vehicle\'s year is the same rule for staff as for the customer: 1900 to the current year', async () => {
    const year = new Date().getFullYear();
    const message = `Inserisci un anno valido, dal 1900 al ${year}`;
    const vehicle = (anno: unknown) => ({ auto_storica_id: verde, marca: 'Fiat', modello: '500 F', anno, tipologia_ania: 'A', targa: 'RM100009' });
    for (const anno of [1899, year + 1, '1968 circa']) {
      const res = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Anna', cognome: 'Neri', veicoli_storici: [vehicle(anno)] } });
      expect([res.status, res.body.errors], String(anno)).toEqual([422, { 'veicoli_storici.0.anno': [message] }]);
    }
    const ok = await t.call('POST', '/api/quotazioni', { token: collab, body: { persona: 'f', nome: 'Anna', cognome: 'Neri', veicoli_storici: [vehicle(year), { ...vehicle(1900), targa: 'RM100010' }] } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('a reopened link resumes after the last step saved, or at an earlier one whose data are missing; staff cannot set it', async () => {
    const { id, uuid } = await confirmed();
    const passo = async () => (await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.passo;
    expect(await passo()).toBe(0);
    expect((await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid) })).status).toBe(201);
    expect(await passo()).toBe(2);
    const primi = { consenso_trattamento: 'ok', radio1: 'ko', radio2: 'ok', radio3: 'ok' };
    expect((await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 2, ...primi } })).status).toBe(201);
    expect(await passo()).toBe(3);
    // Back to step 1 to correct a datum: the later steps stay saved.
    expect((await t.call('POST', '/api/cliente/quotazione', { body: personali(uuid, { residenzaCivico: '3' }) })).status).toBe(201);
    expect(await passo()).toBe(3);
    // A datum of step 1 gone meanwhile: the link reopens there.
    await sql`UPDATE quotazione SET ${sql.ref('residenzaIndirizzo')} = NULL WHERE id = ${id}`.execute(t.connection.db);
    expect(await passo()).toBe(1);
    const q = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    const staff = await t.call('PUT', `/api/quotazioni/${id}`, { token: collab, body: { passo_cliente: 4, version: q.version } });
    expect([staff.status, staff.body.errors]).toEqual([422, { passo_cliente: ['Campo non modificabile.'] }]);
  });

  it('the customer removes an upload of theirs while the documents are open: nothing else, never after, all or nothing', async () => {
    const toDocuments = async () => {
      const q = await confirmed();
      await t.call('POST', '/api/cliente/quotazione', { body: personali(q.uuid) });
      await t.call('PUT', `/api/cliente/quotazione/${q.id}`, { body: { uuid: q.uuid, passo: 3, ...consensi } });
      expect((await t.call('PUT', `/api/cliente/quotazione/${q.id}`, { body: { uuid: q.uuid, ...questionario() } })).status).toBe(201);
      return q;
    };
    const { id, uuid } = await toDocuments();
    const remove = (link: string, media: unknown) => t.call('DELETE', `/api/cliente/quotazione/${link}/documenti/${String(media)}`);
    const files = async () => (await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.documenti as Array<{ id: number; rimovibile: boolean }>;
    const wrong = (await upload(uuid, { collection: 'varie' }, { name: 'sbagliato.pdf', content: PDF })).body.data.media.id as number;
    const kept = (await upload(uuid, { collection: 'patente' }, { name: 'patente.pdf', content: PDF })).body.data.media.id as number;
    // A file staff put in a category open to the customer is not theirs to remove.
    const staffFile = (await multipartPost('/api/quotazioni/upload', { id: String(id), collection: 'varie', model: 'Quotazione' }, { name: 'ufficio.pdf', content: PDF }, collab)).body.data.media.id as number;
    expect((await files()).map((f) => [f.id, f.rimovibile])).toEqual(expect.arrayContaining([[wrong, true], [kept, true], [staffFile, false]]));
    const other = await toDocuments();
    const othersFile = (await upload(other.uuid, { collection: 'varie' }, { name: 'altro.pdf', content: PDF })).body.data.media.id as number;
    for (const [link, media] of [[uuid, staffFile], [uuid, othersFile], [uuid, 'abc'], [uuid, 0], [uuid, '999999999999'], [randomUUID(), wrong]] as const) {
      const res = await remove(link, media);
      expect([res.status, res.body.message], `${link} ${media}`).toEqual([404, link === uuid ? 'Documento non trovato.' : INVALID.message]);
    }
    expect((await files()).map((f) => f.id).sort()).toEqual([wrong, kept, staffFile].sort());

    const res = await remove(uuid, wrong);
    expect([res.status, res.body]).toEqual([200, { message: 'Documento rimosso.' }]);
    expect((await files()).map((f) => f.id).sort()).toEqual([kept, staffFile].sort());
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM media WHERE id = ${wrong}`.execute(t.connection.db)).rows[0]!.n).toBe(0);
    expect((await remove(uuid, wrong)).status).toBe(404);

    // Before the form is sent there is nothing to remove; once loading is over the link is closed.
    const early = await confirmed();
    expect((await remove(early.uuid, kept)).status).toBe(409);
    expect((await t.call('POST', `/api/cliente/quotazione/terminaCaricamento/${uuid}`)).status).toBe(201);
    expect((await remove(uuid, kept)).body).toEqual(INVALID);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM media WHERE id = ${kept}`.execute(t.connection.db)).rows[0]!.n).toBe(1);
  });

  it('terminaCaricamento and uploads need the form first', async () => {
    const { uuid } = await confirmed();
    const res = await t.call('POST', `/api/cliente/quotazione/terminaCaricamento/${uuid}`);
    expect(res.status).toBe(409);
    expect((await upload(uuid, { collection: 'varie' }, { name: 'v.pdf', content: PDF })).status).toBe(409);
  });
});

describe('pre-contract notices and parameter1', () => {
  it('the link shows the notices in force of the product before the consents; each consent record names the versions shown and the link\'s origin', async () => {
    const fornitore = (await t.call('POST', '/api/compagnia', { token: admin, body: { ragioneSociale: 'Storiche Assicurazioni S.p.A.', tipoCompagnia: 'DIRETTO' } })).body.data.model.id;
    const contrattuale = (await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: { nome: 'Storiche Danni' } })).body.data.model.id;
    const prodotto = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: {
      nome: 'RC Auto Storiche', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, mandatabile_type: 'auto_storica_itas',
    } });
    expect(prodotto.status, JSON.stringify(prodotto.body)).toBe(201);
    const notice = async (collection: string, versione: string, validoDal: string, name: string) => {
      const res = await multipartPost('/api/categoria_prodotto/upload', { id: String(prodotto.body.data.model.id), collection, versione, valido_dal: validoDal }, { name, content: PDF }, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.media.id as number;
    };
    const set1 = await notice('set_informativo', '2024.1', '2024-01-01', 'set-2024.pdf');
    const privacy = await notice('privacy', 'P-3', '2025-05-25', 'privacy.pdf');
    await notice('set_informativo', '2099.1', '2099-01-01', 'set-futuro.pdf');
    // A file of another product is never served through the link.
    const other = (await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { nome: 'Altro', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale } })).body.data.model.id;
    const foreign = (await multipartPost('/api/categoria_prodotto/upload', { id: String(other), collection: 'privacy', versione: 'X', valido_dal: '2024-01-01' }, { name: 'altro.pdf', content: PDF }, admin)).body.data.media.id;

    const { id, uuid } = await confirmed();
    // The e-mailed link names the message that carried it.
    const mail = (await sql<{ corpo: string }>`SELECT corpo FROM email_outbox WHERE record_id = ${id} AND evento = 'CONFERMA'`.execute(t.connection.db)).rows[0]!;
    expect(mail.corpo).toContain(`/quotazione/cliente/${uuid}?parameter1=conferma_cliente`);
    const bad = await t.call('GET', `/api/cliente/quotazione/${uuid}?parameter1=${encodeURIComponent('<script>')}`);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['parameter1']);

    const opened = (await t.call('GET', `/api/cliente/quotazione/${uuid}?parameter1=conferma_cliente`)).body.data;
    expect(opened.informative).toEqual([
      { id: set1, collection_name: 'set_informativo', titolo: 'Set informativo', name: 'set-2024.pdf', versione: '2024.1', valido_dal: '2024-01-01', sha256: expect.any(String), url: `/api/cliente/quotazione/${uuid}/informative/${set1}` },
      { id: privacy, collection_name: 'privacy', titolo: 'Informativa privacy', name: 'privacy.pdf', versione: 'P-3', valido_dal: '2025-05-25', sha256: expect.any(String), url: `/api/cliente/quotazione/${uuid}/informative/${privacy}` },
    ]);
    const file = await t.app.inject({ method: 'GET', url: opened.informative[0].url });
    expect([file.statusCode, file.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect((await t.call('GET', `/api/cliente/quotazione/${uuid}/informative/${foreign}`)).status).toBe(404);
    expect((await t.call('GET', `/api/cliente/quotazione/${randomUUID()}/informative/${set1}`)).body).toEqual(INVALID);

    await t.call('POST', `/api/cliente/quotazione?parameter1=conferma_cliente`, { body: personali(uuid) });
    const shown = [set1, privacy];
    // Consents without the notices shown (or with others) are not recorded: the customer reads the ones in force first.
    const blind = await t.call('PUT', `/api/cliente/quotazione/${id}?parameter1=conferma_cliente`, { body: { uuid, passo: 2, ...consensi } });
    expect(blind.status).toBe(409);
    expect(blind.body.message).toBe('Le informative precontrattuali sono state aggiornate: leggi le nuove versioni prima di prestare i consensi.');
    expect(blind.body.informative.map((n: { id: number }) => n.id)).toEqual(shown);
    const records = async () => (await t.call('GET', `/api/quotazioni/${id}/consensi`, { token: collab })).body.data as Array<Record<string, any>>;
    expect(await records()).toEqual([]);
    const step2 = await t.call('PUT', `/api/cliente/quotazione/${id}?parameter1=conferma_cliente`, { body: { uuid, passo: 2, informative: shown, consenso_trattamento: 'ok', radio1: 'ko', radio2: 'ok', radio3: 'ok' } });
    expect(step2.status, JSON.stringify(step2.body)).toBe(201);
    const first = await records();
    expect(first).toHaveLength(4);
    for (const r of first) {
      expect(r.origine).toBe('conferma_cliente');
      expect(r.informative).toEqual([
        { id: set1, collection_name: 'set_informativo', titolo: 'Set informativo', versione: '2024.1', valido_dal: '2024-01-01', sha256: expect.any(String) },
        { id: privacy, collection_name: 'privacy', titolo: 'Informativa privacy', versione: 'P-3', valido_dal: '2025-05-25', sha256: expect.any(String) },
      ]);
    }

    // A new version of the set informativo comes into force: a page showing the old one cannot record a consent.
    const set2 = await notice('set_informativo', '2025.2', '2025-06-01', 'set-2025.pdf');
    const stale = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 3, informative: shown, consenso_allegati: 'ok', consenso_otp: 'ok' } });
    expect(stale.status).toBe(409);
    expect(stale.body.informative.map((n: { id: number; versione: string }) => [n.id, n.versione])).toEqual([[set2, '2025.2'], [privacy, 'P-3']]);
    expect((await t.call('GET', `/api/cliente/quotazione/${uuid}`)).body.data.informative.map((n: { id: number }) => n.id)).toEqual([set2, privacy]);
    const step3 = await t.call('PUT', `/api/cliente/quotazione/${id}?parameter1=revisione_documenti`, { body: { uuid, passo: 3, informative: [privacy, set2], consenso_allegati: 'ok', consenso_otp: 'ok' } });
    expect(step3.status, JSON.stringify(step3.body)).toBe(201);
    const all = await records();
    expect(all).toHaveLength(6);
    expect(all.slice(4).map((r) => [r.consenso, r.origine, r.informative.map((n: { id: number; versione: string }) => `${n.id}:${n.versione}`)])).toEqual([
      ['consenso_allegati', 'revisione_documenti', [`${set2}:2025.2`, `${privacy}:P-3`]],
      ['consenso_otp', 'revisione_documenti', [`${set2}:2025.2`, `${privacy}:P-3`]],
    ]);
    // The earlier records keep the versions shown then.
    expect(all[0]!.informative.map((n: { versione: string }) => n.versione)).toEqual(['2024.1', 'P-3']);
    // Answers not changed record nothing, so they need no notices.
    expect((await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 3, consenso_allegati: 'ok', consenso_otp: 'ok' } })).status).toBe(201);
    expect(await records()).toHaveLength(6);
    const garbage = await t.call('PUT', `/api/cliente/quotazione/${id}`, { body: { uuid, passo: 2, informative: 'tutte', ...consensi, radio1: 'ok' } });
    expect([garbage.status, garbage.body.errors]).toEqual([422, { informative: ['Elenco delle informative non valido.'] }]);
  });
});

describe('rate limiting', () => {
  it('limits per uuid and per address, counted in PostgreSQL so another instance sees the same hits', async () => {
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    // Each instance's limits come from its configuration; the hits are counted in the shared database.
    const first = await buildApp({ domains, db: t.connection.db, definitions, config: { PUBLIC_RATE_LIMIT_UUID: 3 } });
    const second = await buildApp({ domains, db: t.connection.db, definitions, config: { PUBLIC_RATE_LIMIT_UUID: 3 } });
    const strict = await buildApp({ domains, db: t.connection.db, definitions, config: { PUBLIC_RATE_LIMIT_IP: 2 } });
    const send = async (app: typeof first, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await app.inject({ method, url, ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: res.json() as unknown, headers: res.headers };
    };
    try {
      const uuid = randomUUID();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send(first, 'GET', `/api/cliente/quotazione/${uuid}`)).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
      const limited = await send(first, 'GET', `/api/cliente/quotazione/${uuid}`);
      expect(limited.body).toEqual({ message: 'Troppe richieste. Riprova tra qualche minuto.', code: 'RATE_LIMITED' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A second app instance on the same database refuses the same uuid at once.
      expect((await send(second, 'GET', `/api/cliente/quotazione/${uuid}`)).status).toBe(429);
      // The address has used more than 2 in this window already: every public route of an instance allowing 2 refuses it.
      expect((await send(strict, 'GET', `/api/cliente/quotazione/${randomUUID()}`)).status).toBe(429);
      expect((await send(strict, 'POST', '/api/cliente/quotazione', { uuid: randomUUID() })).status).toBe(429);
      expect((await send(strict, 'PUT', '/api/cliente/quotazione/1', { uuid: randomUUID() })).status).toBe(429);
      expect((await send(strict, 'POST', `/api/cliente/quotazione/terminaCaricamento/${randomUUID()}`)).status).toBe(429);
      // The default limit (120) lets the same address through.
      expect((await send(second, 'GET', `/api/cliente/quotazione/${randomUUID()}`)).status).toBe(404);
      const rows = (await sql<{ key: string }>`SELECT key FROM rate_limit`.execute(t.connection.db)).rows.map((r) => r.key);
      expect(rows).toContain(`pubblico:uuid:${uuid}`);
      expect(rows).toContain('pubblico:ip:127.0.0.1');
      // A window boundary does not forget a flood: the previous window's hits still count, weighted by the part of it
      // inside the last window; two windows back they no longer do.
      const flooded = randomUUID();
      const window = `to_timestamp(floor(extract(epoch FROM now()) / 60) * 60)`;
      await sql`INSERT INTO rate_limit (key, window_start, hits) VALUES (${`pubblico:uuid:${flooded}`}, ${sql.raw(window)} - interval '60 seconds', 1000000)`.execute(t.connection.db);
      expect((await send(first, 'GET', `/api/cliente/quotazione/${flooded}`)).status).toBe(429);
      const forgotten = randomUUID();
      await sql`INSERT INTO rate_limit (key, window_start, hits) VALUES (${`pubblico:uuid:${forgotten}`}, ${sql.raw(window)} - interval '120 seconds', 1000000)`.execute(t.connection.db);
      expect((await send(first, 'GET', `/api/cliente/quotazione/${forgotten}`)).status).toBe(404);
    } finally {
      await Promise.all([first.close(), second.close(), strict.close()]);
    }
  });
});

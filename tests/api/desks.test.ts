// The dashboard's desks (issue 18) through the API: products, appendices, documents tracking and archive, and the
// dashboard's figures, each with the permission and the row scope of the role (a collaborator sees only their own).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collabA: string;
let collabB: string;
let approver: string;
let nobody: string;
let idA: number;
let idB: number;
let quotA: number;
let quotB: number;
let fornitore: number;
let altroFornitore: number;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const oggi = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
const giorniFa = (n: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date(Date.now() - n * 86_400_000));

async function post(url: string, body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const res = await t.call('POST', url, { token, body });
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data.model;
}

async function upload(token: string, id: number, collection: string, extra: Record<string, string> = {}) {
  const boundary = `----desk${Math.random().toString(16).slice(2)}`;
  const fields = { id: String(id), collection, model: 'Quotazione', nome_file: `${collection}-${id}.pdf`, ...extra };
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), PDF, Buffer.from('\r\n'),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({ method: 'POST', url: '/api/quotazioni/upload', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(201);
  return JSON.parse(res.body).data.media as { id: number; url: string };
}

/** A CSV export's rows, quoted fields unquoted (semicolons, BOM, CRLF as Italian Excel reads them). */
function csvRows(text: string): string[][] {
  expect(text.startsWith('\ufeff')).toBe(true);
  return text.slice(1).trimEnd().split('\r\n').map((line) => line.split(';').map((f) => (f.startsWith('"') ? f.slice(1, -1).replace(/""/g, '"') : f)));
}

async function get(url: string, token: string) {
  const res = await t.call('GET', url, { token });
  return res;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const collaboratore = async (cognome: string) => (await post('/api/collaboratore', {
    sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', provvigioni_settori: [{ id: 1, nome: 'DANNI', perc_provvigione: 40, tipo_provvigione: 'PERC_RETROCESSIONE' }], percProvvigioneCompetenze: 50,
  })).id as number;
  idA = await collaboratore('SCRIVANIA');
  idB = await collaboratore('ALTRO');
  staff = await userWithRoles(t, admin, { email: 'staff.desk@test.it', roles: ['staff'] });
  collabA = await userWithRoles(t, admin, { email: 'collab.a@test.it', roles: ['collaboratore'], collaboratore_id: idA });
  collabB = await userWithRoles(t, admin, { email: 'collab.b@test.it', roles: ['collaboratore'], collaboratore_id: idB });
  approver = await userWithRoles(t, admin, { email: 'approver.desk@test.it', roles: ['approvatore'] });
  // No role at all: every desk refused (ruoli.json gives each role some desk).
  nobody = await userWithRoles(t, admin, { email: 'nessuno.desk@test.it', roles: ['collaboratore'] });
  await sql`UPDATE utente SET ruoli = '[]'::jsonb WHERE email = 'nessuno.desk@test.it'`.execute(t.connection.db);

  fornitore = (await post('/api/compagnia', { ragioneSociale: 'Tirrenica Broker', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5 })).id;
  altroFornitore = (await post('/api/compagnia', { ragioneSociale: 'Adriatica', tipoCompagnia: 'FORNITORE', percentRitenuta: 4.6 })).id;
  const contrattuale = (await post('/api/compagnia_contrattuale', { nome: 'Compagnia Uno' })).id;
  await post('/api/categoria_prodotto', { nome: 'Incendio Casa', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12 });
  await post('/api/categoria_prodotto', { nome: 'Infortuni', compagnia_fornitore_id: altroFornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 1, settore_id: 1, percentuale_provvigione_attiva: 10, mandato_attivo: false });

  const modello = await post('/api/autostoriche', { marca: 'ALFA ROMEO', modello: 'GIULIA SUPER', anno: 1968, valore_b: 18000, colore: 'verde', tipologia: 'A' });
  const quotazione = async (token: string, cognome: string, targa: string) => {
    const q = await post('/api/quotazioni', {
      persona: 'f', nome: 'Giovanni', cognome, email: `${cognome.toLowerCase()}@example.it`, telefono: '+39 333 7654321', provincia_codice: 'RM', competenze: 20,
      veicoli_storici: [{ id: `v-${targa}`, auto_storica_id: modello.id, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa }],
    }, token);
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: q.id, stato_quotazione_id: 5 } })).status).toBe(200);
    return q.id as number;
  };
  quotA = await quotazione(collabA, 'Esposito', 'AB123CD');
  quotB = await quotazione(collabB, 'Russo', 'EF456GH');
  await upload(collabA, quotA, 'carta_identita');
  await upload(collabB, quotB, 'patente');
});
afterAll(() => t?.close());

describe('/prodotti: every mandate product', () => {
  it('lists products of every supplier for staff, filtered by supplier name and mandate state', async () => {
    const all = await get('/api/categoria_prodotto?per_page=100', staff);
    expect(all.status).toBe(200);
    expect(all.body.data.map((p: { nome: string }) => p.nome).sort()).toEqual(['Incendio Casa', 'Infortuni']);
    const bySupplier = await get('/api/categoria_prodotto?filter[fornitore]=tirren', staff);
    expect(bySupplier.body.data.map((p: { compagnia_fornitore_id: number }) => p.compagnia_fornitore_id)).toEqual([fornitore]);
    const inactive = await get('/api/categoria_prodotto?filter[mandato_attivo]=false', staff);
    expect(inactive.body.data.map((p: { nome: string }) => p.nome)).toEqual(['Infortuni']);
  });

  it('is refused to a role without show_prodotti (a collaborator)', async () => {
    expect((await get('/api/categoria_prodotto', collabA)).status).toBe(403);
  });
});

describe('/appendici: every appendix in scope', () => {
  beforeAll(async () => {
    for (const [quotazione, collaboratore, targa] of [[quotA, idA, 'AB123CD'], [quotB, idB, 'EF456GH']] as const) {
      await sql`INSERT INTO appendice (quotazione_id, collaboratore_id, operazione, stato, targa, data_effetto, importo, numero_polizza)
        VALUES (${quotazione}, ${collaboratore}, 'inclusione', 'emessa', ${targa}, ${oggi()}, 120.50, ${`POL-${quotazione}`})`.execute(t.connection.db);
    }
  });

  it('shows a collaborator only the appendices of their own quotations, staff every one', async () => {
    const mine = await get('/api/appendici', collabA);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((a: { quotazione_id: number }) => a.quotazione_id)).toEqual([quotA]);
    expect(mine.body.data[0]).toMatchObject({ targa: 'AB123CD', importo: 120.5, operazione: 'inclusione' });
    const every = await get('/api/appendici', staff);
    expect(every.body.data.map((a: { quotazione_id: number }) => a.quotazione_id).sort()).toEqual([quotA, quotB].sort());
    expect((await get('/api/appendici', nobody)).status).toBe(403);
  });
});

describe('/track_gestione_documenti', () => {
  type Row = { owner_id: number; mancanti: string[]; stato_documenti: string; documenti: Array<{ collection: string; stato: string }>; azioni: Array<{ type: string; route: string }> };
  const rows = async (token: string, query = '') => {
    const res = await get(`/api/track_gestione_documenti${query}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Row[];
  };

  it('lists per quotation what is missing, only within the collaborator\'s scope', async () => {
    const mine = await rows(collabA);
    expect(mine.map((r) => r.owner_id)).toEqual([quotA]);
    expect(mine[0]!.mancanti).toEqual(['Patente', 'Codice fiscale', 'Libretto']);
    expect(mine[0]!.stato_documenti).toBe('mancanti');
    expect(mine[0]!.documenti.find((d) => d.collection === 'carta_identita')!.stato).toBe('caricato');
    expect((await rows(staff)).map((r) => r.owner_id).sort()).toEqual([quotA, quotB].sort());
  });

  it('filters by what is missing', async () => {
    expect((await rows(staff, '?filter[mancante]=carta_identita')).map((r) => r.owner_id)).toEqual([quotB]);
    expect((await rows(staff, '?filter[mancante]=patente')).map((r) => r.owner_id)).toEqual([quotA]);
    expect((await rows(collabB, '?filter[mancante]=carta_identita')).map((r) => r.owner_id)).toEqual([quotB]);
    expect((await rows(collabA, '?filter[mancante]=carta_identita'))).toEqual([]);
    expect((await get('/api/track_gestione_documenti?filter[stato_documenti]=boh', staff)).status).toBe(422);
    expect((await get('/api/track_gestione_documenti?filter[inventato]=1', staff)).status).toBe(422);
  });

  it('exports the filtered rows as CSV and XLSX with the screen\'s columns and labels, in the user\'s scope', async () => {
    const columns = 'riferimento,stato_documenti,documenti,caricati,firmato';
    const csv = await get(`/api/track_gestione_documenti/export?format=csv&filter[mancante]=patente&columns=${columns}`, staff);
    expect(csv.status, String(csv.body)).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="track_gestione_documenti-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(csv.headers['x-total-count']).toBe('1');
    const lines = csvRows(csv.body as string);
    expect(lines[0]).toEqual(['Riferimento', 'Documenti', 'Documenti richiesti', 'Caricati', 'Firmato']);
    // Quotation A: the identity card uploaded, the other required documents missing (as the list answers above).
    expect(lines.slice(1)).toEqual([[
      `Quotazione n. ${quotA} - ESPOSITO GIOVANNI`, 'Mancanti',
      'Carta d\'identità: caricato, Patente: mancante, Codice fiscale: mancante, Libretto: mancante', '1', 'No',
    ]]);
    // A collaborator exports only their own records; the list's filter errors answer 422 before any file.
    const mine = csvRows((await get(`/api/track_gestione_documenti/export?format=csv&columns=riferimento`, collabB)).body as string);
    expect(mine.slice(1)).toEqual([[`Quotazione n. ${quotB} - RUSSO GIOVANNI`]]);
    expect((await get('/api/track_gestione_documenti/export?format=csv&filter[stato_documenti]=boh', staff)).status).toBe(422);
    expect((await get('/api/track_gestione_documenti/export?format=pdf', staff)).status).toBe(422);
    expect((await get('/api/track_gestione_documenti/export?format=csv&columns=password', staff)).status).toBe(422);
    expect((await get('/api/track_gestione_documenti/export?format=csv', nobody)).status).toBe(403);
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/track_gestione_documenti/export?format=xlsx&sort=owner_id&columns=riferimento,caricati`, headers: { authorization: `Bearer ${staff}` } });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Track Gestione Documenti');
    const [first, second] = [quotA, quotB].sort((a, b) => a - b);
    expect([2, 3].map((n) => sheet.getRow(n).values)).toEqual([
      [undefined, `Quotazione n. ${first} - ${first === quotA ? 'ESPOSITO' : 'RUSSO'} GIOVANNI`, 1],
      [undefined, `Quotazione n. ${second} - ${second === quotA ? 'ESPOSITO' : 'RUSSO'} GIOVANNI`, 1],
    ]);
  });

  it('offers the confirm and revision events where the machine allows them, and confirming marks the documents', async () => {
    expect((await rows(collabA))[0]!.azioni).toEqual([]);
    expect((await t.call('POST', '/api/quotazioni/cambioStato', { token: staff, body: { id: quotA, stato_quotazione_id: 6 } })).status).toBe(200);
    const offered = (await rows(collabA))[0]!.azioni.map((a) => `${a.type}:${a.route}`).sort();
    expect(offered).toEqual(['CONFERMA_DOC:confermaDoc', 'REVISIONE_DOC:revisioneDoc']);
    // The approver sees the quotation but may not judge its documents (no conferma_quotazione).
    expect((await rows(approver)).find((r) => r.owner_id === quotA)!.azioni).toEqual([]);
    expect((await t.call('POST', `/api/quotazioni/confermaDoc/${quotA}`, { token: collabA })).status).toBe(200);
    const after = (await rows(collabA))[0]!;
    expect(after.documenti.find((d) => d.collection === 'carta_identita')!.stato).toBe('confermato');
    expect(after.azioni).toEqual([]);
  });

  it('is refused without show_track_documenti', async () => {
    expect((await get('/api/track_gestione_documenti', nobody)).status).toBe(403);
    expect((await t.call('GET', '/api/track_gestione_documenti')).status).toBe(401);
  });
});

describe('/gestione_documenti', () => {
  it('lists only the files of records the user may see, and downloads them with the owner\'s scope', async () => {
    const mine = await get('/api/gestione_documenti', collabA);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((d: { owner_id: number; collection_name: string }) => `${d.owner_id}:${d.collection_name}`)).toEqual([`${quotA}:carta_identita`]);
    const doc = mine.body.data[0];
    expect(doc).toMatchObject({ owner_resource: 'quotazione', owner_title: 'Quotazione', collection: 'Carta d\'identità', mime_type: 'application/pdf' });
    expect(doc.riferimento).toBe(`Quotazione n. ${quotA} - ESPOSITO GIOVANNI`);
    const file = await t.app.inject({ method: 'GET', url: `${doc.url}?download=1`, headers: { authorization: `Bearer ${collabA}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    // Another collaborator neither lists nor downloads it.
    const other = await get('/api/gestione_documenti', collabB);
    expect(other.body.data.map((d: { owner_id: number }) => d.owner_id)).toEqual([quotB]);
    expect((await t.app.inject({ method: 'GET', url: doc.url, headers: { authorization: `Bearer ${collabB}` } })).statusCode).toBe(404);
    const every = await get('/api/gestione_documenti?sort=owner_id', staff);
    expect(every.body.total).toBe(2);
  });

  it('filters by owner, collection and date', async () => {
    expect((await get('/api/gestione_documenti?filter[collection_name]=patente', staff)).body.data.map((d: { owner_id: number }) => d.owner_id)).toEqual([quotB]);
    expect((await get(`/api/gestione_documenti?filter[owner_id]=${quotA}`, staff)).body.total).toBe(1);
    expect((await get(`/api/gestione_documenti?filter[created_at][from]=${oggi()}&filter[created_at][to]=${oggi()}`, staff)).body.total).toBe(2);
    expect((await get(`/api/gestione_documenti?filter[created_at][to]=${giorniFa(2)}`, staff)).body.total).toBe(0);
    expect((await get('/api/gestione_documenti?filter[created_at][from]=ieri', staff)).status).toBe(422);
    expect((await get('/api/gestione_documenti?filter[created_at]=2026-02-31', staff)).status).toBe(422);
    expect((await get('/api/gestione_documenti?sort=password', staff)).status).toBe(422);
    expect((await get('/api/gestione_documenti', nobody)).status).toBe(403);
  });

  it('exports the files in scope with the screen\'s columns, a formula-looking name neutralised', async () => {
    // A name a spreadsheet would run as a formula, as an uploaded file's name may be.
    await sql`UPDATE media SET name = '=HYPERLINK("http://x.invalid","clic")' WHERE owner_resource = 'quotazione' AND owner_id = ${quotB}`.execute(t.connection.db);
    const csv = await get('/api/gestione_documenti/export?format=csv&sort=owner_id&columns=name,owner_title,riferimento,collection', staff);
    expect(csv.status, String(csv.body)).toBe(200);
    expect(csv.headers['x-total-count']).toBe('2');
    const lines = csvRows(csv.body as string);
    expect(lines[0]).toEqual(['Documento', 'Tipo', 'Riferimento', 'Categoria']);
    const byOwner = new Map(lines.slice(1).map((l) => [l[2], l]));
    expect(byOwner.get(`Quotazione n. ${quotA} - ESPOSITO GIOVANNI`)).toEqual([`carta_identita-${quotA}.pdf`, 'Quotazione', `Quotazione n. ${quotA} - ESPOSITO GIOVANNI`, 'Carta d\'identità']);
    expect(byOwner.get(`Quotazione n. ${quotB} - RUSSO GIOVANNI`)).toEqual([`'=HYPERLINK("http://x.invalid","clic")`, 'Quotazione', `Quotazione n. ${quotB} - RUSSO GIOVANNI`, 'Patente']);
    // Without columns: the list's visible ones; a collaborator only their own file.
    const mine = csvRows((await get('/api/gestione_documenti/export?format=csv', collabA)).body as string);
    expect(mine[0]).toEqual(['Documento', 'Tipo', 'Riferimento', 'Categoria', 'Caricato il']);
    expect(mine.slice(1).map((l) => l[2])).toEqual([`Quotazione n. ${quotA} - ESPOSITO GIOVANNI`]);
    expect(mine[1]![4]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect((await get('/api/gestione_documenti/export?format=csv&filter[created_at]=2026-02-31', staff)).status).toBe(422);
    expect((await get('/api/gestione_documenti/export?format=csv', nobody)).status).toBe(403);
  });
});

describe('/api/dashboard', () => {
  let premioPagato = 0;
  let scadutiA: number[] = [];
  beforeAll(async () => {
    const contrattuale = (await get('/api/compagnia_contrattuale', admin)).body.data[0].id;
    const prodotto = (await get('/api/categoria_prodotto?filter[fornitore]=tirren', staff)).body.data[0].id;
    const cliente = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi', collaboratore_id: idA })).id;
    const polizza = await post('/api/polizza', {
      collaboratore_id: idA, cliente_id: cliente, compagnia_contrattuale_id: contrattuale, fornitore_id: fornitore, mandato_prodotto_id: prodotto,
      polizza_numero: 'DASH-1', data_entrata_in_effetto: giorniFa(100), data_scadenza: giorniFa(100 - 365), frazionamento_slug: 'TRIMESTRALE',
      totale_premio_imponibile: 1000, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20,
    }, staff);
    const titoli = (await get(`/api/titolo?filter[polizza_id]=${polizza.id}&sort=numero_rata`, staff)).body.data as Array<{ id: number; premio: number; data_inizio: string }>;
    const [primo, secondo] = titoli;
    const pay = await t.call('POST', `/api/titolo/${primo!.id}/pagamento`, { token: staff, body: { data_pagamento: oggi(), importo: primo!.premio, tipo_pagamento: 'BONIFICO' } });
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    premioPagato = Math.round(primo!.premio * 100);
    // The second title (due about ten days ago) is overdue; the others are not due yet.
    scadutiA = titoli.filter((x) => x.id !== primo!.id && x.data_inizio < oggi()).map((x) => Math.round(x.premio * 100));
    expect(scadutiA).toHaveLength(1);
    expect(secondo!.data_inizio < oggi()).toBe(true);
    // Last year's collection, as stored by an earlier payment.
    await sql`UPDATE titolo SET saldato = true, data_pagamento = make_date(extract(year FROM now())::int - 1, 3, 10), importo_pagato = premio
      WHERE id = ${titoli[3]!.id}`.execute(t.connection.db);
  });

  it('answers the premiums per month this year and last, overdue titles by age and the counts, in the user\'s scope', async () => {
    const res = await get('/api/dashboard', collabA);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { premi, titoli_scaduti: scaduti, quotazioni, conteggi } = res.body.data;
    const mese = Number(oggi().slice(5, 7));
    expect(premi.anno).toBe(Number(oggi().slice(0, 4)));
    expect(premi.mesi[mese - 1]).toBe(premioPagato);
    expect(premi.mesi.reduce((a: number, b: number) => a + b, 0)).toBe(premioPagato);
    expect(premi.mesi_precedente[2]).toBeGreaterThan(0);
    expect(scaduti.map((f: { fascia: string; numero: number }) => `${f.fascia}:${f.numero}`)).toEqual(['1-30 giorni:1', '31-60 giorni:0', '61-90 giorni:0', 'oltre 90 giorni:0']);
    expect(scaduti[0].importo).toBe(scadutiA[0]);
    expect(conteggi.titoli_scaduti).toBe(1);
    // Collaborator A: one quotation (confirmed in the track test: status 7), documents still missing on it, and the
    // policy DASH-1 with neither identity card nor signed contract on file: 2 records with documents missing.
    expect(quotazioni.reduce((n: number, s: { totale: number }) => n + s.totale, 0)).toBe(1);
    expect(quotazioni.find((s: { id: number }) => s.id === 7).totale).toBe(1);
    expect(conteggi.documenti_mancanti).toBe(2);
  });

  it('shows another collaborator none of it, staff all of it', async () => {
    const other = (await get('/api/dashboard', collabB)).body.data;
    expect(other.premi.mesi.every((v: number) => v === 0)).toBe(true);
    expect(other.conteggi.titoli_scaduti).toBe(0);
    expect(other.quotazioni.reduce((n: number, s: { totale: number }) => n + s.totale, 0)).toBe(1);
    const all = (await get('/api/dashboard', staff)).body.data;
    expect(all.quotazioni.reduce((n: number, s: { totale: number }) => n + s.totale, 0)).toBe(2);
    // Quotations A and B, policy DASH-1.
    expect(all.conteggi.documenti_mancanti).toBe(3);
    expect(other.conteggi.documenti_mancanti).toBe(1);
    // The approver holds no policy permission: no premium or title figures at all.
    const approverData = (await get('/api/dashboard', approver)).body.data;
    expect(approverData.premi).toBeNull();
    expect(approverData.conteggi.titoli_scaduti).toBeNull();
    expect((await get('/api/dashboard', nobody)).status).toBe(403);
  });
});

describe('/track_gestione_documenti: policies', () => {
  type Row = { owner_resource: string; owner_id: number; riferimento: string; mancanti: string[]; stato_documenti: string };
  const policyRows = async (token: string) => ((await get('/api/track_gestione_documenti?filter[owner_resource]=polizza', token)).body.data as Row[]);
  const uploadPolicy = async (token: string, id: number, collection: string) => {
    const boundary = `----pol${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      ...Object.entries({ id: String(id), collection, model: 'Polizza' }).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file_name"; filename="${collection}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), PDF, Buffer.from('\r\n'),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/polizza/upload_documenti_polizza', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('follows each policy in force: identity card and signed contract, missing until uploaded, in the collaborator\'s scope', async () => {
    const [dash] = await policyRows(collabA);
    expect(dash).toMatchObject({ riferimento: expect.stringMatching(/^DASH-1/), mancanti: ['Carta d\'identità', 'Contratto di polizza'], stato_documenti: 'mancanti' });
    expect(await policyRows(collabB)).toEqual([]);
    await uploadPolicy(collabA, dash!.owner_id, 'contratto');
    expect((await policyRows(collabA))[0]).toMatchObject({ mancanti: ['Carta d\'identità'], stato_documenti: 'mancanti' });
    expect((await get('/api/track_gestione_documenti?filter[mancante]=contratto', staff)).body.data).toEqual([]);
    await uploadPolicy(collabA, dash!.owner_id, 'carta_identita');
    expect((await policyRows(collabA))[0]).toMatchObject({ mancanti: [], stato_documenti: 'da_verificare' });
    // Quotation A still misses documents; the policy no longer counts.
    expect((await get('/api/dashboard', collabA)).body.data.conteggi.documenti_mancanti).toBe(1);
  });

  it('leaves out reversed policies and historic-car copies (their papers are the quotation\'s)', async () => {
    const id = (await policyRows(staff))[0]!.owner_id;
    await sql`UPDATE polizza SET stato = 'STORNATA' WHERE id = ${id}`.execute(t.connection.db);
    expect(await policyRows(staff)).toEqual([]);
    await sql`UPDATE polizza SET stato = 'SALDATA' WHERE id = ${id}`.execute(t.connection.db);
    expect((await policyRows(staff)).map((r) => r.owner_id)).toEqual([id]);
    // The same policy as the copy of a historic-car issue.
    const issued = await sql<{ id: number }>`INSERT INTO polizza_auto_storica (numero_polizza, quotazione_id, collaboratore_id)
      VALUES ('AS-DESK-1', ${quotA}, ${idA}) RETURNING id`.execute(t.connection.db);
    await sql`UPDATE polizza SET polizza_auto_storica_id = ${issued.rows[0]!.id} WHERE id = ${id}`.execute(t.connection.db);
    expect(await policyRows(staff)).toEqual([]);
    await sql`UPDATE polizza SET polizza_auto_storica_id = NULL WHERE id = ${id}`.execute(t.connection.db);
  });
});

describe('/api/definitions dashboard cards', () => {
  it('lists only the cards the user may open', async () => {
    const routes = async (token: string) => ((await get('/api/definitions', token)).body.dashboard as Array<{ route: string }>).map((c) => c.route);
    const staffCards = await routes(staff);
    expect(staffCards).toEqual(expect.arrayContaining(['/prodotti', '/appendici', '/track_gestione_documenti', '/gestione_documenti']));
    const collabCards = await routes(collabA);
    expect(collabCards).not.toContain('/prodotti');
    expect(collabCards).toEqual(expect.arrayContaining(['/appendici', '/track_gestione_documenti', '/gestione_documenti']));
    expect(await routes(nobody)).toEqual([]);
  });
});

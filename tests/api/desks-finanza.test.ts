// The finance desks of issue 18: scope per role, statement and commission totals against hand-computed figures (to the
// cent), the multi-title payment that changes nothing when it fails half-way, reversal by permission, the PDFs and exports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let cassiere: string;
let collabX: string;
let approvatore: string;
const oggi = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
const periodo = `filter[pagato_dal]=${oggi}&filter[pagato_al]=${oggi}`;

async function post(url: string, body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const res = await t.call('POST', url, { token, body });
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data.model;
}

const ids = { x: 0, y: 0, p1: 0, p2: 0, p3: 0, t1: [] as number[], t2: [] as number[], t3: [] as number[] };

async function titoli(polizza: number): Promise<Array<Record<string, any>>> {
  const res = await t.call('GET', `/api/titolo?filter[polizza_id]=${polizza}&sort=numero_rata&per_page=100`, { token: admin });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function paga(token: string, titoliDaPagare: number[], importo: number, tipo = 'BONIFICO') {
  return t.call('POST', '/api/titolo/pagamenti', { token, body: { titoli: titoliDaPagare, data_pagamento: oggi, tipo_pagamento: tipo, importo } });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await userWithRoles(t, admin, { email: 'staff@desk.it', roles: ['staff'] });
  cassiere = await userWithRoles(t, admin, { email: 'cassa@desk.it', roles: ['cassiere'] });
  approvatore = await userWithRoles(t, admin, { email: 'approva@desk.it', roles: ['approvatore'] });
  const tirrenica = (await post('/api/compagnia', { ragioneSociale: 'Tirrenica', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5, tipologiaRimesse: 'FINE_MESE' })).id;
  const adriatica = (await post('/api/compagnia', { ragioneSociale: 'Adriatica', tipoCompagnia: 'FORNITORE', percentRitenuta: 4.6, tipologiaRimesse: 'ENTRO_10' })).id;
  const alNetto = (await post('/api/compagnia_contrattuale', { nome: 'Al Netto', effettua_versamenti_netto_provvigioni: true })).id;
  const alLordo = (await post('/api/compagnia_contrattuale', { nome: 'Al Lordo', effettua_versamenti_netto_provvigioni: false })).id;
  const pa = (await post('/api/categoria_prodotto', { nome: 'Incendio', compagnia_fornitore_id: tirrenica, compagnia_contrattuale_id: alNetto, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12 })).id;
  const pb = (await post('/api/categoria_prodotto', { nome: 'Infortuni', compagnia_fornitore_id: adriatica, compagnia_contrattuale_id: alLordo, ramo_id: 1, settore_id: 1, percentuale_provvigione_attiva: 10 })).id;
  ids.x = (await post('/api/collaboratore', { sesso: 'M', nome: 'Ugo', cognome: 'Xeni', tipo: 'AGENTE', percProvvigioneCompetenze: 50,
    provvigioni_settori: [{ id: 1, nome: 'DANNI', perc_provvigione: 40, tipo_provvigione: 'PERC_RETROCESSIONE' }] })).id;
  ids.y = (await post('/api/collaboratore', { sesso: 'F', nome: 'Eva', cognome: 'Ypsi', tipo: 'AGENTE', percProvvigioneCompetenze: 20,
    provvigioni_settori: [{ id: 1, nome: 'DANNI', perc_provvigione: 30, tipo_provvigione: 'PERC_IMPONIBILE' }] })).id;
  collabX = await userWithRoles(t, admin, { email: 'xeni@desk.it', roles: ['collaboratore'], collaboratore_id: ids.x });
  const cx = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Bianchi', collaboratore_id: ids.x })).id;
  const cy = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', collaboratore_id: ids.y })).id;
  const base = { tacito_rinnovo: false, diritti: 0, spese: 0 };
  ids.p1 = (await post('/api/polizza', { ...base, collaboratore_id: ids.x, cliente_id: cx, compagnia_contrattuale_id: alNetto, fornitore_id: tirrenica, mandato_prodotto_id: pa,
    polizza_numero: 'EC-1', data_entrata_in_effetto: '2026-01-01', data_scadenza: '2027-01-01', frazionamento_slug: 'ANNUALE',
    totale_premio_imponibile: 1000.01, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20 })).id;
  ids.p2 = (await post('/api/polizza', { ...base, collaboratore_id: ids.y, cliente_id: cy, compagnia_contrattuale_id: alLordo, fornitore_id: adriatica, mandato_prodotto_id: pb,
    polizza_numero: 'EC-2', data_entrata_in_effetto: '2026-01-01', data_scadenza: '2027-01-01', frazionamento_slug: 'ANNUALE',
    totale_premio_imponibile: 333.33, totale_premio_imposte: 74.17, competenze: 15 })).id;
  ids.p3 = (await post('/api/polizza', { ...base, collaboratore_id: ids.x, cliente_id: cx, compagnia_contrattuale_id: alNetto, fornitore_id: tirrenica, mandato_prodotto_id: pa,
    polizza_numero: 'EC-3', data_entrata_in_effetto: '2026-01-15', data_scadenza: '2027-01-15', frazionamento_slug: 'TRIMESTRALE',
    totale_premio_imponibile: 1000.01, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20 })).id;
  ids.t1 = (await titoli(ids.p1)).map((x) => x.id);
  ids.t2 = (await titoli(ids.p2)).map((x) => x.id);
  ids.t3 = (await titoli(ids.p3)).map((x) => x.id);
});
afterAll(() => t?.close());

describe('GESTIONE INCASSI', () => {
  it('shows every due title to the cashier, with how overdue it is; others without the permission are refused', async () => {
    const res = await t.call('GET', '/api/gestione_incassi?per_page=100&sort=id', { token: cassiere });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    const t3 = res.body.data.find((r: any) => r.id === ids.t3[2]);
    const expected = '2026-07-15' < oggi ? 'SCADUTO' : '2026-07-15' <= oggi ? 'IN_SCADENZA' : 'FUTURO';
    expect(t3).toMatchObject({ polizza_numero: 'EC-3', contraente: 'BIANCHI MARIO', fornitore: 'TIRRENICA', numero_rata: 3, scadenza: '2026-07-15', premio: 314.37, saldato: false, situazione: expected });
    if (expected === 'SCADUTO') expect(t3.giorni_ritardo).toBe(Math.round((Date.parse(oggi) - Date.parse('2026-07-15')) / 86400000));
    for (const token of [collabX, approvatore]) expect((await t.call('GET', '/api/gestione_incassi', { token })).status).toBe(403);
    expect((await paga(collabX, [ids.t1[0]!], 1257.51)).status).toBe(403);
  });

  it('refuses a payment whose amount is not the sum of the titles, and one that fails half-way changes nothing', async () => {
    const movimenti = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM titolo_movimento`.execute(t.connection.db)).rows[0]!.n);
    const before = await movimenti();
    const wrong = await paga(cassiere, [ids.t3[0]!, ids.t3[1]!], 628.76);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.importo[0]).toContain('628,77');
    // Title 4 of EC-3 pays, then a title of a policy with an impossible date stops the payment: nothing stays paid.
    const badDate = await t.call('POST', '/api/titolo/pagamenti', { token: cassiere, body: { titoli: [ids.t3[3]!, ids.t3[2]!], data_pagamento: '2999-01-01', tipo_pagamento: 'BONIFICO', importo: 628.74 } });
    expect(badDate.status).toBe(422);
    expect(await movimenti()).toBe(before);
    // Title 2 alone, then titles 1 and 2: title 1 is written first (id order), title 2 refuses, and title 1 is unpaid again.
    expect((await paga(cassiere, [ids.t3[1]!], 314.37)).status).toBe(200);
    const half = await paga(cassiere, [ids.t3[0]!, ids.t3[1]!], 628.77);
    expect(half.status).toBe(409);
    expect(half.body.message).toBe(`Titolo ${ids.t3[1]}: Il titolo è già pagato. Nessun pagamento registrato.`);
    expect(half.body.code).toBe('CONFLICT');
    const rows = await titoli(ids.p3);
    expect(rows.map((r) => r.saldato)).toEqual([false, true, false, false]);
    expect(await movimenti()).toBe(before + 1);
    // Undo the single payment through the reversal (staff holds the permission, the cashier does not).
    expect((await t.call('POST', `/api/titolo/${ids.t3[1]}/storno`, { token: cassiere, body: { nota: 'prova' } })).status).toBe(403);
    expect((await t.call('POST', `/api/titolo/${ids.t3[1]}/storno`, { token: staff, body: { nota: 'prova' } })).status).toBe(200);
    const storia = await t.call('GET', `/api/titolo/${ids.t3[1]}/movimenti`, { token: staff });
    expect(storia.body.data.map((m: any) => m.tipo)).toEqual(['PAGAMENTO', 'STORNO']);
  });

  it('registers one payment over several titles in one go', async () => {
    const res = await paga(cassiere, [ids.t3[0]!, ids.t3[1]!], 628.77);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Pagamento registrato su 2 titoli.');
    expect((await paga(cassiere, [ids.t1[0]!], 1257.51, 'CONTANTI')).status).toBe(200);
    expect((await paga(staff, [ids.t2[0]!], 422.5, 'POS')).status).toBe(200);
    const rows = await titoli(ids.p3);
    expect(rows.map((r) => [r.saldato, r.tipo_pagamento, r.data_pagamento])).toEqual([
      [true, 'BONIFICO', oggi], [true, 'BONIFICO', oggi], [false, null, null], [false, null, null],
    ]);
    const paid = await t.call('GET', '/api/gestione_incassi?filter[situazione]=PAGATO&per_page=100', { token: cassiere });
    expect(paid.body.total).toBe(4);
  });
});

describe('ESTRATTO CONTO', () => {
  it('totals per remittance type and supplier, to the cent', async () => {
    const res = await t.call('GET', `/api/estratto_conto/riepilogo?${periodo}`, { token: cassiere });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { gruppi, totale } = res.body.data;
    // Tirrenica, net remittance: EC-1 (1257.51 gross; 1222.51 - 120.00 + 13.80 = 1116.31) and EC-3 titles 1-2
    // (314.40: 305.65 - 30.00 + 3.45 = 279.10; 314.37: 305.62 - 30.00 + 3.45 = 279.07).
    expect(gruppi.map((g: any) => [g.chiave, g.titolo])).toEqual([['ENTRO_10', 'Entro il 10'], ['FINE_MESE', 'Fine mese']]);
    expect(gruppi[1].righe).toEqual([{ chiave: expect.any(String), titolo: 'TIRRENICA', conteggio: 3,
      valori: { lordo: 1886.28, netto: 1500.02, provvigioni_attive: 180, valore_ritenuta: 20.7, da_rimettere: 1674.48 } }]);
    // Adriatica remits gross: 407.50 = 333.33 + 74.17; commission 33.33, withholding 4.6 % = 1.53.
    expect(gruppi[0].totale).toEqual({ conteggio: 1, valori: { lordo: 422.5, netto: 333.33, provvigioni_attive: 33.33, valore_ritenuta: 1.53, da_rimettere: 407.5 } });
    expect(totale).toEqual({ conteggio: 4, valori: { lordo: 2308.78, netto: 1833.35, provvigioni_attive: 213.33, valore_ritenuta: 22.23, da_rimettere: 2081.98 } });
    const list = await t.call('GET', `/api/estratto_conto?${periodo}&filter[fornitore_id]=${(await t.call('GET', '/api/estratto_conto?per_page=1&search=adriatica', { token: staff })).body.data[0].fornitore_id}`, { token: staff });
    expect(list.body.data).toEqual([expect.objectContaining({ polizza_numero: 'EC-2', tipologia_rimessa: 'ENTRO_10', al_netto: false, lordo: 422.5, da_rimettere: 407.5 })]);
    // Another period holds nothing.
    const empty = await t.call('GET', '/api/estratto_conto/riepilogo?filter[pagato_al]=2020-01-31', { token: staff });
    expect(empty.body.data.totale).toEqual({ conteggio: 0, valori: { lordo: 0, netto: 0, provvigioni_attive: 0, valore_ritenuta: 0, da_rimettere: 0 } });
    expect((await t.call('GET', '/api/estratto_conto/riepilogo?filter[pagato_dal]=2026-02-30', { token: staff })).status).toBe(422);
  });

  it('prints the statement as PDF and exports it as CSV and XLSX; collaborators may not see it', async () => {
    const pdf = await t.app.inject({ method: 'GET', url: `/api/estratto_conto/pdf?${periodo}`, headers: { authorization: `Bearer ${staff}` } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const csv = await t.call('GET', `/api/estratto_conto/riepilogo/export?formato=csv&${periodo}`, { token: staff });
    expect(csv.status).toBe(200);
    const lines = String(csv.body).replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('Rimessa;Fornitore;Polizza;Contraente;Rata;Pagato il;Tipo Pagamento;Lordo;Netto;Provv. Broker;Ritenuta;Da Rimettere');
    expect(lines[5]).toBe('Totale;;;;;;;2308,78;1833,35;213,33;22,23;2081,98');
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/estratto_conto/riepilogo/export?formato=xlsx&${periodo}`, headers: { authorization: `Bearer ${staff}` } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(6);
    expect(sheet.getRow(6).getCell(12).value).toBe(2081.98);
    for (const token of [collabX, approvatore]) {
      expect((await t.call('GET', '/api/estratto_conto', { token })).status).toBe(403);
      expect((await t.call('GET', '/api/estratto_conto/riepilogo', { token })).status).toBe(403);
    }
  });
});

describe('PROVVIGIONALE', () => {
  it('totals per collaborator to the cent; a collaborator sees only their own', async () => {
    const res = await t.call('GET', `/api/provvigionale/riepilogo?${periodo}`, { token: staff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Xeni, retrocession 40 % of the broker's commission + 50 % of competenze: EC-1 48.00 + 10.00, EC-3 titles 12.00 + 2.50 each.
    // Ypsi, 30 % of the net 333.33 = 100.00 + 20 % of competenze 15.00 = 3.00.
    expect(res.body.data.gruppi.map((g: any) => [g.titolo, g.totale])).toEqual([
      ['XENI UGO', { conteggio: 3, valori: { provvigione: 72, quota_competenze: 15, totale: 87 } }],
      ['YPSI EVA', { conteggio: 1, valori: { provvigione: 100, quota_competenze: 3, totale: 103 } }],
    ]);
    expect(res.body.data.gruppi[0].righe[0].titolo).toBe('DANNI · Retrocessione');
    expect(res.body.data.totale.valori).toEqual({ provvigione: 172, quota_competenze: 18, totale: 190 });
    const mine = await t.call('GET', `/api/provvigionale?${periodo}&per_page=100`, { token: collabX });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((r: any) => r.collaboratore_id)).toEqual([ids.x, ids.x, ids.x]);
    expect(mine.body.data.find((r: any) => r.polizza_numero === 'EC-1')).toMatchObject({
      tipo_provvigione: 'PERC_RETROCESSIONE', perc_provvigione: 40, base_provvigione: 120, provvigione: 48, competenze: 20, perc_competenze: 50, quota_competenze: 10, totale: 58, settore: 'DANNI',
    });
    const mineTotals = await t.call('GET', `/api/provvigionale/riepilogo?${periodo}`, { token: collabX });
    expect(mineTotals.body.data.totale.valori).toEqual({ provvigione: 72, quota_competenze: 15, totale: 87 });
    const other = (await t.call('GET', '/api/provvigionale?search=EC-2', { token: staff })).body.data[0].id;
    expect((await t.call('GET', `/api/provvigionale/${other}`, { token: collabX })).status).toBe(404);
    for (const token of [cassiere, approvatore]) expect((await t.call('GET', '/api/provvigionale', { token })).status).toBe(403);
  });
});

describe('QUIETANZE', () => {
  it('lists the paid titles and prints each receipt as a PDF', async () => {
    const res = await t.call('GET', `/api/quietanze?${periodo}&per_page=100`, { token: cassiere });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    const q = res.body.data.find((r: any) => r.polizza_numero === 'EC-1');
    expect(q).toMatchObject({ contraente: 'BIANCHI MARIO', premio: 1257.51, tipo_pagamento: 'CONTANTI', data_pagamento: oggi, data_inizio: '2026-01-01', data_fine: '2027-01-01' });
    const pdf = await t.app.inject({ method: 'GET', url: `/api/quietanze/${q.id}/pdf`, headers: { authorization: `Bearer ${cassiere}` } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // An unpaid title has no receipt; collaborators and approvers have no receipts desk.
    expect((await t.call('GET', `/api/quietanze/${ids.t3[3]}/pdf`, { token: cassiere })).status).toBe(404);
    expect((await t.call('GET', `/api/quietanze/${q.id}/pdf`, { token: collabX })).status).toBe(403);
    expect((await t.call('GET', '/api/quietanze', { token: approvatore })).status).toBe(403);
    // A reversal takes the receipt away.
    expect((await t.call('POST', `/api/titolo/${ids.t3[1]}/storno`, { token: staff, body: { nota: 'errore' } })).status).toBe(200);
    expect((await t.call('GET', `/api/quietanze/${ids.t3[1]}`, { token: cassiere })).status).toBe(404);
  });
});

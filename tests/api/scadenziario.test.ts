// The expiry calendar of issue 36 (/api/scadenziario): policies by data_scadenza, unpaid titles by due date, in a
// chosen window; days left and the renewal's state read at query time; a collaborator sees only their own rows; the
// list exports as every list does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggiungiMesi } from '../../src/shared/premi.ts';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collabX: string;
let approvatore: string;
const oggi = oggiIso();
/** The date `n` days from today in Rome (a calendar date: no time zone drift). */
const giorno = (n: number) => giornoIso(n, oggi);
const ids = { x: 0, y: 0, p1: 0, p2: 0, p3: 0, rinnovo: 0 };

async function post(url: string, body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const res = await t.call('POST', url, { token, body });
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data.model;
}

async function righe(query: string, token: string): Promise<Array<Record<string, any>>> {
  const res = await t.call('GET', `/api/scadenziario?per_page=100&${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await userWithRoles(t, admin, { email: 'staff@scadenze.it', roles: ['staff'] });
  approvatore = await userWithRoles(t, admin, { email: 'approva@scadenze.it', roles: ['approvatore'] });
  const fornitore = (await post('/api/compagnia', { ragioneSociale: 'Tirrenica', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5, tipologiaRimesse: 'FINE_MESE' })).id;
  const contrattuale = (await post('/api/compagnia_contrattuale', { nome: 'Al Netto', effettua_versamenti_netto_provvigioni: true })).id;
  const prodotto = (await post('/api/categoria_prodotto', { nome: 'Incendio', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12 })).id;
  ids.x = (await post('/api/collaboratore', { sesso: 'M', nome: 'Ugo', cognome: 'Xeni', tipo: 'AGENTE', percProvvigioneCompetenze: 50 })).id;
  ids.y = (await post('/api/collaboratore', { sesso: 'F', nome: 'Eva', cognome: 'Ypsi', tipo: 'AGENTE', percProvvigioneCompetenze: 20 })).id;
  collabX = await userWithRoles(t, admin, { email: 'xeni@scadenze.it', roles: ['collaboratore'], collaboratore_id: ids.x });
  const cx = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Bianchi', collaboratore_id: ids.x })).id;
  const cy = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', collaboratore_id: ids.y })).id;
  const base = { compagnia_contrattuale_id: contrattuale, fornitore_id: fornitore, mandato_prodotto_id: prodotto, frazionamento_slug: 'ANNUALE',
    totale_premio_imponibile: 1000, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20 };
  // X's policy expires in 20 days without tacit renewal; Y's in 45 days with it; X's second one in 200 days.
  ids.p1 = (await post('/api/polizza', { ...base, tacito_rinnovo: false, collaboratore_id: ids.x, cliente_id: cx, polizza_numero: 'SC-1',
    garanzie: [{ garanzia: 'Incendio fabbricato', importo_netto: 800, importo_lordo: 978 }, { garanzia: 'Ricorso terzi', importo_netto: 200, importo_lordo: 244.5 }],
    data_entrata_in_effetto: giorno(20 - 365), data_scadenza: giorno(20) })).id;
  ids.p2 = (await post('/api/polizza', { ...base, tacito_rinnovo: true, collaboratore_id: ids.y, cliente_id: cy, polizza_numero: 'SC-2',
    data_entrata_in_effetto: giorno(45 - 365), data_scadenza: giorno(45) })).id;
  ids.p3 = (await post('/api/polizza', { ...base, tacito_rinnovo: false, collaboratore_id: ids.x, cliente_id: cx, polizza_numero: 'SC-3',
    data_entrata_in_effetto: giorno(200 - 365), data_scadenza: giorno(200) })).id;
});
afterAll(() => t?.close());

describe('SCADENZIARIO', () => {
  it('lists the policies expiring in the window with customer, product, insurer, premium and days left', async () => {
    const rows = await righe(`filter[tipo]=POLIZZA&filter[scadenza_dal]=${oggi}&filter[scadenza_al]=${giorno(60)}&sort=data_scadenza`, staff);
    expect(rows.map((r) => r.riferimento)).toEqual(['SC-1', 'SC-2']);
    expect(rows[0]).toMatchObject({ id: ids.p1 * 4 + 1, tipo: 'POLIZZA', record_id: ids.p1, polizza_id: ids.p1, contraente: 'BIANCHI MARIO', prodotto: 'Incendio',
      fornitore: 'TIRRENICA', premio: 1257.5, data_scadenza: giorno(20), giorni: 20, tacito_rinnovo: false, stato_rinnovo: 'NESSUNO' });
    expect(rows[1]).toMatchObject({ giorni: 45, tacito_rinnovo: true });
    // Without the window, the policy expiring in 200 days is there too.
    expect((await righe('filter[tipo]=POLIZZA', staff)).map((r) => r.riferimento).sort()).toEqual(['SC-1', 'SC-2', 'SC-3']);
  });

  it('lists the unpaid titles by due date, and drops a title once it is paid', async () => {
    const titoli = await righe(`filter[tipo]=TITOLO&filter[polizza_id]=${ids.p1}`, staff);
    expect(titoli).toHaveLength(1);
    expect(titoli[0]).toMatchObject({ riferimento: 'SC-1 rata 1', data_scadenza: giorno(20 - 365), giorni: 20 - 365, stato_rinnovo: 'NON_APPLICABILE', premio: 1257.5 });
    const titolo = titoli[0]!.record_id as number;
    const paid = await t.call('POST', '/api/titolo/pagamenti', { token: admin, body: { titoli: [titolo], data_pagamento: oggi, tipo_pagamento: 'BONIFICO', importo: 1257.5 } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await righe(`filter[tipo]=TITOLO&filter[polizza_id]=${ids.p1}`, staff)).toHaveLength(0);
  });

  it('shows the renewal as prepared once a policy replaces the old one (polizza_numero_sostituita)', async () => {
    const sc2 = (await t.call('GET', `/api/polizza/${ids.p2}`, { token: admin })).body.data;
    ids.rinnovo = (await post('/api/polizza', { ...Object.fromEntries(['compagnia_contrattuale_id', 'fornitore_id', 'mandato_prodotto_id', 'frazionamento_slug',
      'totale_premio_imponibile', 'totale_premio_imposte', 'diritti', 'spese', 'competenze', 'collaboratore_id', 'cliente_id', 'tacito_rinnovo'].map((k) => [k, sc2[k]])),
    polizza_numero: 'SC-2B', polizza_numero_sostituita: 'SC-2', data_entrata_in_effetto: giorno(45), data_scadenza: giorno(45 + 365) })).id;
    const rows = await righe('filter[tipo]=POLIZZA', staff);
    expect(rows.find((r) => r.riferimento === 'SC-2')).toMatchObject({ stato_rinnovo: 'PREPARATO' });
    expect(rows.find((r) => r.riferimento === 'SC-1')).toMatchObject({ stato_rinnovo: 'NESSUNO' });
  });

  it('shows a collaborator only their own rows; a role without the permission is refused', async () => {
    const mine = await righe('', collabX);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => r.collaboratore_id === ids.x)).toBe(true);
    expect(mine.map((r) => r.riferimento)).toEqual(expect.arrayContaining(['SC-1', 'SC-3']));
    expect(mine.map((r) => r.riferimento)).not.toContain('SC-2');
    expect((await t.call('GET', `/api/scadenziario/${ids.p2 * 4 + 1}`, { token: collabX })).status).toBe(404);
    expect((await t.call('GET', `/api/scadenziario/${ids.p1 * 4 + 1}`, { token: collabX })).status).toBe(200);
    expect((await t.call('GET', '/api/scadenziario', { token: approvatore })).status).toBe(403);
    expect((await t.call('GET', '/api/scadenziario/abc', { token: staff })).status).toBe(404);
  });

  it('exports the window as CSV with the screen columns', async () => {
    const res = await t.call('GET', `/api/scadenziario/export?format=csv&filter[tipo]=POLIZZA&filter[scadenza_dal]=${oggi}&filter[scadenza_al]=${giorno(60)}&sort=data_scadenza&columns=riferimento,contraente,giorni,stato_rinnovo`, { token: staff });
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    const lines = (res.body as string).trim().split(/\r?\n/);
    expect(lines[0]).toContain('Riferimento');
    expect(lines.slice(1).map((l) => l.split(/[;,]/)[0])).toEqual(['SC-1', 'SC-2']);
  });

  it("'Prepara rinnovo' builds next period's policy in draft with last year's data, premium and guarantees, once", async () => {
    const collabY = await userWithRoles(t, admin, { email: 'ypsi@scadenze.it', roles: ['collaboratore'], collaboratore_id: ids.y });
    // Another collaborator's policy is not theirs to renew.
    expect((await t.call('POST', `/api/polizza/${ids.p1}/prepara-rinnovo`, { token: collabY })).status).toBe(404);
    expect((await t.call('POST', '/api/polizza/abc/prepara-rinnovo', { token: staff })).status).toBe(404);
    expect((await t.call('POST', `/api/polizza/${ids.p1}/prepara-rinnovo`, { token: staff, body: { polizza_numero: 'X' } })).status).toBe(422);
    const res = await t.call('POST', `/api/polizza/${ids.p1}/prepara-rinnovo`, { token: staff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const nuova = res.body.data.model;
    expect(nuova).toMatchObject({
      polizza_numero_sostituita: 'SC-1', data_entrata_in_effetto: giorno(20), data_scadenza: aggiungiMesi(giorno(20), 12), stato: 'GIACENZA', saldato: false,
      collaboratore_id: ids.x, totale_premio_imponibile: 1000, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20, totale_premio_lordo: 1257.5,
      garanzie: [{ garanzia: 'Incendio fabbricato', importo_netto: 800, importo_lordo: 978 }, { garanzia: 'Ricorso terzi', importo_netto: 200, importo_lordo: 244.5 }],
    });
    expect(nuova.polizza_numero ?? null).toBeNull();
    expect(nuova.id).not.toBe(ids.p1);
    // Its title for the new period is split like any new policy's.
    const titoli = (await t.call('GET', `/api/titolo?filter[polizza_id]=${nuova.id}`, { token: admin })).body.data;
    expect(titoli.map((x: any) => [x.data_inizio, x.premio])).toEqual([[giorno(20), 1257.5]]);
    // The calendar row shows it prepared; a second request is refused and writes nothing.
    expect((await righe('filter[tipo]=POLIZZA', staff)).find((r) => r.riferimento === 'SC-1')).toMatchObject({ stato_rinnovo: 'PREPARATO' });
    const again = await t.call('POST', `/api/polizza/${ids.p1}/prepara-rinnovo`, { token: staff });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Il rinnovo della polizza SC-1 è già preparato (polizza n. ${nuova.id}).`);
    // Its creation is in the change history like any POST's.
    const storia = await t.call('GET', `/api/polizza/${nuova.id}/storico`, { token: admin });
    expect(storia.status, JSON.stringify(storia.body)).toBe(200);
    expect(storia.body.data.map((v: any) => v.azione)).toContain('creazione');
  });
});

// Suppliers, contractual companies, mandate rows and assigned products through the API: CRUD, validation, permissions and their rules.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { loadAll } from '../../src/server/bootstrap.ts';
import { createAjv } from '../../src/shared/validation.ts';
import { ResourceRepository } from '../../src/server/resources/repository.ts';
import { seedFornitori } from '../../src/server/domains/compagnia/demo.ts';

let t: TestApp;
let admin: string;
let staff: string;
let collab: string;
let approvatore: string;

const fornitore = { ragioneSociale: 'Tirrenica Assicurazioni S.p.A.', tipoCompagnia: 'DIRETTO' };
const DUPLICATE = 'Categoria già presente per questa compagnia.';
const FROZEN = 'Attiva il prodotto per modificarne provvigione e data di inizio.';

/** Today in Italy, the brokerage's day. */
const oggi = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

let seq = 0;
async function nuovoFornitore(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await t.call('POST', '/api/compagnia', { token: admin, body: { ...fornitore, ragioneSociale: `Fornitore ${++seq}`, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model.id;
}
async function nuovaContrattuale(): Promise<number> {
  const res = await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: { nome: `Contrattuale ${++seq}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model.id;
}
async function nuovoProdotto(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.call('POST', '/api/categoria_prodotto', { token: admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.model;
}
async function contaProdotti(filter: string): Promise<number> {
  return (await t.call('GET', `/api/categoria_prodotto?${filter}`, { token: admin })).body.total;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await userWithRoles(t, admin, { email: 'staff-fornitori@test.it', roles: ['staff'] });
  collab = await userWithRoles(t, admin, { email: 'collab-fornitori@test.it', roles: ['collaboratore'] });
  approvatore = await userWithRoles(t, admin, { email: 'approvatore-fornitori@test.it', roles: ['approvatore'] });
});
afterAll(() => t?.close());

describe('fornitori (compagnia)', () => {
  it('creates, reads, lists, updates and deletes a supplier, also on /api/fornitori', async () => {
    const body = {
      ...fornitore, indirizzo: 'via cristoforo colombo', civico: '149', citta: 'Roma', cap: '00147', prov: 'rm',
      referente: 'Giulia Santoro', referenteRuolo: 'Responsabile Rete', email: 'broker@tirrenica.it', pec: 'tirrenica@pec.it',
      emailAmministrazione: 'amm@tirrenica.it', emailPerEstrattoConto: 'ec@tirrenica.it', emailQuotazioni: 'quote@tirrenica.it',
      emailPECReclami: 'reclami@pec.tirrenica.it', riferimentoAmministrativoFatturazioneElettronica: 'Ufficio Provvigioni',
      tel: '+39 06 54128800', cell: '+39 335 6124980', codiceDestinatario: 'm5uxcr1', piva: '01834710327',
      numeroCCIAA: 'RM', numeroREA: 'RM-1023456', percentRitenuta: 11.5, dataAccordo: '2019-03-01', tipologiaRimesse: 'FINE_MESE',
      iscrizioneRUI: 'a000512345', iscrizioneRUIData: '2015-06-22', IBANContoPremi: 'IT45X0306902117100000004321',
      sicAnia: 'tirrenica.ws', sicAniaPassword: 'S3greta!', sicAniaCodiceEnte: 'e123', note: 'Accordo quadro 2019',
      isBloccata: false, isEsclusoFoglioCassa: true, articolo117: true, sitoUfficiale: 'https://www.tirrenica.it',
    };
    const created = await t.call('POST', '/api/compagnia', { token: admin, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const model = created.body.data.model;
    expect(model).toMatchObject({
      ragioneSociale: 'TIRRENICA ASSICURAZIONI S.P.A.', indirizzo: 'VIA CRISTOFORO COLOMBO', citta: 'ROMA', prov: 'RM',
      codiceDestinatario: 'M5UXCR1', iscrizioneRUI: 'A000512345', percentRitenuta: 11.5, tipologiaRimesse: 'FINE_MESE',
      dataAccordo: '2019-03-01', isEsclusoFoglioCassa: true, articolo117: true, isBloccata: false, attivo: true, version: 1,
    });

    const read = await t.call('GET', `/api/fornitori/${model.id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ ragioneSociale: 'TIRRENICA ASSICURAZIONI S.P.A.', piva: '01834710327', emailPECReclami: 'reclami@pec.tirrenica.it' });

    const list = await t.call('GET', '/api/fornitori?search=tirrenica', { token: admin });
    expect(list.body.data.map((r: { id: number }) => r.id)).toEqual([model.id]);

    const updated = await t.call('PUT', `/api/compagnia/${model.id}`, { token: admin, body: { tipoCompagnia: 'FORNITORE', percentRitenuta: 4.6, version: 1 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.model).toMatchObject({ tipoCompagnia: 'FORNITORE', percentRitenuta: 4.6, piva: '01834710327', version: 2 });

    const removed = await t.call('DELETE', `/api/compagnia/${model.id}`, { token: admin });
    expect(removed.status).toBe(200);
    expect((await t.call('GET', `/api/compagnia/${model.id}`, { token: admin })).status).toBe(404);
  });

  const cases: Array<[string, unknown, unknown, string]> = [
    ['percentRitenuta', 4.6, 5, 'La ritenuta può essere solo 4,6% o 11,5%.'],
    ['percentRitenuta', 11.5, 23, 'La ritenuta può essere solo 4,6% o 11,5%.'],
    ['piva', '00905811006', '00905811007', 'Partita IVA non valida'],
    ['IBANContoPremi', 'IT95Y0503401633000000012877', 'IT96Y0503401633000000012877', 'IBAN non valido'],
    ['email', 'info@adriatica-uw.it', 'info@', 'Indirizzo email non valido'],
    ['pec', 'adriatica@legalmail.it', 'adriatica.legalmail.it', 'Indirizzo email non valido'],
    ['emailPECReclami', 'reclami@pec.it', 'reclami', 'Indirizzo email non valido'],
    ['emailQuotazioni', 'quote@adriatica-uw.it', 'quote at adriatica', 'Indirizzo email non valido'],
    ['tel', '+39 02 67074410', '02 67074410', 'Il numero di telefono deve avere un prefisso internazionale valido'],
    ['cap', '20124', '2012', 'Il CAP deve essere di 5 cifre'],
    ['prov', 'MI', 'MIL', 'Formato non valido'],
    ['tipoCompagnia', 'FORNITORE', 'AGENZIA', 'Valore non ammesso'],
    ['tipologiaRimesse', 'QUINDICINALE', 'SETTIMANALE', 'Valore non ammesso'],
    ['codiceDestinatario', 'KRRH6B9', 'KRRH6', 'Formato non valido'],
    ['dataAccordo', '2021-09-15', '15/09/2021', 'Data non valida'],
    ['sitoUfficiale', 'www.adriatica-uw.it', 'adriatica uw', 'Indirizzo del sito non valido'],
  ];
  it.each(cases)('%s: accepts %s, refuses %s', async (field, good, bad, message) => {
    const ok = await t.call('POST', '/api/compagnia', { token: admin, body: { ...fornitore, [field]: good } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const ko = await t.call('POST', '/api/compagnia', { token: admin, body: { ...fornitore, [field]: bad } });
    expect(ko.status).toBe(422);
    expect(ko.body.errors[field].join(' ')).toContain(message);
    expect(Object.keys(ko.body.errors)).toEqual([field]);
  });

  it('requires the business name and the type', async () => {
    const res = await t.call('POST', '/api/compagnia', { token: admin, body: { ragioneSociale: '  ' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ ragioneSociale: ['Campo Obbligatorio.'], tipoCompagnia: ['Campo Obbligatorio.'] });
  });

  it('lets staff manage suppliers and refuses collaborators and approvers (403), changing nothing', async () => {
    const created = await t.call('POST', '/api/compagnia', { token: staff, body: { ...fornitore, ragioneSociale: 'Da Staff' } });
    expect(created.status).toBe(201);
    const id = created.body.data.model.id;
    expect((await t.call('PUT', `/api/compagnia/${id}`, { token: staff, body: { referente: 'Marta', version: 1 } })).status).toBe(200);
    expect((await t.call('GET', '/api/fornitori', { token: staff })).status).toBe(200);

    for (const token of [collab, approvatore]) {
      for (const url of ['/api/compagnia', '/api/fornitori', `/api/compagnia/${id}`, '/api/autocomplete/fornitore']) {
        const res = await t.call('GET', url, { token });
        expect(res.status, url).toBe(403);
        expect(res.body.message).toMatch(/permess/);
      }
      expect((await t.call('POST', '/api/compagnia', { token, body: fornitore })).status).toBe(403);
      expect((await t.call('PUT', `/api/compagnia/${id}`, { token, body: { referente: 'X', version: 2 } })).status).toBe(403);
      expect((await t.call('DELETE', `/api/compagnia/${id}`, { token })).status).toBe(403);
    }
    const after = await t.call('GET', `/api/compagnia/${id}`, { token: admin });
    expect(after.body.data).toMatchObject({ referente: 'Marta', version: 2 });
    expect((await t.call('DELETE', `/api/compagnia/${id}`, { token: staff })).status).toBe(200);
  });

  it('answers the SIC ANIA password to super_admin only and keeps it when others save the form', async () => {
    const created = await t.call('POST', '/api/compagnia', { token: staff, body: { ...fornitore, ragioneSociale: 'Con Ania', sicAnia: 'ws.user', sicAniaPassword: 'Pa55-ania' } });
    expect(created.status).toBe(201);
    const { id } = created.body.data.model;
    expect(created.body.data.model).toMatchObject({ sicAnia: 'ws.user', sicAniaPassword: null });

    expect((await t.call('GET', `/api/compagnia/${id}`, { token: admin })).body.data.sicAniaPassword).toBe('Pa55-ania');
    expect((await t.call('GET', `/api/compagnia/${id}`, { token: staff })).body.data.sicAniaPassword).toBeNull();
    const staffList = await t.call('GET', '/api/compagnia?search=ania', { token: staff });
    expect(staffList.body.data.map((r: { sicAniaPassword: unknown }) => r.sicAniaPassword)).toEqual([null]);
    const adminList = await t.call('GET', '/api/compagnia?search=ania', { token: admin });
    expect(adminList.body.data.map((r: { sicAniaPassword: unknown }) => r.sicAniaPassword)).toEqual(['Pa55-ania']);
    // super_admin's rows are answered as read, staff's are copied field by field: the same record, key for key, but the password.
    expect(Object.keys(adminList.body.data[0])).toEqual(Object.keys(staffList.body.data[0]));
    expect({ ...adminList.body.data[0], sicAniaPassword: null }).toEqual(staffList.body.data[0]);

    // Staff send back the form as they saw it (password null): the stored password stays.
    const resaved = await t.call('PUT', `/api/compagnia/${id}`, { token: staff, body: { referente: 'Marco', sicAniaPassword: null, version: 1 } });
    expect(resaved.status).toBe(200);
    expect(resaved.body.data.model.sicAniaPassword).toBeNull();
    expect((await t.call('GET', `/api/compagnia/${id}`, { token: admin })).body.data).toMatchObject({ referente: 'Marco', sicAniaPassword: 'Pa55-ania' });

    // Staff may set a new one without seeing it; super_admin may clear it.
    expect((await t.call('PUT', `/api/compagnia/${id}`, { token: staff, body: { sicAniaPassword: 'Nuova-2025', version: 2 } })).status).toBe(200);
    expect((await t.call('GET', `/api/compagnia/${id}`, { token: admin })).body.data.sicAniaPassword).toBe('Nuova-2025');
    const stale = await t.call('PUT', `/api/compagnia/${id}`, { token: staff, body: { referente: 'Y', version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.current.sicAniaPassword).toBeNull();
    expect((await t.call('PUT', `/api/compagnia/${id}`, { token: admin, body: { sicAniaPassword: null, version: 3 } })).status).toBe(200);
    expect((await t.call('GET', `/api/compagnia/${id}`, { token: admin })).body.data.sicAniaPassword).toBeNull();
  });

  it('refuses to delete a supplier that still has mandate rows, saying how many, and deletes nothing', async () => {
    const id = await nuovoFornitore();
    const contrattuale = await nuovaContrattuale();
    for (const nome of ['RC Auto Storiche', 'Incendio e Furto', 'Tutela Legale']) {
      await nuovoProdotto({ nome, compagnia_fornitore_id: id, compagnia_contrattuale_id: contrattuale });
    }
    const res = await t.call('DELETE', `/api/compagnia/${id}`, { token: staff });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Impossibile eliminare il fornitore: ha ancora 3 prodotti a mandato.');
    expect(res.body.code).toBe('IN_USE');
    expect((await t.call('GET', `/api/compagnia/${id}`, { token: admin })).status).toBe(200);
    expect(await contaProdotti(`filter[compagnia_fornitore_id]=${id}`)).toBe(3);

    const one = await nuovoFornitore();
    await nuovoProdotto({ nome: 'Vita Risparmio', compagnia_fornitore_id: one, compagnia_contrattuale_id: contrattuale });
    const single = await t.call('DELETE', `/api/fornitori/${one}`, { token: admin });
    expect(single.status).toBe(409);
    expect(single.body.message).toBe('Impossibile eliminare il fornitore: ha ancora 1 prodotto a mandato.');

    const contrattualeRes = await t.call('DELETE', `/api/compagnia_contrattuale/${contrattuale}`, { token: admin });
    expect(contrattualeRes.status).toBe(409);
    expect(contrattualeRes.body.message).toBe('Impossibile eliminare la compagnia contrattuale: ha ancora 4 prodotti a mandato.');
    expect((await t.call('GET', `/api/compagnia_contrattuale/${contrattuale}`, { token: admin })).status).toBe(200);
  });

  it('deletes a supplier once its mandate rows are gone', async () => {
    const id = await nuovoFornitore();
    const prodotto = await nuovoProdotto({ nome: 'Infortuni Conducente', compagnia_fornitore_id: id, compagnia_contrattuale_id: await nuovaContrattuale() });
    expect((await t.call('DELETE', `/api/compagnia/${id}`, { token: admin })).status).toBe(409);
    expect((await t.call('DELETE', `/api/categoria_prodotto/${prodotto.id}`, { token: admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/compagnia/${id}`, { token: admin })).status).toBe(200);
    expect((await t.call('GET', `/api/compagnia/${id}`, { token: admin })).status).toBe(404);
  });

  it('lists active suppliers for the autocomplete as {id, label}', async () => {
    const attivo = await nuovoFornitore({ ragioneSociale: 'Zefiro Broker Srl' });
    await nuovoFornitore({ ragioneSociale: 'Zefiro Chiuso Srl', attivo: false });
    const res = await t.call('GET', '/api/autocomplete/fornitore?search=zefiro', { token: staff });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [{ id: attivo, label: 'ZEFIRO BROKER SRL' }] });
    const all = await t.call('GET', '/api/autocomplete/fornitore', { token: staff });
    expect(all.body.data.map((r: { id: number }) => r.id)).toContain(attivo);
    expect(all.body.data.some((r: { label: string }) => r.label === 'ZEFIRO CHIUSO SRL')).toBe(false);
    expect((await t.call('GET', '/api/autocomplete/fornitore?search=100%25', { token: staff })).body.data).toEqual([]);
  });
});

describe('compagnie contrattuali', () => {
  it('creates, lists on both paths, updates and deletes one without mandate rows', async () => {
    const created = await t.call('POST', '/api/compagnie_contrattuali', { token: staff, body: { nome: 'Europa Tutela Giudiziaria', esiste_ratifica: true } });
    expect(created.status).toBe(201);
    const model = created.body.data.model;
    expect(model).toMatchObject({
      nome: 'EUROPA TUTELA GIUDIZIARIA', attivo: true, esiste_ratifica: true,
      visibile_allegato_4: false, associato_preventivatore_rca: false, effettua_versamenti_netto_provvigioni: false,
    });
    for (const url of ['/api/compagnia_contrattuale?search=europa', '/api/compagnie_contrattuali?search=europa']) {
      expect((await t.call('GET', url, { token: staff })).body.data.map((r: { id: number }) => r.id)).toEqual([model.id]);
    }
    const updated = await t.call('PUT', `/api/compagnia_contrattuale/${model.id}`, { token: staff, body: { associato_preventivatore_rca: true, version: 1 } });
    expect(updated.body.data.model).toMatchObject({ associato_preventivatore_rca: true, version: 2 });
    expect((await t.call('DELETE', `/api/compagnia_contrattuale/${model.id}`, { token: staff })).status).toBe(200);
    expect((await t.call('GET', `/api/compagnia_contrattuale/${model.id}`, { token: staff })).status).toBe(404);
  });

  it('refuses a duplicate name (case-insensitive), a missing name and non-boolean flags', async () => {
    expect((await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: { nome: 'Mediterranea Vita' } })).status).toBe(201);
    const dup = await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: { nome: ' mediterranea VITA ' } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ nome: ['Valore già presente.'] });
    const missing = await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: {} });
    expect(missing.body.errors).toEqual({ nome: ['Campo Obbligatorio.'] });
    const flag = await t.call('POST', '/api/compagnia_contrattuale', { token: admin, body: { nome: 'Altra', esiste_ratifica: 'si' } });
    expect(flag.status).toBe(422);
    expect(flag.body.errors).toEqual({ esiste_ratifica: ['Tipo di dato non valido'] });
  });

  it('is readable with show_fornitori and writable with gestione_fornitori only', async () => {
    expect((await t.call('GET', '/api/compagnie_contrattuali', { token: collab })).status).toBe(403);
    expect((await t.call('POST', '/api/compagnia_contrattuale', { token: collab, body: { nome: 'Vietata' } })).status).toBe(403);
    expect((await t.call('POST', '/api/compagnia_contrattuale', { token: approvatore, body: { nome: 'Vietata' } })).status).toBe(403);
    expect((await t.call('GET', '/api/compagnia_contrattuale?search=vietata', { token: admin })).body.total).toBe(0);
  });
});

describe('prodotti a mandato (categoria_prodotto)', () => {
  let f1: number;
  let f2: number;
  let c1: number;
  let c2: number;
  beforeAll(async () => {
    [f1, f2, c1, c2] = [await nuovoFornitore(), await nuovoFornitore(), await nuovaContrattuale(), await nuovaContrattuale()];
  });

  it('starts a new row with commission 0, today as start date, active', async () => {
    const model = await nuovoProdotto({ nome: '  RC Auto Storiche ', compagnia_fornitore_id: f1, compagnia_contrattuale_id: c1 });
    expect(model).toMatchObject({
      nome: 'RC Auto Storiche', percentuale_provvigione_attiva: 0, data_inizio_mandato: oggi(), mandato_attivo: true, attivo: true,
      compagnia_fornitore_id: f1, compagnia_contrattuale_id: c1,
    });
    const given = await nuovoProdotto({
      nome: 'Vita Risparmio', compagnia_fornitore_id: f1, compagnia_contrattuale_id: c1, settore_id: 3, ramo_id: 19,
      percentuale_provvigione_attiva: 3.5, data_inizio_mandato: '2021-04-01', mandatabile_type: 'Prodotto',
    });
    expect(given).toMatchObject({ percentuale_provvigione_attiva: 3.5, data_inizio_mandato: '2021-04-01', settore_id: 3, ramo_id: 19, mandatabile_type: 'Prodotto' });
    const read = await t.call('GET', `/api/categoria_prodotto/${given.id}`, { token: staff });
    expect(read.body.data).toMatchObject({ nome: 'Vita Risparmio', percentuale_provvigione_attiva: 3.5 });
  });

  const cases: Array<[string, unknown, unknown, string]> = [
    ['percentuale_provvigione_attiva', 100, 100.5, 'Il valore massimo è 100'],
    ['percentuale_provvigione_attiva', 0, -1, 'Il valore minimo è 0'],
    ['settore_id', 2, 4, 'Valore non ammesso'],
    ['ramo_id', 24, 25, 'Il valore massimo è 24'],
    ['ramo_id', 1, 0, 'Il valore minimo è 1'],
    ['data_inizio_mandato', '2024-01-31', '2024-02-31', 'Data non valida'],
    ['mandato_attivo', false, 'no', 'Tipo di dato non valido'],
  ];
  it.each(cases)('%s: accepts %s, refuses %s', async (field, good, bad, message) => {
    const base = { compagnia_fornitore_id: f2, compagnia_contrattuale_id: c2 };
    const ok = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { ...base, nome: `Caso ${++seq}`, [field]: good } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const ko = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { ...base, nome: `Caso ${++seq}`, [field]: bad } });
    expect(ko.status).toBe(422);
    expect(ko.body.errors[field].join(' ')).toContain(message);
    expect(Object.keys(ko.body.errors)).toEqual([field]);
  });

  it('requires name, supplier and contractual company, and refuses ids that do not exist', async () => {
    const missing = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { nome: ' ' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ nome: ['Campo Obbligatorio.'], compagnia_fornitore_id: ['Campo Obbligatorio.'], compagnia_contrattuale_id: ['Campo Obbligatorio.'] });
    const dangling = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { nome: 'Orfano', compagnia_fornitore_id: 987654, compagnia_contrattuale_id: c1 } });
    expect(dangling.status).toBe(422);
    expect(dangling.body.errors).toEqual({ compagnia_fornitore_id: ['Il record collegato non esiste.'] });
  });

  it('keeps category names unique per supplier and contractual company, ignoring case', async () => {
    const base = { compagnia_fornitore_id: f1, compagnia_contrattuale_id: c2 };
    await nuovoProdotto({ ...base, nome: 'Tutela Legale' });
    const before = await contaProdotti(`filter[compagnia_fornitore_id]=${f1}&filter[compagnia_contrattuale_id]=${c2}`);
    const dup = await t.call('POST', '/api/categoria_prodotto', { token: admin, body: { ...base, nome: '  TUTELA legale ' } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ nome: [DUPLICATE] });
    expect(await contaProdotti(`filter[compagnia_fornitore_id]=${f1}&filter[compagnia_contrattuale_id]=${c2}`)).toBe(before);
    // The same name is free under another company or another supplier.
    await nuovoProdotto({ compagnia_fornitore_id: f1, compagnia_contrattuale_id: c1, nome: 'Tutela Legale' });
    await nuovoProdotto({ compagnia_fornitore_id: f2, compagnia_contrattuale_id: c2, nome: 'Tutela Legale' });
    // Renaming or moving onto a taken name is refused too.
    const other = await nuovoProdotto({ ...base, nome: 'Assistenza Stradale' });
    const rename = await t.call('PUT', `/api/categoria_prodotto/${other.id}`, { token: admin, body: { nome: 'tutela LEGALE', version: 1 } });
    expect(rename.status).toBe(422);
    expect(rename.body.errors).toEqual({ nome: [DUPLICATE] });
    const moved = await nuovoProdotto({ compagnia_fornitore_id: f2, compagnia_contrattuale_id: c1, nome: 'Tutela legale' });
    const move = await t.call('PUT', `/api/categoria_prodotto/${moved.id}`, { token: admin, body: { compagnia_contrattuale_id: c2, version: 1 } });
    expect(move.status).toBe(422);
    expect(move.body.errors).toEqual({ nome: [DUPLICATE] });
    // Saving a row under its own name is no duplicate.
    expect((await t.call('PUT', `/api/categoria_prodotto/${other.id}`, { token: admin, body: { nome: 'ASSISTENZA STRADALE', version: 1 } })).status).toBe(200);
  });

  it('of two concurrent creations of the same name exactly one lands', async () => {
    const body = { compagnia_fornitore_id: f2, compagnia_contrattuale_id: c1, nome: 'Cristalli' };
    const results = await Promise.all([1, 2, 3].map(() => t.call('POST', '/api/categoria_prodotto', { token: admin, body })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422]);
  });

  it('keeps commission and start date of an inactive row and refuses to change them until it is active again', async () => {
    const row = await nuovoProdotto({ nome: 'Incendio e Furto', compagnia_fornitore_id: f2, compagnia_contrattuale_id: c2, percentuale_provvigione_attiva: 20, data_inizio_mandato: '2020-01-01' });
    const off = await t.call('PUT', `/api/categoria_prodotto/${row.id}`, { token: staff, body: { mandato_attivo: false, version: 1 } });
    expect(off.status).toBe(200);
    expect(off.body.data.model).toMatchObject({ mandato_attivo: false, percentuale_provvigione_attiva: 20, data_inizio_mandato: '2020-01-01' });

    const commission = await t.call('PUT', `/api/categoria_prodotto/${row.id}`, { token: staff, body: { percentuale_provvigione_attiva: 25, version: 2 } });
    expect(commission.status).toBe(422);
    expect(commission.body.errors).toEqual({ percentuale_provvigione_attiva: [FROZEN] });
    const both = await t.call('PUT', `/api/categoria_prodotto/${row.id}`, { token: staff, body: { percentuale_provvigione_attiva: 25, data_inizio_mandato: '2024-01-01', version: 2 } });
    expect(both.body.errors).toEqual({ percentuale_provvigione_attiva: [FROZEN], data_inizio_mandato: [FROZEN] });
    // Switching off and changing in one request is refused as well.
    const active = await nuovoProdotto({ nome: 'Furto Totale', compagnia_fornitore_id: f2, compagnia_contrattuale_id: c2 });
    const offAndChange = await t.call('PUT', `/api/categoria_prodotto/${active.id}`, { token: staff, body: { mandato_attivo: false, data_inizio_mandato: '2020-05-01', version: 1 } });
    expect(offAndChange.body.errors).toEqual({ data_inizio_mandato: [FROZEN] });

    // The whole row sent back unchanged, with another field edited, is fine.
    const same = await t.call('PUT', `/api/categoria_prodotto/${row.id}`, { token: staff, body: { nome: 'Incendio, Furto e Rapina', percentuale_provvigione_attiva: 20, data_inizio_mandato: '2020-01-01', version: 2 } });
    expect(same.status).toBe(200);
    expect((await t.call('GET', `/api/categoria_prodotto/${row.id}`, { token: staff })).body.data).toMatchObject({ percentuale_provvigione_attiva: 20, data_inizio_mandato: '2020-01-01', version: 3 });

    // Reactivating opens the fields again, in the same request too.
    const on = await t.call('PUT', `/api/categoria_prodotto/${row.id}`, { token: staff, body: { mandato_attivo: true, percentuale_provvigione_attiva: 25, version: 3 } });
    expect(on.status).toBe(200);
    expect(on.body.data.model).toMatchObject({ mandato_attivo: true, percentuale_provvigione_attiva: 25, data_inizio_mandato: '2020-01-01' });
    // An active row keeps a start date and a commission.
    const cleared = await t.call('PUT', `/api/categoria_prodotto/${row.id}`, { token: staff, body: { data_inizio_mandato: '', percentuale_provvigione_attiva: null, version: 4 } });
    expect(cleared.body.errors).toEqual({ data_inizio_mandato: ['Campo Obbligatorio.'], percentuale_provvigione_attiva: ['Campo Obbligatorio.'] });
  });

  it('filters by supplier and by contractual company', async () => {
    const [fa, ca, cb] = [await nuovoFornitore(), await nuovaContrattuale(), await nuovaContrattuale()];
    const a = await nuovoProdotto({ nome: 'RC Auto', compagnia_fornitore_id: fa, compagnia_contrattuale_id: ca });
    const b = await nuovoProdotto({ nome: 'Kasko', compagnia_fornitore_id: fa, compagnia_contrattuale_id: cb });
    const ids = async (url: string) => {
      const res = await t.call('GET', url, { token: staff });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((r: { id: number }) => r.id).sort();
    };
    expect(await ids(`/api/categoria_prodotto?filter[compagnia_fornitore_id]=${fa}`)).toEqual([a.id, b.id].sort());
    expect(await ids(`/api/categoria_prodotto?filter[compagnia_fornitore_id]=${fa}&filter[compagnia_contrattuale_id]=${cb}`)).toEqual([b.id]);
    expect(await ids(`/api/prodotto_assicurativo?filter[compagnia_fornitore_id]=${fa}&filter[prodotto.compagnia_contrattuale_id]=${ca}`)).toEqual([a.id]);
    expect(await ids(`/api/prodotto_assicurativo?filter[mandato.compagnia_fornitore_id]=${fa}`)).toEqual([a.id, b.id].sort());
    const unknown = await t.call('GET', '/api/prodotto_assicurativo?filter[prodotto.nonEsiste]=1', { token: staff });
    expect(unknown.status).toBe(422);
    expect((await t.call('GET', '/api/prodotto_assicurativo?filter[polizza.id]=1', { token: staff })).status).toBe(422);
  });

  it('accepts and answers the nested mandato shape on /api/prodotto_assicurativo', async () => {
    const created = await t.call('POST', '/api/prodotto_assicurativo', {
      token: staff,
      body: {
        nome: 'Infortuni Conducente', compagnia_contrattuale_id: c1, settore_id: 1, ramo_id: 1, mandatabile_type: 'Categoria',
        mandato: { percentuale_provvigione_attiva: '12,5', data_inizio_mandato: '2022-02-01', attivo: true, compagnia_fornitore_id: f2 },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const model = created.body.data.model;
    expect(model).toMatchObject({
      nome: 'Infortuni Conducente', compagnia_fornitore_id: f2, percentuale_provvigione_attiva: 12.5, mandato_attivo: true,
      mandato: { percentuale_provvigione_attiva: 12.5, data_inizio_mandato: '2022-02-01', attivo: true, compagnia_fornitore_id: f2 },
    });
    // The same row through the generic path, flat.
    const flat = await t.call('GET', `/api/categoria_prodotto/${model.id}`, { token: staff });
    expect(flat.body.data).toMatchObject({ percentuale_provvigione_attiva: 12.5, data_inizio_mandato: '2022-02-01', compagnia_fornitore_id: f2 });
    expect(flat.body.data.mandato).toBeUndefined();

    const defaults = await t.call('POST', '/api/prodotto_assicurativo', { token: staff, body: { nome: 'Cristalli', compagnia_contrattuale_id: c2, mandato: { compagnia_fornitore_id: f2 } } });
    expect(defaults.status).toBe(201);
    expect(defaults.body.data.model.mandato).toEqual({ percentuale_provvigione_attiva: 0, data_inizio_mandato: oggi(), attivo: true, compagnia_fornitore_id: f2 });

    const off = await t.call('PUT', `/api/prodotto_assicurativo/${model.id}`, { token: staff, body: { mandato: { attivo: false }, version: 1 } });
    expect(off.status).toBe(200);
    expect(off.body.data.model).toMatchObject({ mandato_attivo: false, mandato: { attivo: false, percentuale_provvigione_attiva: 12.5 } });
    expect(off.headers.etag).toBe('"2"');
    // Errors of nested fields come back under mandato.<key>.
    const frozen = await t.call('PUT', `/api/prodotto_assicurativo/${model.id}`, { token: staff, body: { mandato: { percentuale_provvigione_attiva: 30 }, version: 2 } });
    expect(frozen.status).toBe(422);
    expect(frozen.body.errors).toEqual({ 'mandato.percentuale_provvigione_attiva': [FROZEN] });
    const range = await t.call('POST', '/api/prodotto_assicurativo', { token: staff, body: { nome: 'Troppo', compagnia_contrattuale_id: c1, mandato: { compagnia_fornitore_id: f2, percentuale_provvigione_attiva: '120' } } });
    expect(range.body.errors).toEqual({ 'mandato.percentuale_provvigione_attiva': ['Il valore massimo è 100'] });
    const dup = await t.call('POST', '/api/prodotto_assicurativo', { token: staff, body: { nome: 'infortuni conducente', compagnia_contrattuale_id: c1, mandato: { compagnia_fornitore_id: f2 } } });
    expect(dup.body.errors).toEqual({ nome: [DUPLICATE] });
    const unknownKey = await t.call('POST', '/api/prodotto_assicurativo', { token: staff, body: { nome: 'X', compagnia_contrattuale_id: c1, mandato: { compagnia_fornitore_id: f2, sconto: 5 } } });
    expect(unknownKey.body.errors).toEqual({ 'mandato.sconto': ['Campo non consentito.'] });
    const conflict = await t.call('POST', '/api/prodotto_assicurativo', { token: staff, body: { nome: 'Y', compagnia_fornitore_id: f1, compagnia_contrattuale_id: c1, mandato: { compagnia_fornitore_id: f2 } } });
    expect(conflict.status).toBe(422);
    expect(Object.keys(conflict.body.errors)).toEqual(['mandato.compagnia_fornitore_id']);

    const list = await t.call('GET', `/api/prodotto_assicurativo?filter[prodotto.compagnia_contrattuale_id]=${c1}&filter[compagnia_fornitore_id]=${f2}&search=infortuni`, { token: staff });
    expect(list.body.data.map((r: { id: number; mandato: { attivo: boolean } }) => [r.id, r.mandato.attivo])).toEqual([[model.id, false]]);
    const one = await t.call('GET', `/api/prodotto_assicurativo/${model.id}`, { token: staff });
    expect(one.body.data.mandato).toEqual({ percentuale_provvigione_attiva: 12.5, data_inizio_mandato: '2022-02-01', attivo: false, compagnia_fornitore_id: f2 });

    // The generic path takes the flat shape only.
    const nestedOnGeneric = await t.call('POST', '/api/categoria_prodotto', { token: staff, body: { nome: 'Z', compagnia_contrattuale_id: c1, compagnia_fornitore_id: f2, mandato: {} } });
    expect(nestedOnGeneric.body.errors).toEqual({ mandato: ['Campo non consentito.'] });

    expect((await t.call('DELETE', `/api/prodotto_assicurativo/${defaults.body.data.model.id}`, { token: staff })).status).toBe(200);
    expect((await t.call('GET', `/api/categoria_prodotto/${defaults.body.data.model.id}`, { token: staff })).status).toBe(404);
    expect((await t.call('GET', '/api/prodotto_assicurativo/999999', { token: staff })).status).toBe(404);
  });

  it('is refused to users without show_fornitori / gestione_fornitori on both paths', async () => {
    for (const url of ['/api/categoria_prodotto', '/api/prodotto_assicurativo']) {
      expect((await t.call('GET', url, { token: collab })).status).toBe(403);
      expect((await t.call('POST', url, { token: approvatore, body: { nome: 'No', compagnia_fornitore_id: f1, compagnia_contrattuale_id: c1 } })).status).toBe(403);
    }
    expect((await t.call('GET', '/api/categoria_prodotto?search=No', { token: admin })).body.data.some((r: { nome: string }) => r.nome === 'No')).toBe(false);
  });
});

describe('prodotti assegnati', () => {
  it('assigns a mandate row to a collaborator once, with a commission of 0 to 100', async () => {
    const collaboratore = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Mario', cognome: 'Rossi', tipo: 'AGENTE' } })).body.data.model.id;
    const altro = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'F', nome: 'Laura', cognome: 'Verdi', tipo: 'COLLABORATORE' } })).body.data.model.id;
    const prodotto = (await nuovoProdotto({ nome: 'RC Auto Storiche', compagnia_fornitore_id: await nuovoFornitore(), compagnia_contrattuale_id: await nuovaContrattuale() })).id;

    const created = await t.call('POST', '/api/prodotto_assegnato', { token: staff, body: { collaboratore_id: collaboratore, categoria_prodotto_id: prodotto, perc_provvigione: 40 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.model).toMatchObject({ collaboratore_id: collaboratore, categoria_prodotto_id: prodotto, perc_provvigione: 40, attivo: true });
    const dup = await t.call('POST', '/api/prodotto_assegnato', { token: staff, body: { collaboratore_id: collaboratore, categoria_prodotto_id: prodotto } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ categoria_prodotto_id: ['Prodotto già assegnato a questo collaboratore.'] });
    const other = await t.call('POST', '/api/prodotto_assegnato', { token: staff, body: { collaboratore_id: altro, categoria_prodotto_id: prodotto } });
    expect(other.status).toBe(201);
    expect(other.body.data.model.perc_provvigione).toBe(0);
    const moved = await t.call('PUT', `/api/prodotto_assegnato/${other.body.data.model.id}`, { token: staff, body: { collaboratore_id: collaboratore, version: 1 } });
    expect(moved.body.errors).toEqual({ categoria_prodotto_id: ['Prodotto già assegnato a questo collaboratore.'] });
    const tooMuch = await t.call('PUT', `/api/prodotto_assegnato/${other.body.data.model.id}`, { token: staff, body: { perc_provvigione: 101, version: 1 } });
    expect(tooMuch.body.errors).toEqual({ perc_provvigione: ['Il valore massimo è 100'] });

    const mine = await t.call('GET', `/api/prodotto_assegnato?filter[collaboratore_id]=${collaboratore}`, { token: approvatore });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((r: { categoria_prodotto_id: number }) => r.categoria_prodotto_id)).toEqual([prodotto]);
    expect((await t.call('POST', '/api/prodotto_assegnato', { token: approvatore, body: { collaboratore_id: altro, categoria_prodotto_id: prodotto } })).status).toBe(403);
    expect((await t.call('GET', '/api/prodotto_assegnato', { token: collab })).status).toBe(403);

    // The assigned product cannot go while assigned; the message says to whom it still belongs.
    const del = await t.call('DELETE', `/api/categoria_prodotto/${prodotto}`, { token: staff });
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('Impossibile eliminare il prodotto a mandato: ha ancora 2 assegnazioni a collaboratori.');
    expect((await t.call('DELETE', `/api/prodotto_assegnato/${created.body.data.model.id}`, { token: staff })).status).toBe(200);
  });
});

describe('demo data', () => {
  it('seeds suppliers, contractual companies and mandate rows once, through validation', async () => {
    const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
    const deps = { ajv: createAjv(), definitions, extensions: t.app.ctx.extensions };
    const repoFor = (name: string) => new ResourceRepository(definitions.resources.get(name)!, deps);
    const first = await seedFornitori(t.connection.db, repoFor);
    expect(first).toEqual({ fornitori: 3, compagnieContrattuali: 3, prodotti: 11 });
    expect(await seedFornitori(t.connection.db, repoFor)).toEqual({ fornitori: 0, compagnieContrattuali: 0, prodotti: 0 });
    const diretti = await t.call('GET', '/api/compagnia?filter[tipoCompagnia]=DIRETTO&search=tirrenica', { token: staff });
    expect(diretti.body.data.map((r: { ragioneSociale: string }) => r.ragioneSociale)).toContain('TIRRENICA ASSICURAZIONI S.P.A.');
  });
});

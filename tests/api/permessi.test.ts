// Issue 29: what a collaborator reads of a quotation (insurer premium, colours), who registers payments, consents that
// outlive their quotation, one customer per codice fiscale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let collab: string;
let approver: string;
let collabId: number;
let giallo: number;
let rosso: number;

function quotazione(model: number, extra: Record<string, unknown> = {}) {
  return {
    persona: 'f', nome: 'Giovanni', cognome: 'Permessi', email: 'giovanni.permessi@example.it', telefono: '+39 333 7654321',
    provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: model, marca: 'Alfa Romeo', modello: 'Giulia Super', anno: 1968, tipologia_ania: 'A', targa: 'AB123CD' }],
    ...extra,
  };
}

async function calculated(token: string, model: number): Promise<number> {
  const q = await t.call('POST', '/api/quotazioni', { token, body: quotazione(model) });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const calc = await t.call('POST', '/api/quotazioni/calcolo', { token, body: { id: q.body.data.model.id } });
  expect(calc.status, JSON.stringify(calc.body)).toBe(200);
  return q.body.data.model.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  collabId = (await t.call('POST', '/api/collaboratore', { token: admin, body: { sesso: 'M', nome: 'Agente', cognome: 'PERMESSI', tipo: 'AGENTE', email: 'agente.permessi@example.it' } })).body.data.model.id;
  collab = await userWithRoles(t, admin, { email: 'collab.permessi@test.it', roles: ['collaboratore'], collaboratore_id: collabId });
  approver = await userWithRoles(t, admin, { email: 'approver.permessi@test.it', roles: ['approvatore'] });
  const model = async (body: Record<string, unknown>) => (await t.call('POST', '/api/autostoriche', { token: admin, body })).body.data.model.id as number;
  giallo = await model({ marca: 'ALFA ROMEO', modello: 'GIULIA SUPER', anno: 1968, valore_b: 18000, colore: 'giallo', tipologia: 'A' });
  rosso = await model({ marca: 'LANCIA', modello: 'FLAMINIA', anno: 1965, valore_b: 20000, colore: 'rosso', tipologia: 'A' });
});
afterAll(() => t?.close());

describe('field read permissions of a quotation (spec 000 §2.9, 001 §6)', () => {
  it('a collaborator reads neither the insurer premium, nor the broker rights, nor a yellow colour: get, list, export, stream, calculation', async () => {
    const id = await calculated(collab, giallo);
    const one = (await t.call('GET', `/api/quotazioni/${id}`, { token: collab })).body.data;
    expect(one).toMatchObject({ colore: null, premio_verti: null, premio: 190.52 });
    expect(one.preventivi[0]).toMatchObject({ premio_compagnia: null, diritti_del_broker: null, premio_base: 170.52, premio_totale: 190.52 });
    expect(one.veicoli_storici[0].colore).toBeNull();

    for (const url of ['/api/quotazioni?filter[cognome]=PERMESSI', '/api/quotazioni?filter[cognome]=PERMESSI&per_page=-1']) {
      const list = await t.call('GET', url, { token: collab });
      expect(list.status, url).toBe(200);
      const row = list.body.data.find((r: { id: number }) => r.id === id);
      expect(row, url).toMatchObject({ colore: null, premio_verti: null });
      expect(row.preventivi[0].premio_compagnia).toBeNull();
      expect(row.veicoli_storici[0].colore).toBeNull();
    }
    const csv = await t.call('GET', `/api/quotazioni/export?format=csv&filter[cognome]=PERMESSI&columns=id,colore,premio`, { token: collab });
    expect(csv.status).toBe(200);
    expect(String(csv.body)).not.toMatch(/Giallo|;g;|;g\r/);

    // The calculation answers like the record.
    const calc = await t.call('POST', '/api/quotazioni/calcolo', { token: collab, body: quotazione(giallo) });
    expect(calc.status).toBe(200);
    expect(calc.body).toMatchObject({ colore: null, premio_verti: null });
    expect(calc.body.preventivi[0]).toMatchObject({ premio_compagnia: null, diritti_del_broker: null });

    // Nor can the colour be probed by a filter or a sort.
    expect((await t.call('GET', '/api/quotazioni?filter[colore]=g', { token: collab })).status).toBe(422);
    expect((await t.call('GET', '/api/quotazioni?sort=colore', { token: collab })).status).toBe(422);
  });

  it('super_admin reads everything; an approver reads the colours but not the insurer premium', async () => {
    const id = await calculated(collab, giallo);
    const full = (await t.call('GET', `/api/quotazioni/${id}`, { token: admin })).body.data;
    expect(full).toMatchObject({ colore: 'g', premio_verti: 140.52 });
    expect(full.preventivi[0]).toMatchObject({ premio_compagnia: 140.52, diritti_del_broker: 30 });
    expect(full.veicoli_storici[0].colore).toBe('g');
    const approved = (await t.call('GET', `/api/quotazioni/${id}`, { token: approver })).body.data;
    expect(approved).toMatchObject({ colore: 'g', premio_verti: null });
    expect(approved.preventivi[0].premio_compagnia).toBeNull();
    const rows = (await t.call('GET', '/api/quotazioni?filter[cognome]=PERMESSI&per_page=-1', { token: admin })).body.data;
    expect(rows.find((r: { id: number }) => r.id === id)).toMatchObject({ colore: 'g', premio_verti: 140.52 });
  });

  it('a red colour stays visible to the collaborator, and a hidden yellow still calls for a derogation', async () => {
    const red = await calculated(collab, rosso);
    const one = (await t.call('GET', `/api/quotazioni/${red}`, { token: collab })).body.data;
    expect(one.colore).toBe('r');
    expect(one.veicoli_storici[0].colore).toBe('r');
    const yellow = await calculated(collab, giallo);
    const wf = await t.call('GET', `/api/quotazioni/${yellow}/workflow`, { token: collab });
    expect(wf.body.data.avvisi).toEqual(['Attenzione! Deroga necessaria.']);
    const confirmed = await t.call('POST', `/api/quotazioni/conferma/${yellow}`, { token: collab });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data.model).toMatchObject({ stato_quotazione_id: 2, colore: null });
  });

  it('the definitions tell the client which fields and parts are guarded', async () => {
    const schema = (await t.call('GET', '/api/definitions', { token: collab })).body.resources.find((r: { name: string }) => r.name === 'quotazione').schema;
    expect(schema.properties.premio_verti['x-read-permission']).toBe('super_admin');
    expect(schema.properties.preventivi.items.properties.premio_compagnia['x-read-permission']).toBe('super_admin');
  });
});

describe('registering payments (ruoli.json: gestione_incassi)', () => {
  it('a collaborator may not pay his own titles by any route; a cashier may', async () => {
    const post = async (url: string, body: Record<string, unknown>) => {
      const res = await t.call('POST', url, { token: admin, body });
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
      return res.body.data.model.id as number;
    };
    const fornitore = await post('/api/compagnia', { ragioneSociale: 'Pagamenti Spa', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5 });
    const contrattuale = await post('/api/compagnia_contrattuale', { nome: 'Compagnia Pagamenti' });
    const prodotto = await post('/api/categoria_prodotto', {
      nome: 'Incendio', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12,
    });
    const cliente = await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Pagante', collaboratore_id: collabId });
    const polizza = await post('/api/polizza', {
      collaboratore_id: collabId, cliente_id: cliente, compagnia_contrattuale_id: contrattuale, fornitore_id: fornitore,
      mandato_prodotto_id: prodotto, polizza_numero: 'PAG-1', data_entrata_in_effetto: '2026-01-15', data_scadenza: '2027-01-15',
      frazionamento_slug: 'TRIMESTRALE', tacito_rinnovo: true, totale_premio_imponibile: 1000, totale_premio_imposte: 220, diritti: 10, spese: 5, competenze: 20,
    });
    const titoli = (await t.call('GET', `/api/titolo?filter[polizza_id]=${polizza}&sort=numero_rata`, { token: collab })).body.data as Array<{ id: number; premio: number }>;
    expect(titoli.length).toBe(4);
    const [first, second] = titoli as [{ id: number; premio: number }, { id: number; premio: number }];
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    const payment = (x: { premio: number }) => ({ data_pagamento: today, importo: x.premio, tipo_pagamento: 'BONIFICO' });

    for (const url of [`/api/titolo/${first.id}/pagamento`, `/api/titoli/${first.id}/pagamento`]) {
      const refused = await t.call('POST', url, { token: collab, body: payment(first) });
      expect(refused.status, url).toBe(403);
      expect(refused.body.message).toBe('Non hai i permessi per registrare pagamenti.');
    }
    for (const url of ['/api/titolo/pagamenti', '/api/titoli/pagamenti', '/api/gestione_incassi/pagamenti']) {
      const refused = await t.call('POST', url, { token: collab, body: { titoli: [first.id], data_pagamento: today, importo: first.premio, tipo_pagamento: 'BONIFICO' } });
      expect(refused.status, url).toBe(403);
      expect(refused.body.message).toBe('Non hai i permessi per registrare pagamenti.');
    }
    const unpaid = (await t.call('GET', `/api/titolo/${first.id}`, { token: admin })).body.data;
    expect(unpaid).toMatchObject({ saldato: false, stato: 'GIACENZA' });

    const cashier = await userWithRoles(t, admin, { email: 'cassiere.permessi@test.it', roles: ['cassiere'] });
    const paid = await t.call('POST', `/api/titolo/${first.id}/pagamento`, { token: admin, body: payment(first) });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const desk = await t.call('POST', '/api/gestione_incassi/pagamenti', { token: cashier, body: { titoli: [second.id], data_pagamento: today, importo: second.premio, tipo_pagamento: 'BONIFICO' } });
    expect(desk.status, JSON.stringify(desk.body)).toBe(200);
  });
});

// Policies and titles through the API: CRUD with the 422 field mapping, product filter, gross premium,
// title generation and regeneration, payment and reversal with history, row scope, and the streamed full list.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let staff: string;
let seq = 0;

const oggi = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());

async function post(url: string, body: Record<string, unknown>, token = admin): Promise<Record<string, any>> {
  const res = await t.call('POST', url, { token, body });
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data.model;
}

interface Setup { fornitore: number; altroFornitore: number; contrattuale: number; prodotto: number; prodottoAltro: number; collaboratore: number; cliente: number }
let s: Setup;

async function collaboratore(cognome: string, settori = [{ id: 1, nome: 'DANNI', perc_provvigione: 40, tipo_provvigione: 'PERC_RETROCESSIONE' }]) {
  return (await post('/api/collaboratore', {
    sesso: 'M', nome: 'Agente', cognome, tipo: 'AGENTE', provvigioni_settori: settori, percProvvigioneCompetenze: 50,
  })).id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  staff = await userWithRoles(t, admin, { email: 'staff@test.it', roles: ['staff'] });
  const fornitore = (await post('/api/compagnia', { ragioneSociale: 'Tirrenica', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5 })).id;
  const altroFornitore = (await post('/api/compagnia', { ragioneSociale: 'Adriatica', tipoCompagnia: 'FORNITORE', percentRitenuta: 4.6 })).id;
  const contrattuale = (await post('/api/compagnia_contrattuale', { nome: 'Compagnia Uno' })).id;
  const prodotto = (await post('/api/categoria_prodotto', {
    nome: 'Incendio Casa', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 12,
  })).id;
  const prodottoAltro = (await post('/api/categoria_prodotto', {
    nome: 'Infortuni', compagnia_fornitore_id: altroFornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 1, settore_id: 1, percentuale_provvigione_attiva: 10,
  })).id;
  const collab = await collaboratore('POLIZZE');
  const cliente = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi', collaboratore_id: collab })).id;
  s = { fornitore, altroFornitore, contrattuale, prodotto, prodottoAltro, collaboratore: collab, cliente };
});
afterAll(() => t?.close());

function polizza(extra: Record<string, unknown> = {}) {
  return {
    collaboratore_id: s.collaboratore, cliente_id: s.cliente, compagnia_contrattuale_id: s.contrattuale, fornitore_id: s.fornitore,
    mandato_prodotto_id: s.prodotto, polizza_numero: `pol-${++seq}`, data_entrata_in_effetto: '2026-01-15', data_scadenza: '2027-01-15',
    frazionamento_slug: 'TRIMESTRALE', tacito_rinnovo: true, totale_premio_imponibile: 1000.01, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20,
    ...extra,
  };
}

async function titoliDi(id: number, token = admin): Promise<Array<Record<string, any>>> {
  const res = await t.call('GET', `/api/titolo?filter[polizza_id]=${id}&sort=numero_rata&per_page=100`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('policy CRUD', () => {
  it('creates a policy with the gross premium computed by the server and four quarterly titles', async () => {
    const res = await t.call('POST', '/api/polizza', { token: staff, body: polizza() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Polizza creata con successo.');
    const model = res.body.data.model;
    expect(model).toMatchObject({
      totale_premio_lordo: 1257.51, premio: 1257.51, data_inizio: '2026-01-15', data_fine: '2027-01-15', stato: 'GIACENZA', saldato: false,
      ramo_id: 8, polizza_numero: `POL-${seq}`, data_ultimo_stato: oggi(),
    });
    expect(model.prodotto_label).toMatch(/^TIRRENICA \/ COMPAGNIA UNO \/ Incendio Casa \(.+\)$/);
    const titoli = await titoliDi(model.id);
    expect(titoli.map((x) => [x.numero_rata, x.data_inizio, x.data_fine, x.stato, x.saldato])).toEqual([
      [1, '2026-01-15', '2026-04-15', 'GIACENZA', false], [2, '2026-04-15', '2026-07-15', 'GIACENZA', false],
      [3, '2026-07-15', '2026-10-15', 'GIACENZA', false], [4, '2026-10-15', '2027-01-15', 'GIACENZA', false],
    ]);
    // Split to the cent with the remainder on the first: 1257.51 = 314.40 + 3 × 314.37.
    expect(titoli.map((x) => x.premio)).toEqual([314.4, 314.37, 314.37, 314.37]);
    expect(Math.round(titoli.reduce((sum, x) => sum + x.premio * 100, 0))).toBe(125751);
    expect(titoli.map((x) => x.totale_netto)).toEqual([250.01, 250, 250, 250]);
    // Commission panel: 12% of the net, withholding 11.5% of it, collaborator 40% of the broker's (retrocession) + 50% of competenze.
    expect(titoli[1]).toMatchObject({
      perc_provvigioni_attive: 12, provvigioni_attive: 30, valore_ritenuta: 3.45, perc_competenze_collaboratore: 40,
      collaboratore_totale: 12 + 2.5, totale_cliente: 314.37, premio_polizza: 305.62, competenze: 5, cliente_id: s.cliente, collaboratore_id: s.collaboratore,
    });
    const read = await t.call('GET', `/api/polizza/${model.id}`, { token: staff });
    expect(read.status).toBe(200);
    expect(read.body.data.totale_premio_lordo).toBe(1257.51);
  });

  it('refuses a gross premium that disagrees with the amounts, at totale_premio_lordo', async () => {
    const res = await t.call('POST', '/api/polizza', { token: staff, body: polizza({ totale_premio_lordo: 1257.5 }) });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['totale_premio_lordo']);
    expect(res.body.errors.totale_premio_lordo[0]).toMatch(/1\.?257,51/);
    const ok = await t.call('POST', '/api/polizza', { token: staff, body: polizza({ totale_premio_lordo: 1257.51 }) });
    expect(ok.status).toBe(201);
  });

  it.each([
    ['collaboratore_id', { collaboratore_id: undefined }, 'Campo Obbligatorio.'],
    ['cliente_id', { cliente_id: undefined }, 'Campo Obbligatorio.'],
    ['compagnia_contrattuale_id', { compagnia_contrattuale_id: undefined }, 'Campo Obbligatorio.'],
    ['fornitore_id', { fornitore_id: undefined }, 'Campo Obbligatorio.'],
    ['mandato_prodotto_id', { mandato_prodotto_id: undefined }, 'Campo Obbligatorio.'],
    ['frazionamento_slug', { frazionamento_slug: undefined }, 'Campo Obbligatorio.'],
    ['frazionamento_slug', { frazionamento_slug: 'QUINDICINALE' }, ''],
    ['cliente_id', { cliente_id: 999999 }, 'Il record collegato non esiste.'],
    ['fornitore_id', { fornitore_id: 999999 }, 'Il fornitore selezionato non esiste.'],
    ['compagnia_contrattuale_id', { compagnia_contrattuale_id: 999999 }, 'non esiste'],
    ['mandato_prodotto_id', { mandato_prodotto_id: 999999 }, 'Il prodotto selezionato non esiste.'],
    ['collaboratore_id', { collaboratore_id: 999999 }, ''],
    ['data_scadenza', { data_scadenza: '2026-01-15' }, 'successiva'],
  ])('answers 422 at %s', async (field, change, message) => {
    const body: Record<string, unknown> = polizza(change);
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
    const res = await t.call('POST', '/api/polizza', { token: staff, body });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    if (message) expect(res.body.errors[field].join(' ')).toContain(message);
  });

  it('refuses a product of another supplier or company, at mandato_prodotto_id', async () => {
    const res = await t.call('POST', '/api/polizza', { token: staff, body: polizza({ mandato_prodotto_id: s.prodottoAltro }) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ mandato_prodotto_id: ['Il prodotto non appartiene al fornitore selezionato.'] });
    const ramo = await t.call('POST', '/api/polizza', { token: staff, body: polizza({ ramo_id: 3 }) });
    expect(ramo.body.errors).toEqual({ mandato_prodotto_id: ['Il prodotto non appartiene al ramo selezionato.'] });
  });

  it('refuses a policy number the same insurer already has, at polizza_numero; another insurer may have it', async () => {
    const numero = `DUP-${++seq}`;
    await post('/api/polizza', polizza({ polizza_numero: numero }), staff);
    const again = await t.call('POST', '/api/polizza', { token: staff, body: polizza({ polizza_numero: numero.toLowerCase() }) });
    expect(again.status, JSON.stringify(again.body)).toBe(422);
    expect(again.body.errors).toEqual({ polizza_numero: ['Valore già presente.'] });
    const altra = await post('/api/polizza', polizza({ polizza_numero: numero, fornitore_id: s.altroFornitore, mandato_prodotto_id: s.prodottoAltro }), staff);
    expect(altra.polizza_numero).toBe(numero);
    // Renaming onto a number the insurer already has is refused the same way.
    const other = await post('/api/polizza', polizza(), staff);
    const renamed = await t.call('PUT', `/api/polizza/${other.id}`, { token: staff, body: { polizza_numero: numero, version: other.version } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(422);
    expect(renamed.body.errors).toEqual({ polizza_numero: ['Valore già presente.'] });
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM polizza WHERE polizza_numero = ${numero}`.execute(t.connection.db);
    expect(rows.rows[0]!.n).toBe(2);
  });

  it('updates, regenerates the titles while none is paid, and deletes', async () => {
    const created = (await t.call('POST', '/api/polizza', { token: staff, body: polizza() })).body.data.model;
    const before = await titoliDi(created.id);
    const res = await t.call('PUT', `/api/polizza/${created.id}`, { token: staff, body: { frazionamento_slug: 'SEMESTRALE', totale_premio_imponibile: 2000, version: created.version } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.model.totale_premio_lordo).toBe(2257.5);
    const after = await titoliDi(created.id);
    expect(after.map((x) => x.premio)).toEqual([1128.75, 1128.75]);
    expect(after.some((x) => before.some((b) => b.id === x.id))).toBe(false);
    // A change that touches neither dates nor amounts keeps the titles.
    const renamed = await t.call('PUT', `/api/polizza/${created.id}`, { token: staff, body: { polizza_numero: 'nuovo', version: res.body.data.model.version } });
    expect(renamed.status).toBe(200);
    expect((await titoliDi(created.id)).map((x) => x.id)).toEqual(after.map((x) => x.id));
    // Deleting removes the policy and its unpaid titles.
    expect((await t.call('DELETE', `/api/polizza/${created.id}`, { token: staff })).status).toBe(200);
    expect(await titoliDi(created.id)).toEqual([]);
  });

  it('generates one title per period for each frazionamento', async () => {
    for (const [slug, n] of [['ANNUALE', 1], ['SEMESTRALE', 2], ['QUADRIMESTRALE', 3], ['TRIMESTRALE', 4], ['BIMESTRALE', 6], ['MENSILE', 12], ['UNICO', 1]] as const) {
      const created = (await t.call('POST', '/api/polizza', { token: staff, body: polizza({ frazionamento_slug: slug }) })).body.data.model;
      const titoli = await titoliDi(created.id);
      expect(titoli, slug).toHaveLength(n);
      expect(Math.round(titoli.reduce((sum, x) => sum + x.premio * 100, 0))).toBe(125751);
    }
  });

  it('titles cannot be written through the generic API', async () => {
    const created = (await t.call('POST', '/api/polizza', { token: admin, body: polizza() })).body.data.model;
    const [first] = await titoliDi(created.id);
    const put = await t.call('PUT', `/api/titolo/${first!.id}`, { token: admin, body: { premio: 1, version: first!.version } });
    expect(put.status).toBe(409);
    expect((await t.call('DELETE', `/api/titolo/${first!.id}`, { token: admin })).status).toBe(409);
    expect((await titoliDi(created.id))[0]!.premio).toBe(first!.premio);
  });
});

describe('product filter', () => {
  it('lists the mandate products of a supplier under a contractual company', async () => {
    const url = (q: string) => `/api/mandato_prodotto_in_polizza/search?${q}`;
    const one = await t.call('GET', url(`compagnia_fornitore_id=${s.fornitore}&prodotto[compagnia_contrattuale_id]=${s.contrattuale}`), { token: staff });
    expect(one.status).toBe(200);
    expect(one.body.data.map((p: { id: number }) => p.id)).toEqual([s.prodotto]);
    expect(one.body.data[0]).toMatchObject({ nome: 'Incendio Casa', ramo_id: 8, compagnia_contrattuale_id: s.contrattuale, mandato: { percentuale_provvigione_attiva: '12', compagnia_fornitore_id: s.fornitore, attivo: true } });
    const both = await t.call('GET', url(`prodotto[compagnia_contrattuale_id]=${s.contrattuale}`), { token: staff });
    expect(both.body.data.map((p: { id: number }) => p.id).sort()).toEqual([s.prodotto, s.prodottoAltro].sort());
    const ramo = await t.call('GET', url(`prodotto[compagnia_contrattuale_id]=${s.contrattuale}&ramo_id=1`), { token: staff });
    expect(ramo.body.data.map((p: { id: number }) => p.id)).toEqual([s.prodottoAltro]);
    const bad = await t.call('GET', url('compagnia_fornitore_id=abc'), { token: staff });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['compagnia_fornitore_id']);
    const fornitori = await t.call('GET', '/api/polizza/autocomplete/fornitore', { token: staff });
    expect(fornitori.body.data.map((f: { id: number }) => f.id).sort()).toEqual([s.fornitore, s.altroFornitore].sort());
    const compagnie = await t.call('GET', `/api/polizza/autocomplete/compagnia_contrattuale?fornitore_id=${s.fornitore}`, { token: staff });
    expect(compagnie.body.data).toEqual([{ id: s.contrattuale, label: 'COMPAGNIA UNO' }]);
  });

  it('serves the frazionamenti and the 17 payment types', async () => {
    const fr = await t.call('GET', '/api/autocomplete/frazionamento', { token: staff });
    expect(fr.body.data.map((f: { slug: string }) => f.slug)).toContain('TRIMESTRALE');
    const tp = await t.call('GET', '/api/autocomplete/tipo_pagamento', { token: staff });
    expect(tp.body.data).toHaveLength(17);
    expect(tp.body.data.map((x: { id: string }) => x.id)).toContain('BONIFICO');
  });

  it('answers the commission parameters of product and collaborator', async () => {
    const res = await t.call('GET', `/api/polizza/parametri_provvigioni?mandato_prodotto_id=${s.prodotto}&collaboratore_id=${s.collaboratore}`, { token: staff });
    expect(res.body.data).toEqual({ perc_provvigioni_attive: 12, perc_ritenuta: 11.5, perc_provvigione_collaboratore: 40, tipo_provvigione_collaboratore: 'PERC_RETROCESSIONE', perc_competenze_collaboratore: 50 });
  });
});

describe('payment and reversal', () => {
  it('pays a title, refuses a second payment, reverses it with history kept', async () => {
    const created = (await t.call('POST', '/api/polizza', { token: staff, body: polizza() })).body.data.model;
    const [first, second] = await titoliDi(created.id);
    const url = `/api/titolo/${first!.id}/pagamento`;
    const wrong = await t.call('POST', url, { token: staff, body: { data_pagamento: oggi(), importo: 1, tipo_pagamento: 'BONIFICO' } });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['importo']);
    const badType = await t.call('POST', url, { token: staff, body: { data_pagamento: '2999-01-01', importo: first!.premio, tipo_pagamento: 'BITCOIN' } });
    expect(Object.keys(badType.body.errors).sort()).toEqual(['data_pagamento', 'tipo_pagamento']);
    // A day the calendar does not have is refused at its field, not shifted to 2 March nor left to the database.
    const noDay = await t.call('POST', url, { token: staff, body: { data_pagamento: '2026-02-30', importo: first!.premio, tipo_pagamento: 'BONIFICO' } });
    expect(noDay.status).toBe(422);
    expect(noDay.body.errors).toEqual({ data_pagamento: ['Data del pagamento obbligatoria (GG/MM/AAAA).'] });

    const paid = await t.call('POST', url, { token: staff, body: { data_pagamento: oggi(), importo: first!.premio, tipo_pagamento: 'BONIFICO' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data.model).toMatchObject({ saldato: true, stato: 'PAGATO', tipo_pagamento: 'BONIFICO', importo_pagato: first!.premio, pagato_da: 'Staff', data_pagamento: oggi() });
    expect((await t.call('POST', url, { token: staff, body: { data_pagamento: oggi(), importo: first!.premio, tipo_pagamento: 'BONIFICO' } })).status).toBe(409);
    const pol = (await t.call('GET', `/api/polizza/${created.id}`, { token: staff })).body.data;
    expect(pol).toMatchObject({ stato: 'IN_PAGAMENTO', saldato: false });

    // With a paid title, dates, frazionamento and amounts are frozen; other fields still change.
    const frozen = await t.call('PUT', `/api/polizza/${created.id}`, { token: staff, body: { frazionamento_slug: 'ANNUALE', diritti: 11, version: pol.version } });
    expect(frozen.status).toBe(422);
    expect(Object.keys(frozen.body.errors).sort()).toEqual(['diritti', 'frazionamento_slug']);
    expect((await t.call('PUT', `/api/polizza/${created.id}`, { token: staff, body: { tacito_rinnovo: false, version: pol.version } })).status).toBe(200);
    expect((await t.call('DELETE', `/api/polizza/${created.id}`, { token: staff })).status).toBe(409);

    // A collaborator may not reverse; staff may.
    const collab = await collaboratore('STORNO');
    const collabToken = await userWithRoles(t, admin, { email: 'storno@test.it', roles: ['collaboratore'], collaboratore_id: collab });
    expect((await t.call('POST', `/api/titolo/${first!.id}/storno`, { token: collabToken, body: {} })).status).toBe(403);
    const reversed = await t.call('POST', `/api/titolo/${first!.id}/storno`, { token: staff, body: { nota: 'bonifico respinto' } });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body.data.model).toMatchObject({ saldato: false, stato: 'GIACENZA', tipo_pagamento: null, importo_pagato: null });
    expect((await t.call('POST', `/api/titolo/${first!.id}/storno`, { token: staff, body: {} })).status).toBe(409);
    const history = await t.call('GET', `/api/titolo/${first!.id}/movimenti`, { token: staff });
    expect(history.body.data.map((m: Record<string, unknown>) => [m.tipo, m.importo, m.tipo_pagamento, m.user_name, m.nota])).toEqual([
      ['PAGAMENTO', first!.premio, 'BONIFICO', 'Staff', null], ['STORNO', first!.premio, 'BONIFICO', 'Staff', 'bonifico respinto'],
    ]);
    expect((await t.call('GET', `/api/polizza/${created.id}`, { token: staff })).body.data).toMatchObject({ stato: 'GIACENZA', saldato: false });

    // Paying every title settles the policy.
    for (const x of await titoliDi(created.id)) {
      const res = await t.call('POST', `/api/titoli/${x.id}/pagamento`, { token: staff, body: { data_pagamento: oggi(), importo: x.premio, tipo_pagamento: 'CONTANTI' } });
      expect(res.status).toBe(200);
    }
    expect((await t.call('GET', `/api/polizza/${created.id}`, { token: staff })).body.data).toMatchObject({ stato: 'SALDATA', saldato: true });
    expect(second).toBeDefined();
  });
});

describe('concurrency', () => {
  it('two simultaneous payments of one title: one is recorded, the other answers 409', async () => {
    const created = (await t.call('POST', '/api/polizza', { token: staff, body: polizza() })).body.data.model;
    const [first] = await titoliDi(created.id);
    const body = { data_pagamento: oggi(), importo: first!.premio, tipo_pagamento: 'POS' };
    const answers = await Promise.all([1, 2, 3].map(() => t.call('POST', `/api/titolo/${first!.id}/pagamento`, { token: staff, body })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const history = await t.call('GET', `/api/titolo/${first!.id}/movimenti`, { token: staff });
    expect(history.body.data).toHaveLength(1);
  });

  it('a payment and an amount change of the policy do not interleave: the change is refused once the title is paid', async () => {
    const created = (await t.call('POST', '/api/polizza', { token: staff, body: polizza() })).body.data.model;
    const [first] = await titoliDi(created.id);
    const [paid, edited] = await Promise.all([
      t.call('POST', `/api/titolo/${first!.id}/pagamento`, { token: staff, body: { data_pagamento: oggi(), importo: first!.premio, tipo_pagamento: 'POS' } }),
      t.call('PUT', `/api/polizza/${created.id}`, { token: staff, body: { diritti: 50, version: created.version } }),
    ]);
    // Either the edit ran first (new titles: the payment finds its title gone or with another premium) or the payment did (edit refused).
    const titoli = await titoliDi(created.id);
    const total = Math.round(titoli.reduce((sum, x) => sum + x.premio * 100, 0));
    const lordo = (await t.call('GET', `/api/polizza/${created.id}`, { token: staff })).body.data.totale_premio_lordo;
    expect(total).toBe(Math.round(lordo * 100));
    // After a payment the policy is at a new version (its stato changed): the stale edit answers 409, or 422 on the frozen amounts.
    if (paid.status === 200) expect([409, 422]).toContain(edited.status);
    else expect(edited.status).toBe(200);
  });
});

describe('row scope', () => {
  it('keeps a collaborator to their own policies and titles, and their own customers', async () => {
    const c1 = await collaboratore('SCOPEUNO');
    const c2 = await collaboratore('SCOPEDUE');
    const t1 = await userWithRoles(t, admin, { email: 'p1@test.it', roles: ['collaboratore'], collaboratore_id: c1 });
    const t2 = await userWithRoles(t, admin, { email: 'p2@test.it', roles: ['collaboratore'], collaboratore_id: c2 });
    const cliente1 = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Uno' }, t1)).id;
    const cliente2 = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Bea', cognome: 'Due' }, t2)).id;

    const own = await t.call('POST', '/api/polizza', { token: t1, body: polizza({ collaboratore_id: undefined, cliente_id: cliente1 }) });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data.model.collaboratore_id).toBe(c1);
    const id = own.body.data.model.id;
    // Another collaborator's customer is not a reference one may take.
    const foreignCustomer = await t.call('POST', '/api/polizza', { token: t1, body: polizza({ collaboratore_id: c1, cliente_id: cliente2 }) });
    expect(foreignCustomer.status).toBe(422);
    expect(foreignCustomer.body.errors).toEqual({ cliente_id: ['Il record collegato non esiste.'] });
    const foreignCollab = await t.call('POST', '/api/polizza', { token: t1, body: polizza({ collaboratore_id: c2, cliente_id: cliente1 }) });
    expect(foreignCollab.status).toBe(422);
    // Worded from the row scope's declaration (the resource its field points at), not by the engine.
    expect(foreignCollab.body.errors).toEqual({ collaboratore_id: ['Valore di «Collaboratore» non consentito: il record deve restare tra quelli che puoi vedere.'] });

    expect((await t.call('GET', `/api/polizza/${id}`, { token: t2 })).status).toBe(404);
    expect((await t.call('PUT', `/api/polizza/${id}`, { token: t2, body: { tacito_rinnovo: false, version: 1 } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/polizza/${id}`, { token: t2 })).status).toBe(404);
    const list2 = await t.call('GET', '/api/polizza?per_page=-1', { token: t2 });
    expect(list2.body.data).toEqual([]);
    const list1 = await t.call('GET', '/api/polizza?per_page=-1', { token: t1 });
    expect(list1.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    const titoli1 = await titoliDi(id, t1);
    expect(titoli1).toHaveLength(4);
    expect(await titoliDi(id, t2)).toEqual([]);
    // Due range on the titles list.
    const due = await t.call('GET', `/api/titolo?filter[polizza_id]=${id}&filter[scadenza_dal]=2026-07-15&filter[scadenza_al]=2026-10-15`, { token: t1 });
    expect(due.body.data.map((x: { numero_rata: number }) => x.numero_rata).sort()).toEqual([2, 3]);
    expect((await t.call('GET', '/api/titolo?filter[scadenza_dal]=15/07/2026', { token: t1 })).status).toBe(422);
    const pay = await t.call('POST', `/api/titolo/${titoli1[0]!.id}/pagamento`, { token: t2, body: { data_pagamento: oggi(), importo: titoli1[0]!.premio, tipo_pagamento: 'POS' } });
    // Registering payments is the cashier's (gestione_incassi): a collaborator is refused before any title is looked up.
    expect(pay.status).toBe(403);
    expect((await t.call('GET', `/api/titolo/${titoli1[0]!.id}/movimenti`, { token: t2 })).status).toBe(404);
    // Another collaborator's commission percentages are not one's to read.
    expect((await t.call('GET', `/api/polizza/parametri_provvigioni?collaboratore_id=${c2}`, { token: t1 })).status).toBe(403);
  });
});

describe('full list', () => {
  it('answers every row with per_page=-1 in the Laravel shape', async () => {
    const res = await t.call('GET', '/api/polizza?per_page=-1', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ current_page: 1, last_page: 1, per_page: -1 });
    expect(res.body.total).toBe(res.body.data.length);
    const count = await t.connection.db.selectFrom('polizza').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(res.body.total).toBe(Number(count.n));
    // Newest first (the list's default sort), every row with the list fields.
    const ids = res.body.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(Object.keys(res.body.data[0])).toEqual(expect.arrayContaining(['id', 'data_inizio', 'data_fine', 'premio', 'stato', 'data_ultimo_stato', 'saldato', 'garanzie', 'prodotto_label']));
  });

  it('streams more rows than one cursor batch, applies filters, and refuses a bad filter before streaming', async () => {
    await sql`INSERT INTO polizza (collaboratore_id, cliente_id, compagnia_contrattuale_id, fornitore_id, mandato_prodotto_id, polizza_numero,
        data_entrata_in_effetto, data_scadenza, frazionamento_slug, stato, premio, saldato)
      SELECT ${s.collaboratore}, ${s.cliente}, ${s.contrattuale}, ${s.fornitore}, ${s.prodotto}, 'MASSA-' || g, '2026-01-01', '2027-01-01', 'ANNUALE', 'GIACENZA', g, false
      FROM generate_series(1, 2500) g`.execute(t.connection.db);
    const all = await t.call('GET', '/api/polizza?per_page=-1&search=MASSA', { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2500);
    expect(all.body.data).toHaveLength(2500);
    expect(new Set(all.body.data.map((r: { id: number }) => r.id)).size).toBe(2500);
    expect(all.body.data[0].polizza_numero).toBe('MASSA-2500');
    const bad = await t.call('GET', '/api/polizza?per_page=-1&filter[nonEsiste]=1', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ 'filter.nonEsiste': ['Filtro non consentito'] });
  });

  it('stops reading when the client goes away mid-stream: the connection goes back to the pool, no transaction left open', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // The client takes the first bytes, then stops reading and leaves while the server waits for it (back-pressure).
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/polizza?per_page=-1&search=MASSA', headers: { authorization: `Bearer ${admin}` } }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', (chunk: Buffer) => {
          res.pause();
          setTimeout(() => {
            req.destroy();
            resolve(chunk.length);
          }, 300);
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    });
    expect(received).toBeGreaterThan(0);
    const pool = t.connection.pool;
    await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 10_000 }).toBe(0);
    const open = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state LIKE 'idle in transaction%'`.execute(t.connection.db);
    expect(open.rows[0]!.n).toBe(0);
    const again = await t.call('GET', '/api/polizza?per_page=-1&search=MASSA', { token: admin });
    expect(again.body.data).toHaveLength(2500);
  });
});

describe('policy documents (identity card and contract)', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
  const UPLOAD = '/api/polizza/upload_documenti_polizza';

  function multipart(fields: Record<string, string>, file?: { field?: string; name: string; content: Buffer }) {
    const boundary = `----pol${Math.random().toString(16).slice(2)}`;
    const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    if (file) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file_name'}"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`), Buffer.from(file.content), Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  const send = (token: string, query: string, fields: Record<string, string>, file?: { field?: string; name: string; content: Buffer }) => {
    const form = multipart(fields, file);
    return t.call('POST', `${UPLOAD}${query}`, { token, body: form.body, headers: form.headers });
  };
  const stored = async () => (await sql<{ rows: number; chunks: number }>`
    SELECT (SELECT count(*)::int FROM media) AS rows, (SELECT count(*)::int FROM media_chunk) AS chunks`.execute(t.connection.db)).rows[0];

  it('uploads the contract (fields in the query, file in file_name), lists, downloads, replaces and deletes it', async () => {
    const id = (await post('/api/polizza', polizza(), staff)).id as number;
    const up = await send(staff, `?model=Polizza&id=${id}&tag=contratto&collection=contratto`, {}, { name: 'Contratto firmato.pdf', content: PDF });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.message).toBe('Documento caricato con successo');
    expect(up.body.data.media).toMatchObject({ collection_name: 'contratto', mime_type: 'application/pdf', name: 'Contratto firmato.pdf', meta: { tag: 'contratto' } });
    // The same fields in the form are accepted too (the identity card as a PNG).
    const card = await send(staff, '', { model: 'Polizza', id: String(id), collection: 'carta_identita', tag: 'carta' }, { name: 'carta.png', content: PNG });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    const list = await t.call('GET', `/api/polizza/${id}/media`, { token: staff });
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { collection_name: string }) => m.collection_name).sort()).toEqual(['carta_identita', 'contratto']);
    expect(list.body.collections.map((c: { name: string }) => c.name)).toEqual(['carta_identita', 'contratto']);
    const file = await t.app.inject({ method: 'GET', url: up.body.data.media.url, headers: { authorization: `Bearer ${staff}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);

    // A second contract replaces the first in one transaction; a refused one leaves the stored one in place.
    const before = await stored();
    const wrong = await send(staff, `?model=Polizza&id=${id}&collection=contratto`, {}, { name: 'finto.pdf', content: Buffer.from('MZ not a pdf at all') });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['file']);
    expect(await stored()).toEqual(before);
    const again = await send(staff, `?model=Polizza&id=${id}&collection=contratto`, {}, { name: 'Contratto v2.pdf', content: PDF });
    expect(again.status).toBe(201);
    const contracts = (await t.call('GET', `/api/polizza/${id}/media`, { token: staff })).body.data.filter((m: { collection_name: string }) => m.collection_name === 'contratto');
    expect(contracts.map((m: { name: string }) => m.name)).toEqual(['Contratto v2.pdf']);
    expect((await t.app.inject({ method: 'GET', url: up.body.data.media.url, headers: { authorization: `Bearer ${staff}` } })).statusCode).toBe(404);

    const del = await t.call('DELETE', contracts[0].url, { token: staff });
    expect(del.status).toBe(200);
    expect((await t.call('GET', `/api/polizza/${id}/media`, { token: staff })).body.data.map((m: { collection_name: string }) => m.collection_name)).toEqual(['carta_identita']);
  });

  it('refuses an unknown collection, no file, the file in another field, a traversal name: nothing stored', async () => {
    const id = (await post('/api/polizza', polizza(), staff)).id as number;
    const before = await stored();
    const cases = [
      [await send(staff, `?model=Polizza&id=${id}&collection=patente`, {}, { name: 'a.pdf', content: PDF }), 'collection'],
      [await send(staff, `?model=Polizza&id=${id}&collection=contratto`, {}), 'file'],
      [await send(staff, `?model=Polizza&id=${id}&collection=contratto`, {}, { field: 'file', name: 'a.pdf', content: PDF }), 'file'],
      [await send(staff, `?model=Polizza&id=${id}&collection=contratto`, {}, { name: '../../etc/a.pdf', content: PDF }), 'file'],
      [await send(staff, `?model=Polizza&id=${id}&collection=contratto`, {}, { name: 'grande.pdf', content: Buffer.concat([PDF, Buffer.alloc(26 * 1024 * 1024)]) }), 'file'],
    ] as const;
    for (const [res, field] of cases) {
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect(await stored()).toEqual(before);
  });

  it('scopes the documents like the policy: another collaborator gets 404 for upload, list and download', async () => {
    const c1 = await collaboratore('DOCUNO');
    const c2 = await collaboratore('DOCDUE');
    const t1 = await userWithRoles(t, admin, { email: 'd1@test.it', roles: ['collaboratore'], collaboratore_id: c1 });
    const t2 = await userWithRoles(t, admin, { email: 'd2@test.it', roles: ['collaboratore'], collaboratore_id: c2 });
    const cliente1 = (await post('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Carla', cognome: 'Documenti' }, t1)).id;
    const id = (await post('/api/polizza', polizza({ collaboratore_id: c1, cliente_id: cliente1 }), t1)).id as number;
    const up = await send(t1, `?model=Polizza&id=${id}&collection=carta_identita`, {}, { name: 'carta.pdf', content: PDF });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const before = await stored();
    expect((await send(t2, `?model=Polizza&id=${id}&collection=contratto`, {}, { name: 'x.pdf', content: PDF })).status).toBe(404);
    expect(await stored()).toEqual(before);
    expect((await t.call('GET', `/api/polizza/${id}/media`, { token: t2 })).status).toBe(404);
    expect((await t.call('GET', up.body.data.media.url, { token: t2 })).status).toBe(404);
    expect((await t.call('DELETE', up.body.data.media.url, { token: t2 })).status).toBe(404);
    expect((await t.call('GET', up.body.data.media.url, { token: t1 })).status).toBe(200);
  });
});

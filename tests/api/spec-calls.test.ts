// The specification's calls as a contract (tests/contract/spec-calls.json): every `served` call answers with its
// shape and permissions on the demo data, every `pending` one is really not served yet. Then the rules of issue 21.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ROOT, createTestApp, type TestApp } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';
import { seedDemo } from '../../src/server/seed/demo.ts';
import { computeCodiceFiscale } from '../../src/shared/validators/codiceFiscale.ts';

interface SpecCall {
  spec: string;
  method: string;
  path: string;
  status: string;
  call?: string;
  who: { as: string; refused?: string; refusedCode?: number; hidden?: string };
  answer?: string;
  code?: number;
  body?: unknown;
  multipart?: Record<string, string>;
  /** Text fields sent beside the multipart files, {placeholders} filled in. */
  form?: Record<string, string>;
  save?: string;
  fresh_token?: boolean;
  quotazione?: Setup;
}

/**
 * How the call's quotation is prepared, in this order: premium calculated; moved to a status (admin); a document
 * uploaded by the collaborator (in a status that takes documents, from 3 on) ({documento}, {collezione}); the issue contract generated (admin); the payment receipt day
 * set to yesterday (staff); issued today (staff, {numero_polizza}). Every quotation gives {uuid} (its public link) and {veicolo} (its
 * historic vehicle's row id). The extra steps (diretta, cliente, appendice) are described on their fields.
 */
interface Setup {
  calcolo?: boolean; stato?: number; documento?: boolean; contratto?: boolean; incasso?: boolean; emessa?: boolean;
  /** Confirmed as a direct quotation (status 12) by the collaborator, after the premium. */
  diretta?: boolean;
  /** Step 1 of the public form sent on the quotation's link ({uuid}), once moved to status 4. */
  cliente?: boolean;
  /** On the issued policy, the appendix's calculation draft dated tomorrow ({importo_appendice}: the amount to issue). */
  appendice?: 'inclusione' | 'esclusione';
}

const table = JSON.parse(await readFile(path.join(ROOT, 'tests', 'contract', 'spec-calls.json'), 'utf8')) as { calls: SpecCall[] };
const served = table.calls.filter((c) => c.status === 'served');
const pending = table.calls.filter((c) => c.status !== 'served');

const DEMO = {
  staff: { email: 'staff@demo.broker.it', password: 'Demo-Staff-2026' },
  collaboratore: { email: 'mario.rossi@demo.broker.it', password: 'Demo-Collab-2026' },
  collaboratore2: { email: 'laura.verdi@demo.broker.it', password: 'Demo-Collab2-2026' },
  approvatore: { email: 'approvatore@demo.broker.it', password: 'Demo-Approva-2026' },
};

let t: TestApp;
const tokens: Record<string, string> = {};
const fixtures: Record<string, unknown> = {};

const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(t.connection.db)).rows[0]!;

function fill(template: string, encode: boolean): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (!(name in fixtures)) throw new Error(`no fixture for {${name}}`);
    const value = String(fixtures[name]);
    return encode ? encodeURIComponent(value) : value;
  });
}

/** Strings that are exactly "{name}" become the fixture itself (a number stays a number); others are filled in. */
function resolve(value: unknown): unknown {
  if (typeof value === 'string') {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole) {
      if (!(whole[1]! in fixtures)) throw new Error(`no fixture for ${value}`);
      return fixtures[whole[1]!];
    }
    return fill(value, false);
  }
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  return value;
}

async function multipart(fields: Record<string, string>, text: Record<string, string> = {}) {
  const boundary = `----contratto${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(text)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    chunks.push(await readFile(path.join(ROOT, file)));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** "/api/x/{id}/y" → "/api/x/:id/y", the router's spelling. */
const pattern = (specPath: string) => specPath.split('?')[0]!.replace(/\{(\w+)\}/g, ':$1');

const nonEmptyArray = (value: unknown) => {
  expect(Array.isArray(value)).toBe(true);
  expect((value as unknown[]).length).toBeGreaterThan(0);
  return value as Array<Record<string, unknown>>;
};

const SHAPES: Record<string, (body: any) => void> = {
  session: (b) => {
    expect(typeof b.token).toBe('string');
    expect(Array.isArray(b.permissions) && Array.isArray(b.roles)).toBe(true);
  },
  message: (b) => expect(typeof b.message).toBe('string'),
  page: (b) => {
    expect(Array.isArray(b.data)).toBe(true);
    for (const key of ['current_page', 'last_page', 'per_page', 'total']) expect(typeof b[key], key).toBe('number');
  },
  record: (b) => expect(typeof b.data?.id).toBe('number'),
  model: (b) => {
    expect(typeof b.message).toBe('string');
    expect(typeof b.data?.model?.id).toBe('number');
  },
  'id-label': (b) => {
    for (const item of nonEmptyArray(b.data)) {
      expect(item.id).toBeDefined();
      expect(typeof item.label === 'string' && item.label.length > 0).toBe(true);
    }
  },
  comuni: (b) => {
    for (const item of nonEmptyArray(b.data)) expect(typeof item.nome === 'string' && typeof item.codice === 'string').toBe(true);
  },
  'data[]': (b) => nonEmptyArray(b.data),
  list: (b) => expect(Array.isArray(b.data)).toBe(true),
  counts: (b) => {
    for (const s of nonEmptyArray(b.data)) expect(s).toMatchObject({ id: expect.any(Number), code: expect.any(String), nome: expect.any(String), count: expect.any(Number) });
  },
  statuses: (b) => {
    for (const s of nonEmptyArray(b.data)) expect(s).toMatchObject({ id: expect.any(Number), code: expect.any(String), nome: expect.any(String) });
  },
  calcolo: (b) => {
    // Green and yellow are for who holds show_quotazioni_suoi_collaboratori (spec 000 §2.9): others read null.
    expect(['v', 'g', 'r', null]).toContain(b.colore);
    expect(typeof b.premio).toBe('number');
  },
  transition: (b) => {
    expect(typeof b.message).toBe('string');
    expect(typeof b.data?.model?.stato_quotazione_id).toBe('number');
  },
  'key-value': (b) => {
    expect(typeof b.data?.key).toBe('string');
    expect('value' in (b.data ?? {})).toBe(true);
  },
  columns: (b) => nonEmptyArray(b.columns),
  'api-token-refused': (b) => expect(b.message).toMatch(/Authorization/),
  upload: (b) => {
    expect(typeof b.message).toBe('string');
    expect(b.data?.media).toMatchObject({ id: expect.any(Number), collection_name: expect.any(String), mime_type: 'application/pdf', url: expect.any(String) });
  },
  media: (b) => {
    for (const m of nonEmptyArray(b.data)) expect(m).toMatchObject({ id: expect.any(Number), collection_name: expect.any(String), url: expect.any(String) });
    nonEmptyArray(b.collections);
  },
  /** The file itself: the PDF bytes as uploaded. */
  pdf: (b) => expect(String(b)).toMatch(/^%PDF-/),
  contratti: (b) => {
    expect(typeof b.message).toBe('string');
    for (const m of nonEmptyArray(b.data)) expect(m.collection_name).toBe('contratto_itas');
  },
  firma: (b) => {
    expect(typeof b.message).toBe('string');
    expect(b.data?.last_signature_request).toMatchObject({ status: expect.any(String) });
    nonEmptyArray(b.data?.history);
    expect(typeof b.data?.model?.id).toBe('number');
  },
  anteprima: (b) => {
    expect(b.result).toBe(0);
    expect(b.data).toMatchObject({ decorrenza: expect.any(String), scadenza: expect.any(String), premio: expect.any(Number) });
  },
  emissione: (b) => {
    expect(b).toMatchObject({ result: 0, message: expect.any(String), verti_policy_number: expect.any(String) });
    expect(b.data?.model?.stato_quotazione_id).toBe(9);
    expect(typeof b.data?.polizza?.id).toBe('number');
  },
  storno: (b) => {
    expect(b).toMatchObject({ result: 0, message: expect.any(String) });
    expect(b.data?.model?.stato_quotazione_id).toBe(11);
    expect(b.data?.polizza?.stornata).toBe(true);
  },
  rinnovo: (b) => {
    expect(typeof b.message).toBe('string');
    expect(b.data?.model?.stato_quotazione_id).toBe(13);
    expect(typeof b.data?.rinnovo_di?.id).toBe('number');
  },
  'quotazione-rca': (b) => {
    expect(typeof b.message).toBe('string');
    expect(typeof b.data?.id).toBe('number');
    expect(b.data?.simulation_number).toMatch(/^SIM\d+$/);
    expect(typeof b.data?.quotation_response?.simulation).toBe('object');
  },
  'richiesta-rca': (b) => {
    expect(typeof b.data?.cliente_id).toBe('number');
    expect(typeof b.data?.quotation_request?.fastFlowData).toBe('object');
  },
  'clienti-rca': (b) => {
    SHAPES.page!(b);
    for (const c of nonEmptyArray(b.data)) expect(c).toMatchObject({ cliente_id: expect.any(Number), cognome: expect.any(String), veicoli_moderni: expect.any(Array) });
  },
  /** The public link's form: the customer's view of the quotation, its phase and the form's definition. */
  pubblico: (b) => {
    expect(['form', 'documenti']).toContain(b.data?.fase);
    expect(Array.isArray(b.data?.documenti)).toBe(true);
    expect(typeof b.definizione?.schema).toBe('object');
    nonEmptyArray(b.definizione?.categorie);
  },
  'dati-cliente': (b) => {
    expect(typeof b.message).toBe('string');
    expect(typeof b.data?.model?.id).toBe('number');
    expect(b.data?.quotazione?.fase).toBe('form');
  },
  'passo-cliente': (b) => {
    expect(typeof b.message).toBe('string');
    expect(['form', 'documenti']).toContain(b.data?.model?.fase);
  },
  /** The direct screen's record: Italian fields with their English aliases and the status. */
  'diretta-record': (b) => {
    expect(typeof b.data?.id).toBe('number');
    expect(b.data).toMatchObject({ status_id: expect.any(Number), stato_quotazione: { id: expect.any(Number), cod: expect.any(String) } });
  },
  'diretta-salvata': (b) => {
    expect(typeof b.message).toBe('string');
    expect(b.data?.code).toBe(201);
    expect(b.data?.model).toMatchObject({ id: expect.any(Number), status_id: expect.any(Number), stato_quotazione: { cod: expect.any(String) } });
  },
  'diretta-emessa': (b) => {
    expect(typeof b.message).toBe('string');
    expect(b.data?.model?.status_id).toBe(7);
  },
  veicoli: (b) => {
    nonEmptyArray(b.data?.historic);
    expect(Array.isArray(b.data?.modern)).toBe(true);
  },
  veicolo: (b) => {
    expect(typeof b.message).toBe('string');
    expect(b.data?.vehicle).toMatchObject({ id: expect.any(String), targa: expect.any(String) });
  },
  /** The registry answer merged into one historic vehicle. */
  registro: (b) => {
    expect(typeof b.result).toBe('number');
    expect(b.data).toMatchObject({ targa: expect.any(String), tipologia_ania: expect.any(String) });
  },
  'inclusione-calcolo': (b) => {
    // The insurer's amount is super_admin's (spec 001 §6): null for the others.
    expect(b.data?.premio_verti === null || typeof b.data?.premio_verti === 'number').toBe(true);
    expect(b.data?.appendice).toMatchObject({ stato: 'bozza', appendice_totale: expect.any(Number) });
  },
  'esclusione-calcolo': (b) => expect(b.data?.premio).toBeGreaterThan(0),
  'anteprima-appendice': (b) => expect(b).toMatchObject({ result: 0, message: expect.any(String) }),
  appendice: (b) => {
    expect(b).toMatchObject({ result: 0, message: expect.any(String) });
    expect(typeof b.data?.appendice).toBe('object');
    expect(typeof b.data?.model?.id).toBe('number');
  },
  proposta: (b) => {
    expect(typeof b.message).toBe('string');
    expect(typeof b.data?.cliente_id).toBe('number');
  },
};

const OGGI = oggiIso();
const IERI = giornoIso(-1);
const DOMANI = giornoIso(1);
const DOCUMENTO = 'tests/fixtures/documento.pdf';
/** The contractor's tax code, which the insurer needs to issue (the quotation body's Paolo Contratto). */
const CFISC = computeCodiceFiscale({ cognome: 'Contratto', nome: 'Paolo', dataNascita: '1980-01-01', sesso: 'M', codiceCatastale: 'H501' });

/** A fresh quotation of the collaborator, prepared as the call needs it (see Setup). */
async function quotazione(setup: Setup): Promise<number> {
  const created = await t.call('POST', '/api/quotazioni', { token: tokens.collaboratore, body: fixtures.quotazione_body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.model.id as number;
  fixtures.uuid = created.body.data.model.uuid;
  fixtures.veicolo = created.body.data.model.veicoli_storici[0].id;
  if (setup.calcolo) expect((await t.call('POST', '/api/quotazioni/calcolo', { token: tokens.collaboratore, body: { id } })).status).toBe(200);
  if (setup.diretta) {
    const direct = await t.call('POST', `/api/quotazioni/confermaDiretta/${id}`, { token: tokens.collaboratore, body: {} });
    expect(direct.body.data?.model?.stato_quotazione_id, JSON.stringify(direct.body)).toBe(12);
    // On the direct screen the policyholder's tax code is entered: the issue needs it.
    const filled = await t.call('PUT', `/api/v1/goold/quotations/${id}`, { token: tokens.collaboratore, body: { tax_code: CFISC } });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
  }
  if (setup.stato) {
    const moved = await t.call('POST', '/api/quotazioni/cambioStato', { token: tokens.admin, body: { id, stato_quotazione_id: setup.stato } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  }
  if (setup.cliente) {
    const sent = await t.call('POST', '/api/cliente/quotazione', { body: resolve(fixtures.personali) });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  }
  if (setup.documento) {
    const form = await multipart({ file: DOCUMENTO }, { id: String(id), collection: 'carta_identita', model: 'Quotazione', nome_file: 'Carta identità.pdf' });
    const uploaded = await t.call('POST', '/api/quotazioni/upload', { token: tokens.collaboratore, body: form.body, headers: form.headers });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    fixtures.documento = uploaded.body.data.media.id;
    fixtures.collezione = uploaded.body.data.media.collection_name;
  }
  if (setup.contratto) {
    const generated = await t.call('POST', `/api/v1/goold/emissione/${id}/rigenera-documenti-emissione`, { token: tokens.admin, body: {} });
    expect(generated.status, JSON.stringify(generated.body)).toBe(201);
  }
  if (setup.incasso || setup.emessa) {
    const saved = await t.call('PUT', `/api/update_quotazione_per_emissione/${id}`, { token: tokens.staff, body: { data_incasso: IERI, cfisc: CFISC } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  if (setup.emessa) {
    const issued = await t.call('POST', `/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`, { token: tokens.staff, body: {} });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.result, JSON.stringify(issued.body)).toBe(0);
    fixtures.numero_polizza = issued.body.verti_policy_number;
  }
  if (setup.appendice === 'inclusione') {
    const calc = await t.call('POST', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { token: tokens.staff, body: resolve(fixtures.calcolo_inclusione) });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    fixtures.importo_appendice = calc.body.data.appendice.appendice_totale;
  }
  if (setup.appendice === 'esclusione') {
    const calc = await t.call('POST', `/api/v1/goold/quotations/exclusion/calculate/${id}`, { token: tokens.staff, body: resolve(fixtures.calcolo_esclusione) });
    expect(calc.status, JSON.stringify(calc.body)).toBe(200);
    fixtures.importo_appendice = calc.body.data.premio;
  }
  return id;
}

/** A new policy on the same customer, collaborator, companies and product as the first demo policy. */
async function polizzaFixtures() {
  const p = await one(sql<Record<string, unknown>>`
    SELECT cliente_id, collaboratore_id, compagnia_contrattuale_id, fornitore_id, mandato_prodotto_id FROM polizza WHERE polizza_auto_storica_id IS NULL ORDER BY id LIMIT 1`);
  return {
    polizza_fornitore: p.fornitore_id,
    polizza_contrattuale: p.compagnia_contrattuale_id,
    polizza_body: {
      ...p, polizza_numero: 'contratto-1', data_entrata_in_effetto: '2026-01-15', data_scadenza: '2027-01-15', frazionamento_slug: 'TRIMESTRALE',
      tacito_rinnovo: true, totale_premio_imponibile: 1000, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20,
    },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.connection.db, () => {});
  tokens.admin = await t.login(ADMIN.email, ADMIN.password);
  for (const [role, user] of Object.entries(DEMO)) tokens[role] = await t.login(user.email, user.password);
  const rossi = await one(sql<{ id: number }>`SELECT id FROM collaboratore WHERE email = ${DEMO.collaboratore.email}`);
  const modello = await one(sql<{ id: number; marca: string; modello: string; anno: number | null; anno_da: number | null }>`
    SELECT id, marca, modello, anno, anno_da FROM autostoriche ORDER BY id LIMIT 1`);
  Object.assign(fixtures, {
    staff_email: DEMO.staff.email,
    staff_password: DEMO.staff.password,
    token: tokens.collaboratore,
    collaboratore_rossi: rossi.id,
    compagnia: (await one(sql<{ id: number }>`SELECT id FROM compagnia ORDER BY id LIMIT 1`)).id,
    compagnia_contrattuale: (await one(sql<{ id: number }>`SELECT id FROM compagnia_contrattuale ORDER BY id LIMIT 1`)).id,
    polizza_rossi: (await one(sql<{ id: number }>`SELECT id FROM polizza WHERE collaboratore_id = ${rossi.id} AND polizza_auto_storica_id IS NULL ORDER BY id LIMIT 1`)).id,
    cognome_cliente_rossi: (await one(sql<{ cognome: string }>`SELECT cognome FROM cliente WHERE collaboratore_id = ${rossi.id} AND attivo ORDER BY id LIMIT 1`)).cognome,
    ...(await polizzaFixtures()),
    quotazione_body: {
      persona: 'f', sesso: 'M', nome: 'Paolo', cognome: 'Contratto', email: 'paolo.contratto@example.it', telefono: '+39 333 0000000',
      provincia_codice: 'RM', competenze: 25,
      veicoli_storici: [{ auto_storica_id: modello.id, marca: modello.marca, modello: modello.modello, anno: modello.anno ?? modello.anno_da ?? 1970, tipologia_ania: 'A', targa: 'RM654321', tipologia_targa: 'V' }],
    },
  });
  // The fast quotation (spec 002): a customer of Mario Rossi with a daily-use vehicle, the demo's quoted RCA quotations, and
  // the step-2 request built from that customer, as the screen sends it.
  const greco = await one(sql<{ id: number }>`SELECT id FROM cliente WHERE cognome = 'GRECO' AND collaboratore_id = ${rossi.id} ORDER BY id LIMIT 1`);
  const rca = (await sql<{ id: number; simulation_number: string }>`
    SELECT id, simulation_number FROM quotazioni_rca WHERE collaboratore_id = ${rossi.id} AND quotation_status = 'Quoted' ORDER BY id`.execute(t.connection.db)).rows;
  expect(rca.length).toBeGreaterThanOrEqual(3);
  const found = await t.call('GET', '/api/search/cliente?filter[cognome_nome]=greco', { token: tokens.collaboratore });
  const veicolo = found.body.data.find((c: { cliente_id: number }) => c.cliente_id === greco.id).veicoli_moderni[0].veicolo_id as string;
  const prefill = await t.call('POST', '/api/adapter/quixa/clienteVeicolo/FastQuotationFlow', { token: tokens.collaboratore, body: { cliente_id: greco.id, veicolo_id: veicolo } });
  expect(prefill.status, JSON.stringify(prefill.body)).toBe(200);
  const richiesta = prefill.body.data.quotation_request;
  richiesta.fastFlowData.effectDate = OGGI;
  Object.assign(fixtures, {
    oggi: OGGI,
    ieri: IERI,
    domani: DOMANI,
    auto_storica: modello.id,
    veicolo_storico: (fixtures.quotazione_body as { veicoli_storici: unknown[] }).veicoli_storici[0],
    // The public form's step 1 (personal data), on the link of the call's quotation.
    personali: {
      uuid: '{uuid}', persona: 'f', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cfisc: 'RSSMRA80A01H501U', email: 'mario.rossi@example.it',
      telefono: '+393331234567', attivita_lavorativa: 'LAVORATORE_AUTONOMO', dataNascita: '1980-01-01', nazione_nascita_id: '1',
      provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via Roma', residenzaCivico: '1',
      residenzaCap: '00100', residenza_comune_id: '058091', provincia_codice: 'RM',
    },
    // Appendix calculations on the issued policy, effective tomorrow: a new vehicle in, the policy's vehicle out.
    calcolo_inclusione: { date: '{domani}', historic: { auto_storica_id: '{auto_storica}', targa: 'CD456EF', tipologia_ania: 'A' }, competenze: 10 },
    calcolo_esclusione: { date: '{domani}', vehicle: { targa: 'RM654321' } },
    cliente_greco: greco.id,
    veicolo_greco: veicolo,
    richiesta_rca: richiesta,
    quotazione_rca: rca[0]!.id,
    simulazione_rca: rca[1]!.simulation_number,
    quotazione_rca_da_eliminare: rca[2]!.id,
  });
}, 180_000);
afterAll(() => t?.close());

describe('the table of spec calls', () => {
  it('lists every call once, each served or pending on a feature issue', () => {
    const keys = table.calls.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const c of table.calls) {
      expect(c.status, `${c.method} ${c.path}`).toMatch(/^(served|pending: (12|13|14|15|16|17))$/);
      expect(['000 §7', '001 §7', '002 §7']).toContain(c.spec);
      if (c.status === 'served') expect(SHAPES[c.answer ?? ''], `${c.method} ${c.path}: answer`).toBeDefined();
    }
    // The figure the note reports.
    console.log(`spec calls served: ${served.length} / ${table.calls.length}`);
  });
});

describe('served calls answer with their shape and permissions', () => {
  for (const c of served) {
    it(`${c.method} ${c.path} (spec ${c.spec})`, async () => {
      if (c.quotazione) fixtures.quotazione = await quotazione(c.quotazione);
      const url = fill(c.call ?? c.path, true);
      const body = c.multipart ? undefined : resolve(c.body);
      const send = async (token?: string) => {
        const headers: Record<string, string> = {};
        if (c.method === 'PUT') {
          // The record's version, as a client that read it first would send it.
          const current = await t.call('GET', url, { token: tokens.admin });
          headers['if-match'] = `"${String(current.body.data?.version)}"`;
        }
        if (c.multipart) {
          const form = await multipart(c.multipart, Object.fromEntries(Object.entries(c.form ?? {}).map(([k, v]) => [k, fill(v, false)])));
          return t.call(c.method, url, { token, body: form.body, headers: { ...headers, ...form.headers } });
        }
        return t.call(c.method, url, { token, body, headers });
      };
      if (c.who.as !== 'public') expect((await send()).status, 'without a token').toBe(401);
      if (c.who.refused) expect((await send(tokens[c.who.refused])).status, `as ${c.who.refused}`).toBe(c.who.refusedCode ?? 403);
      if (c.who.hidden) expect((await send(tokens[c.who.hidden])).status, `as ${c.who.hidden} (row scope)`).toBe(404);
      const token = c.who.as === 'public' ? undefined : c.fresh_token ? await t.login(DEMO[c.who.as as keyof typeof DEMO].email, DEMO[c.who.as as keyof typeof DEMO].password) : tokens[c.who.as];
      const res = await send(token);
      expect(res.status, JSON.stringify(res.body)).toBe(c.code ?? 200);
      SHAPES[c.answer!]!(res.body);
      if (c.save) fixtures[c.save] = res.body.data.model.id;
    });
  }
});

describe('pending calls are not served yet (mark them served when their issue lands)', () => {
  // Once every feature issue has landed nothing is pending: the table says so.
  if (!pending.length) it('none is pending: every spec call is served', () => expect(served).toHaveLength(table.calls.length));
  for (const c of pending) {
    it(`${c.method} ${c.path} (${c.status})`, async () => {
      expect(t.app.hasRoute({ method: c.method as 'GET', url: pattern(c.path) })).toBe(false);
      const res = await t.call(c.method, c.path.replace(/\{\w+\}/g, '1'), { token: tokens.admin, body: c.method === 'GET' || c.method === 'DELETE' ? undefined : {} });
      expect(res.status).toBe(404);
    });
  }
});

describe('list sorting: sortDesc beside the -field form', () => {
  const ids = (body: { data: Array<{ id: number }> }) => body.data.map((r) => r.id);
  it('orders quotations and customers by sort plus sortDesc', async () => {
    const desc = await t.call('GET', '/api/quotazioni?sort=id&sortDesc=true&per_page=100', { token: tokens.staff });
    expect(desc.status).toBe(200);
    const all = ids(desc.body);
    expect(all.length).toBeGreaterThan(2);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    const asc = await t.call('GET', '/api/quotazioni?sort=id&sortDesc=false&per_page=100', { token: tokens.staff });
    expect(ids(asc.body)).toEqual([...all].reverse());
    expect(ids((await t.call('GET', '/api/quotazioni?sort=-id&per_page=100', { token: tokens.staff })).body)).toEqual(all);
    // Vuetify's array form, one flag per key.
    const arrays = await t.call('GET', '/api/quotazioni?sort=id&sortDesc[]=true&per_page=100', { token: tokens.staff });
    expect(ids(arrays.body)).toEqual(all);
    const clienti = await t.call('GET', '/api/cliente?sort=cognome&sortDesc=true&per_page=100', { token: tokens.staff });
    const cognomi = clienti.body.data.map((r: { cognome: string }) => r.cognome);
    expect(cognomi).toEqual([...cognomi].sort((a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)));
  });

  it('refuses a sortDesc that is not true or false at that field', async () => {
    const bad = await t.call('GET', '/api/cliente?sort=id&sortDesc=forse', { token: tokens.staff });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.sortDesc).toEqual(['Deve essere true o false']);
  });
});

describe('autocompletes', () => {
  it('lists only the customers in the user\'s row scope, active ones, from 3 characters', async () => {
    const rossi = fixtures.collaboratore_rossi as number;
    const mine = new Set((await sql<{ id: number }>`SELECT id FROM cliente WHERE collaboratore_id = ${rossi} AND attivo`.execute(t.connection.db)).rows.map((r) => r.id));
    const others = (await sql<{ id: number; cognome: string }>`SELECT id, cognome FROM cliente WHERE collaboratore_id IS DISTINCT FROM ${rossi} AND attivo ORDER BY id`.execute(t.connection.db)).rows;
    const seen = await t.call('GET', '/api/autocomplete/cliente', { token: tokens.collaboratore });
    expect(seen.body.data.length).toBeGreaterThan(0);
    for (const item of seen.body.data) expect(mine.has(item.id)).toBe(true);
    const other = others[0]!;
    const foreign = await t.call('GET', `/api/autocomplete/cliente?search=${encodeURIComponent(other.cognome)}`, { token: tokens.collaboratore });
    expect(foreign.body.data.map((i: { id: number }) => i.id)).not.toContain(other.id);
    const staff = await t.call('GET', `/api/autocomplete/cliente?search=${encodeURIComponent(other.cognome)}`, { token: tokens.staff });
    expect(staff.body.data.map((i: { id: number }) => i.id)).toContain(other.id);
    const inactive = await one(sql<{ id: number; cognome: string }>`SELECT id, cognome FROM cliente WHERE NOT attivo ORDER BY id LIMIT 1`);
    const withInactive = await t.call('GET', `/api/autocomplete/cliente?search=${encodeURIComponent(inactive.cognome)}`, { token: tokens.staff });
    expect(withInactive.body.data.map((i: { id: number }) => i.id)).not.toContain(inactive.id);
  });

  it('answers an empty list to a search of 1 or 2 characters on every searchable picker', async () => {
    for (const url of ['/api/autocomplete/cliente', '/api/autocomplete/compagnia_contrattuale', '/api/autocomplete/fornitore', '/api/autocomplete/collaboratore',
      '/api/autocomplete/collaboratori', '/api/autocomplete/comune', '/api/autocomplete/nazione', '/api/autocomplete/province', '/api/autocomplete/punto_vendita_superiore']) {
      const res = await t.call('GET', `${url}?search=ro`, { token: tokens.admin });
      expect(res.status, url).toBe(200);
      expect(res.body.data, url).toEqual([]);
    }
    const three = await t.call('GET', '/api/autocomplete/compagnia_contrattuale?search=ass', { token: tokens.staff });
    for (const item of three.body.data) expect(item.label.toLowerCase()).toContain('ass');
  });

  it('refuses the contractual companies to a collaborator, as their list', async () => {
    expect((await t.call('GET', '/api/autocomplete/compagnia_contrattuale', { token: tokens.collaboratore })).status).toBe(403);
  });

  it('refuses a token in the URL even beside a valid Authorization header', async () => {
    for (const url of [`/api/autocomplete/cliente?api_token=${tokens.staff}`, `/api/cliente?api_token=${tokens.staff}`]) {
      const res = await t.call('GET', url, { token: tokens.staff });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Il token nell'indirizzo (api_token) non è accettato: invia il token nell'intestazione Authorization (Authorization: Bearer <token>).");
    }
  });
});

describe('the spec\'s second spellings share one implementation', () => {
  it('directConfirm and confermaDiretta move a draft the same way, with the same history', async () => {
    const a = await quotazione({ calcolo: true });
    const b = await quotazione({ calcolo: true });
    const viaApp = await t.call('POST', `/api/quotazioni/confermaDiretta/${a}`, { token: tokens.collaboratore, body: {} });
    const viaSpec = await t.call('POST', `/api/v1/goold/quotations/directConfirm/${b}`, { token: tokens.collaboratore, body: {} });
    expect(viaApp.status).toBe(200);
    expect(viaSpec.status).toBe(200);
    expect(viaSpec.body.message).toBe(viaApp.body.message);
    expect(viaSpec.body.data.model.stato_quotazione_id).toBe(12);
    expect(viaApp.body.data.model.stato_quotazione_id).toBe(12);
    const history = async (id: number) => (await t.call('GET', `/api/quotazioni/${id}/workflow`, { token: tokens.collaboratore })).body.data.storico
      .map((h: Record<string, unknown>) => [h.event, h.from_status, h.to_status]);
    expect(await history(b)).toEqual(await history(a));
    expect((await history(b)).at(-1)).toEqual(['CONFERMA_DIRETTA', 1, 12]);
    // Refused the same way once done.
    expect((await t.call('POST', `/api/v1/goold/quotations/directConfirm/${b}`, { token: tokens.collaboratore, body: {} })).status).toBe(409);
  });

  it('the status list is the counts list without counts', async () => {
    const states = (await t.call('GET', '/api/v1/goold/states/quotation', { token: tokens.collaboratore })).body.data;
    const counts = (await t.call('GET', '/api/stati_quotazione', { token: tokens.collaboratore })).body.data;
    expect(states).toEqual(counts.map(({ id, code, nome }: Record<string, unknown>) => ({ id, code, nome })));
  });

  it('remote-storage and preferences are one per-user store', async () => {
    const saved = await t.call('PUT', '/api/preferences/colonne_clienti', { token: tokens.collaboratore, body: { value: ['id', 'cognome'] } });
    expect(saved.status).toBe(200);
    expect((await t.call('GET', '/api/remote-storage/colonne_clienti', { token: tokens.collaboratore })).body.data).toEqual({ key: 'colonne_clienti', value: ['id', 'cognome'] });
    await t.call('POST', '/api/remote-storage/colonne_clienti', { token: tokens.collaboratore, body: { key: 'colonne_clienti', value: ['nome'] } });
    expect((await t.call('GET', '/api/preferences/colonne_clienti', { token: tokens.collaboratore })).body.data.value).toEqual(['nome']);
    expect((await t.call('GET', '/api/remote-storage/colonne_clienti', { token: tokens.collaboratore2 })).body.data.value).toBeNull();
    const mismatch = await t.call('POST', '/api/remote-storage/colonne_clienti', { token: tokens.collaboratore, body: { key: 'altra', value: 1 } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.key).toBeDefined();
    const missing = await t.call('POST', '/api/remote-storage/colonne_clienti', { token: tokens.collaboratore, body: { key: 'colonne_clienti' } });
    expect(missing.status).toBe(422);
    expect((await t.call('GET', '/api/preferences/colonne_clienti', { token: tokens.collaboratore })).body.data.value).toEqual(['nome']);
  });
});

// Reference data: loaded tables, autocomplete calls, codice fiscale place check and mismatch warning, collaborator hierarchy.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, ROOT, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { loadReferenceData, REFERENCE_SETTING } from '../../src/server/domains/riferimenti/loader.ts';
import { loadAll, prepareDatabase } from '../../src/server/bootstrap.ts';
import { up as nazioneIds } from '../../src/server/db/migrations/0005_nazione_nascita_id.ts';
import { codiceFiscaleCheckChar, computeCodiceFiscale } from '../../src/shared/validators/codiceFiscale.ts';
import { domains } from '../../src/server/domains/index.ts';

let t: TestApp;
let admin: string;

const MISMATCH = 'Il codice fiscale non corrisponde ai dati anagrafici inseriti.';
const CYCLE = 'Il punto vendita superiore non può essere il collaboratore stesso o un suo sottoposto.';
// Mario Rossi, born in San Giuliano Terme (PI, ISTAT 050031, cadastral A562) on 10/12/1985.
const MARIO = { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cf: 'RSSMRA85T10A562S', dataNascita: '1985-12-10', comune_nascita_id: '050031' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

async function count(table: string, where = sql`true`): Promise<number> {
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${where}`.execute(t.connection.db);
  return rows.rows[0]!.n;
}

async function storedVersion(): Promise<{ hash: string; loaded_at: string }> {
  const rows = await sql<{ value: { hash: string; loaded_at: string } }>`SELECT value FROM app_setting WHERE key = ${REFERENCE_SETTING}`.execute(t.connection.db);
  return rows.rows[0]!.value;
}

describe('reference tables', () => {
  it('hold the real ISTAT municipalities, provinces and Belfiore countries', async () => {
    expect(await count('ref_comune')).toBe(7904);
    expect(await count('ref_provincia')).toBe(107);
    expect(await count('ref_nazione')).toBe(222);
    expect(await count('ref_nazione', sql`data_fine IS NULL`)).toBe(216);
    // Belfiore: every cadastral code, suppressed municipalities (A002 Abbadia Sopra Adda, 1928) and countries included.
    expect(await count('ref_luogo')).toBe(10063);
    expect(await count('ref_luogo', sql`codice_catastale = 'A002' AND data_fine = '1928-03-07'`)).toBe(1);
    // Municipalities created after 2020 have their cadastral code but no ISTAT row yet (M432 Misiliscemi, 2021).
    expect(await count('ref_luogo', sql`codice_catastale = 'M432' AND sigla_provincia = 'TP'`)).toBe(1);
    expect(await count('ref_comune', sql`codice_catastale = 'M432'`)).toBe(0);
    const rows = await sql<Record<string, unknown>>`
      SELECT codice, nome, sigla_provincia, provincia, regione, codice_catastale, cap FROM ref_comune WHERE codice IN ('058091', '015146') ORDER BY codice`.execute(t.connection.db);
    expect(rows.rows[0]).toMatchObject({ codice: '015146', nome: 'Milano', sigla_provincia: 'MI', provincia: 'Milano', regione: 'Lombardia', codice_catastale: 'F205' });
    expect(rows.rows[0]!.cap).toHaveLength(42);
    expect(rows.rows[1]).toMatchObject({ codice: '058091', nome: 'Roma', sigla_provincia: 'RM', provincia: 'Roma', regione: 'Lazio', codice_catastale: 'H501' });
    expect(rows.rows[1]!.cap).toContain('00118');
    expect(rows.rows[1]!.cap).toHaveLength(82);
  });

  it('hold the closed lists of schemas/_reference', async () => {
    expect(await count('ref_settore')).toBe(3);
    expect(await count('ref_ramo')).toBe(24);
    expect(await count('ref_frazionamento')).toBe(7);
    expect(await count('ref_tipologia_rimessa')).toBe(6);
  });

  it('are not reloaded by a second start while the sources are unchanged, and reloaded when they change', async () => {
    const first = await storedVersion();
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    const again = await loadReferenceData(t.connection.db);
    expect(again).toMatchObject({ loaded: false, hash: first.hash });
    const { definitions, roles } = await loadAll(path.join(ROOT, 'schemas'));
    await prepareDatabase(t.connection.db, definitions, roles, domains);
    expect(await storedVersion()).toEqual(first);

    // A different stored hash stands for changed sources: one reload, same rows, no duplicates.
    await sql`UPDATE app_setting SET value = jsonb_set(value, '{hash}', '"stale"') WHERE key = ${REFERENCE_SETTING}`.execute(t.connection.db);
    await sql`UPDATE ref_comune SET nome = 'Roma Vecchia' WHERE codice = '058091'`.execute(t.connection.db);
    const reload = await loadReferenceData(t.connection.db);
    expect(reload.loaded).toBe(true);
    expect(reload.counts).toMatchObject({ ref_luogo: 10063, ref_comune: 7904, ref_provincia: 107, ref_nazione: 222 });
    expect(await count('ref_comune')).toBe(7904);
    expect((await t.call('GET', '/api/autocomplete/comune/058091', { token: admin })).body.data.nome).toBe('Roma');
    expect((await storedVersion()).hash).toBe(first.hash);
  });
});

describe('autocomplete', () => {
  it('needs a session', async () => {
    expect((await t.call('GET', '/api/autocomplete/comune?search=roma')).status).toBe(401);
    expect((await t.call('GET', '/api/autocomplete/settore')).status).toBe(401);
  });

  it('searches municipalities from the third character, name prefix first, at most 20', async () => {
    for (const search of ['', 'r', 'ro', ' ro ']) {
      const res = await t.call('GET', `/api/autocomplete/comune?search=${encodeURIComponent(search)}`, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [] });
    }
    const res = await t.call('GET', '/api/autocomplete/comune?search=rom', { token: admin });
    expect(res.status).toBe(200);
    const data = res.body.data as Array<{ nome: string }>;
    expect(data).toHaveLength(20);
    expect(data[0]).toMatchObject({ codice: '058091', nome: 'Roma', provincia: 'RM', codiceCatastale: 'H501' });
    expect((data[0] as unknown as { cap: string[] }).cap).toContain('00118');
    const prefix = data.map((c) => c.nome.toLowerCase().startsWith('rom'));
    // Every prefix match comes before the first name that only contains the text.
    expect(prefix.indexOf(false)).toBe(14);
    expect(prefix.slice(14).every((p) => !p)).toBe(true);
    expect(data.every((c) => c.nome.toLowerCase().includes('rom'))).toBe(true);
  });

  it('ignores accents and case in the search', async () => {
    const res = await t.call('GET', '/api/autocomplete/comune?search=CITTA%20DI', { token: admin });
    expect(res.body.data.map((c: { nome: string }) => c.nome)).toEqual(['Città di Castello']);
    const sgt = await t.call('GET', '/api/autocomplete/comune?search=san%20giuliano%20terme', { token: admin });
    expect(sgt.body.data).toEqual([expect.objectContaining({ codice: '050031', nome: 'San Giuliano Terme', provincia: 'PI', codiceCatastale: 'A562', cap: ['56017'] })]);
  });

  it('finds one municipality by its code, zero-padded or not', async () => {
    const padded = await t.call('GET', '/api/autocomplete/comune/015146', { token: admin });
    expect(padded.status).toBe(200);
    expect(padded.body.data).toMatchObject({ codice: '015146', nome: 'Milano', provincia: 'MI', codiceCatastale: 'F205' });
    const number = await t.call('GET', '/api/autocomplete/comune/58091', { token: admin });
    expect(number.body.data).toMatchObject({ codice: '058091', nome: 'Roma' });
    expect((await t.call('GET', '/api/autocomplete/comune/999999', { token: admin })).status).toBe(404);
    expect((await t.call('GET', '/api/autocomplete/comune/roma', { token: admin })).status).toBe(404);
  });

  it('lists countries in force, provinces, branches, sectors, instalments and remittance types', async () => {
    const nazioni = await t.call('GET', '/api/autocomplete/nazione', { token: admin });
    // The 216 countries in force by cadastral code, plus Italy as '1' (first) and '2', abroad without a country.
    expect(nazioni.body.data).toHaveLength(218);
    expect(nazioni.body.data[0]).toEqual({ id: '1', label: 'Italia', iso3166: 'IT' });
    expect(nazioni.body.data).toContainEqual({ id: 'Z112', label: 'Germania', iso3166: 'DE' });
    expect(nazioni.body.data).toContainEqual({ id: '2', label: 'Estero (paese non indicato)', iso3166: null });
    const ital = await t.call('GET', '/api/autocomplete/nazione?search=ital', { token: admin });
    expect(ital.body.data).toEqual([{ id: '1', label: 'Italia', iso3166: 'IT' }]);
    // Belfiore 1.2.1 ships this name mis-encoded ("CittÃ "); the loader repairs it.
    expect(nazioni.body.data).toContainEqual(expect.objectContaining({ id: 'Z106', label: 'Stato della Città del Vaticano' }));
    expect(nazioni.body.data.some((n: { id: string }) => n.id === 'Z135')).toBe(false); // Unione Sovietica, ceased
    const germ = await t.call('GET', '/api/autocomplete/nazione?search=germ', { token: admin });
    expect(germ.body.data).toEqual([{ id: 'Z112', label: 'Germania', iso3166: 'DE' }]);

    const province = await t.call('GET', '/api/autocomplete/province', { token: admin });
    expect(province.body.data).toHaveLength(107);
    expect(province.body.data).toContainEqual({ id: 'RM', label: 'Roma', regione: 'Lazio' });
    const forli = await t.call('GET', '/api/autocomplete/province?search=forli', { token: admin });
    expect(forli.body.data).toEqual([{ id: 'FC', label: 'Forlì-Cesena', regione: 'Emilia-Romagna' }]);

    const rami = await t.call('GET', '/api/autocomplete/ramo', { token: admin });
    expect(rami.body.data).toHaveLength(24);
    expect(rami.body.data[0]).toMatchObject({ id: 1, codice: '1', label: '1 - Infortuni', settore_id: 1 });
    expect(rami.body.data.find((r: { id: number }) => r.id === 10)).toMatchObject({ settore_id: 2, label: '10 - R.C. autoveicoli terrestri (R.C. Auto)' });
    expect(rami.body.data.find((r: { id: number }) => r.id === 18)).toMatchObject({ nome: 'Assistenza', settore_id: 1 });
    expect((await t.call('GET', '/api/rami', { token: admin })).body).toEqual(rami.body);
    const vita = await t.call('GET', '/api/autocomplete/ramo?settore_id=3', { token: admin });
    expect(vita.body.data.map((r: { codice: string }) => r.codice)).toEqual(['I', 'II', 'III', 'IV', 'V', 'VI']);

    const settori = await t.call('GET', '/api/autocomplete/settore', { token: admin });
    expect(settori.body.data.map((s: { id: number; label: string }) => [s.id, s.label])).toEqual([[1, 'DANNI'], [2, 'RCA'], [3, 'VITA']]);

    const fraz = await t.call('GET', '/api/autocomplete/frazionamento', { token: admin });
    expect(fraz.body.data.map((f: { id: string }) => f.id)).toEqual(['ANNUALE', 'SEMESTRALE', 'QUADRIMESTRALE', 'TRIMESTRALE', 'BIMESTRALE', 'MENSILE', 'UNICO']);
    expect(fraz.body.data[5]).toEqual({ id: 'MENSILE', slug: 'MENSILE', label: 'Mensile', rate: 12, mesi: 1 });

    const rimesse = await t.call('GET', '/api/autocomplete/tipologia_rimessa', { token: admin });
    expect(rimesse.body.data.map((r: { id: string }) => r.id)).toEqual(['FINE_MESE', 'ENTRO_5', 'ENTRO_10', 'EMISSIONE', 'DECADALE', 'QUINDICINALE']);
    expect(rimesse.body.data[0]).toEqual({ id: 'FINE_MESE', label: 'Fine mese' });
  });

  it('is open to any logged-in user', async () => {
    const collaboratore = await userWithRoles(t, admin, { email: 'solo.collab@test.it', roles: ['collaboratore'] });
    expect((await t.call('GET', '/api/autocomplete/comune?search=milano', { token: collaboratore })).body.data[0].nome).toBe('Milano');
    expect((await t.call('GET', '/api/autocomplete/frazionamento', { token: collaboratore })).status).toBe(200);
  });
});

/** A structurally valid code (right check character) for the given place code. */
function codeWithPlace(place: string): string {
  return computeCodiceFiscale({ cognome: 'Rossi', nome: 'Mario', dataNascita: '1985-12-10', sesso: 'M', codiceCatastale: place });
}

describe('codice fiscale place check', () => {
  it('refuses a well-formed code whose place code is no known municipality or country', async () => {
    for (const place of ['Z999', 'A000']) {
      const cf = codeWithPlace(place);
      expect(cf).toMatch(/^RSSMRA85T10[A-Z]\d{3}[A-Z]$/);
      const res = await t.call('POST', '/api/cliente', { token: admin, body: { ...MARIO, comune_nascita_id: undefined, cf } });
      expect(res.status, place).toBe(422);
      expect(res.body.errors.cf).toEqual(['Codice fiscale non valido']);
    }
    expect(await count('cliente', sql`cf LIKE 'RSSMRA85T10Z999%' OR cf LIKE 'RSSMRA85T10A000%'`)).toBe(0);
  });

  it('accepts suppressed municipalities, foreign countries and omocodic place codes', async () => {
    // A002 Abbadia Sopra Adda, suppressed in 1928; Z112 Germania.
    for (const place of ['A002', 'Z112']) {
      const res = await t.call('POST', '/api/cliente', { token: admin, body: { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cf: codeWithPlace(place) } });
      expect(res.status, place).toBe(201);
    }
    // Omocodia: the digits of A562 written as letters (5 -> R, 6 -> S, 2 -> N).
    const first15 = 'RSSMRA85T10ARSN';
    const omocodic = first15 + codiceFiscaleCheckChar(first15);
    const res = await t.call('POST', '/api/cliente', { token: admin, body: { ...MARIO, cf: omocodic } });
    expect(res.status).toBe(201);
    expect(res.body.warnings).toBeUndefined();
  });
});

describe('codice fiscale mismatch warning', () => {
  // One customer per codice fiscale: each case starts without Mario on file.
  const senzaMario = () => sql`DELETE FROM cliente WHERE cf = ${MARIO.cf}`.execute(t.connection.db);
  beforeEach(senzaMario);
  it('stores the customer and warns when the code disagrees with the personal data', async () => {
    const ok = await t.call('POST', '/api/cliente', { token: admin, body: MARIO });
    expect(ok.status).toBe(201);
    expect(ok.body.warnings).toBeUndefined();

    await senzaMario();
    const wrongDay = await t.call('POST', '/api/cliente', { token: admin, body: { ...MARIO, dataNascita: '1985-12-11' } });
    expect(wrongDay.status).toBe(201);
    expect(wrongDay.body.warnings).toEqual({ cf: [MISMATCH] });
    const id = wrongDay.body.data.model.id;
    expect((await t.call('GET', `/api/cliente/${id}`, { token: admin })).body.data.dataNascita).toBe('1985-12-11');

    await sql`DELETE FROM cliente WHERE cf = ${MARIO.cf} AND id <> ${id}`.execute(t.connection.db);
    await sql`UPDATE cliente SET cf = NULL WHERE id = ${id}`.execute(t.connection.db);
    const wrongPlace = await t.call('POST', '/api/cliente', { token: admin, body: { ...MARIO, comune_nascita_id: '058091' } });
    expect(wrongPlace.body.warnings).toEqual({ cf: [MISMATCH] });
    await sql`DELETE FROM cliente WHERE id = ${wrongPlace.body.data.model.id}`.execute(t.connection.db);
    await sql`UPDATE cliente SET cf = ${MARIO.cf} WHERE id = ${id}`.execute(t.connection.db);

    const fixed = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { dataNascita: '1985-12-10', version: 1 } });
    expect(fixed.status).toBe(200);
    expect(fixed.body.warnings).toBeUndefined();
    const broken = await t.call('PUT', `/api/cliente/${id}`, { token: admin, body: { nome: 'Luigi', version: 2 } });
    expect(broken.status).toBe(200);
    expect(broken.body.warnings).toEqual({ cf: [MISMATCH] });
  });

  it('says nothing while data are missing, or for a company', async () => {
    // Giovanni would not match the code: silence here proves the check waits for complete data.
    for (const missing of ['dataNascita', 'comune_nascita_id'] as const) {
      const body: Record<string, unknown> = { ...MARIO, nome: 'Giovanni' };
      delete body[missing];
      await senzaMario();
      const res = await t.call('POST', '/api/cliente', { token: admin, body });
      expect(res.status, missing).toBe(201);
      expect(res.body.warnings, missing).toBeUndefined();
    }
    const company = await t.call('POST', '/api/cliente', { token: admin, body: { ...MARIO, sesso: 'A', nome: 'Rossi Srl', piva: '00905811006', cf: '00905811006' } });
    expect(company.status).toBe(201);
    expect(company.body.warnings).toBeUndefined();
  });

  it('uses the birth country when no municipality is given', async () => {
    const cf = computeCodiceFiscale({ cognome: 'Müller', nome: 'Anna', dataNascita: '1990-04-02', sesso: 'F', codiceCatastale: 'Z112' });
    const body = { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Müller', dataNascita: '1990-04-02', nazioneNascita: 'Z112', cf };
    const ok = await t.call('POST', '/api/cliente', { token: admin, body });
    expect(ok.status).toBe(201);
    expect(ok.body.warnings).toBeUndefined();
    const senzaAnna = () => sql`DELETE FROM cliente WHERE cf = ${cf}`.execute(t.connection.db);
    await senzaAnna();
    const wrong = await t.call('POST', '/api/cliente', { token: admin, body: { ...body, nazioneNascita: 'Z110' } });
    expect(wrong.status).toBe(201);
    expect(wrong.body.warnings).toEqual({ cf: [MISMATCH] });
    // Italy and "abroad" carry no country code: nothing to compare without the municipality.
    for (const nazioneNascita of ['1', '2']) {
      await senzaAnna();
      const unnamed = await t.call('POST', '/api/cliente', { token: admin, body: { ...body, nazioneNascita } });
      expect(unnamed.status).toBe(201);
      expect(unnamed.body.warnings).toBeUndefined();
    }
  });

  it('takes the birth country by the id the autocomplete answers, and refuses a name or an unknown code at the field', async () => {
    const body = { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', dataNascita: '1990-04-02' };
    for (const nazioneNascita of ['Germania', 'ITALIA', 'Z999', '40']) {
      const res = await t.call('POST', '/api/cliente', { token: admin, body: { ...body, nazioneNascita } });
      expect(res.status, nazioneNascita).toBe(422);
      expect(res.body.errors).toEqual({ nazioneNascita: ["Nazione non valida: sceglila dall'elenco"] });
    }
    const ok = await t.call('POST', '/api/cliente', { token: admin, body: { ...body, nazioneNascita: 'Z133' } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.model.nazioneNascita).toBe('Z133');
  });

  it('migration 0005 turns the customers\' old country names into ids, and keeps a name that matches no country', async () => {
    const body = { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Vecchia', dataNascita: '1990-04-02' };
    const names = ['Italia', ' estero ', 'GERMANIA', 'Svizzera', 'Atlantide'];
    const ids: number[] = [];
    for (const _ of names) ids.push((await t.call('POST', '/api/cliente', { token: admin, body })).body.data.model.id);
    // As the data stood before the migration: names, written past the API's validation.
    for (const [i, name] of names.entries()) await sql`UPDATE cliente SET "nazioneNascita" = ${name} WHERE id = ${ids[i]}`.execute(t.connection.db);
    await nazioneIds(t.connection.db as never);
    const rows = await sql<{ id: number; n: string }>`SELECT id, "nazioneNascita" AS n FROM cliente WHERE id = ANY(${ids}) ORDER BY id`.execute(t.connection.db);
    expect(rows.rows.map((r) => r.n)).toEqual(['1', '2', 'Z112', 'Z133', 'Atlantide']);
    // The intermediation manager of a company collaborator holds the country inside its object.
    const collab = await t.call('POST', '/api/collaboratore', { token: admin, body: { tipo: 'AGENTE', sesso: 'A', nome: 'Agenzia Vecchia Srl', piva: '01234567897', responsabileIntermediazione: { nome: 'Anna', nazioneNascita: 'Z110' } } });
    expect(collab.status, JSON.stringify(collab.body)).toBe(201);
    const collabId = collab.body.data.model.id as number;
    await sql`UPDATE collaboratore SET "responsabileIntermediazione" = jsonb_set("responsabileIntermediazione", '{nazioneNascita}', '"Francia"') WHERE id = ${collabId}`.execute(t.connection.db);
    await nazioneIds(t.connection.db as never);
    const manager = await sql<{ r: { nome: string; nazioneNascita: string } }>`SELECT "responsabileIntermediazione" AS r FROM collaboratore WHERE id = ${collabId}`.execute(t.connection.db);
    expect(manager.rows[0]!.r).toMatchObject({ nome: 'Anna', nazioneNascita: 'Z110' });
  });

  it('warns on collaborators too', async () => {
    const body = { tipo: 'AGENTE', sesso: 'M', nome: 'Mario', cognome: 'Rossi', cf: MARIO.cf, dataNascita: '1985-12-10', comune_nascita_id: '050031' };
    const ok = await t.call('POST', '/api/collaboratore', { token: admin, body });
    expect(ok.status).toBe(201);
    expect(ok.body.warnings).toBeUndefined();
    const wrong = await t.call('POST', '/api/collaboratore', { token: admin, body: { ...body, sesso: 'F' } });
    expect(wrong.status).toBe(201);
    expect(wrong.body.warnings).toEqual({ cf: [MISMATCH] });
  });
});

describe('collaborator hierarchy and pickers', () => {
  const ids: Record<string, number> = {};
  const person = (cognome: string, extra: Record<string, unknown> = {}) => ({ tipo: 'COLLABORATORE', sesso: 'M', nome: 'Paolo', cognome, ...extra });

  beforeAll(async () => {
    const create = async (key: string, body: Record<string, unknown>) => {
      const res = await t.call('POST', '/api/collaboratore', { token: admin, body });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      ids[key] = res.body.data.model.id;
    };
    await create('rete', { tipo: 'BROKER', sesso: 'A', nome: 'Rete Alfa Srl', piva: '01234567897' });
    await create('capo', person('Capoarea', { punto_vendita_superiore_id: ids.rete }));
    await create('sotto', person('Sottoposto', { punto_vendita_superiore_id: ids.capo }));
    await create('ultimo', person('Ultimo', { punto_vendita_superiore_id: ids.sotto }));
    await create('altro', person('Indipendente'));
    await create('spento', person('Inattivo', { active: false }));
  });

  it('refuses a superior that is the collaborator itself or one of its sub-network, and changes nothing', async () => {
    for (const superiore of [ids.rete, ids.capo, ids.sotto, ids.ultimo]) {
      const res = await t.call('PUT', `/api/collaboratore/${ids.rete}`, { token: admin, body: { punto_vendita_superiore_id: superiore, version: 1 } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ punto_vendita_superiore_id: [CYCLE] });
    }
    const rete = await t.call('GET', `/api/collaboratore/${ids.rete}`, { token: admin });
    expect(rete.body.data).toMatchObject({ punto_vendita_superiore_id: null, version: 1 });

    // Moving a collaborator up its own chain, or under an unrelated one, is fine.
    const up = await t.call('PUT', `/api/collaboratore/${ids.ultimo}`, { token: admin, body: { punto_vendita_superiore_id: ids.capo, version: 1 } });
    expect(up.status).toBe(200);
    const across = await t.call('PUT', `/api/collaboratore/${ids.altro}`, { token: admin, body: { punto_vendita_superiore_id: ids.ultimo, version: 1 } });
    expect(across.status).toBe(200);
    // Now altro sits below ultimo: ultimo may not go under altro.
    const cycle = await t.call('PUT', `/api/collaboratore/${ids.ultimo}`, { token: admin, body: { punto_vendita_superiore_id: ids.altro, version: 2 } });
    expect(cycle.status).toBe(422);
    // Restore the original shape for the next tests.
    expect((await t.call('PUT', `/api/collaboratore/${ids.altro}`, { token: admin, body: { punto_vendita_superiore_id: null, version: 2 } })).status).toBe(200);
    expect((await t.call('PUT', `/api/collaboratore/${ids.ultimo}`, { token: admin, body: { punto_vendita_superiore_id: ids.sotto, version: 2 } })).status).toBe(200);
  });

  it('offers as superior sales point only active collaborators outside the sub-network', async () => {
    const labels = async (id: number) => {
      const res = await t.call('GET', `/api/autocomplete/punto_vendita_superiore/${id}`, { token: admin });
      expect(res.status).toBe(200);
      return res.body.data.map((c: { label: string }) => c.label) as string[];
    };
    const forCapo = await labels(ids.capo);
    expect(forCapo).toContain('RETE ALFA SRL');
    expect(forCapo).toContain('INDIPENDENTE PAOLO');
    for (const excluded of ['CAPOAREA PAOLO', 'SOTTOPOSTO PAOLO', 'ULTIMO PAOLO', 'INATTIVO PAOLO']) expect(forCapo).not.toContain(excluded);
    const forSotto = await labels(ids.sotto);
    expect(forSotto).toEqual(expect.arrayContaining(['RETE ALFA SRL', 'CAPOAREA PAOLO', 'INDIPENDENTE PAOLO']));
    expect(forSotto).not.toContain('ULTIMO PAOLO');
    expect(forSotto).not.toContain('SOTTOPOSTO PAOLO');
    const first = await t.call('GET', `/api/autocomplete/punto_vendita_superiore/${ids.capo}`, { token: admin });
    expect(first.body.data).toContainEqual({ id: ids.rete, label: 'RETE ALFA SRL' });
    // A collaborator not saved yet may take any active one.
    const fresh = await t.call('GET', '/api/autocomplete/punto_vendita_superiore', { token: admin });
    expect(fresh.body.data.map((c: { label: string }) => c.label)).toEqual(expect.arrayContaining(['CAPOAREA PAOLO', 'ULTIMO PAOLO']));
    expect((await t.call('GET', '/api/autocomplete/punto_vendita_superiore/999999', { token: admin })).status).toBe(404);
  });

  it('lists active collaborators by search, at most 20, and a collaborator sees only itself', async () => {
    const found = await t.call('GET', '/api/autocomplete/collaboratori?search=paolo%20capo', { token: admin });
    expect(found.body.data).toEqual([{ id: ids.capo, label: 'CAPOAREA PAOLO' }]);
    const company = await t.call('GET', '/api/autocomplete/collaboratore?search=alfa', { token: admin });
    expect(company.body.data).toEqual([{ id: ids.rete, label: 'RETE ALFA SRL' }]);
    const inactive = await t.call('GET', '/api/autocomplete/collaboratore?search=inattivo', { token: admin });
    expect(inactive.body.data).toEqual([]);
    for (let i = 0; i < 21; i++) {
      expect((await t.call('POST', '/api/collaboratore', { token: admin, body: person(`Molti${String(i).padStart(2, '0')}`) })).status).toBe(201);
    }
    const many = await t.call('GET', '/api/autocomplete/collaboratori?search=molti', { token: admin });
    expect(many.body.data).toHaveLength(20);
    expect(many.body.data[0].label).toBe('MOLTI00 PAOLO');

    const own = await userWithRoles(t, admin, { email: 'capo.area@test.it', roles: ['collaboratore'], collaboratore_id: ids.capo });
    const mine = await t.call('GET', '/api/autocomplete/collaboratore', { token: own });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([{ id: ids.capo, label: 'CAPOAREA PAOLO' }]);
    expect((await t.call('GET', `/api/autocomplete/punto_vendita_superiore/${ids.capo}`, { token: own })).status).toBe(403);
    const staff = await userWithRoles(t, admin, { email: 'staff.ref@test.it', roles: ['staff'] });
    expect((await t.call('GET', '/api/autocomplete/collaboratori?search=capo', { token: staff })).body.data).toEqual([{ id: ids.capo, label: 'CAPOAREA PAOLO' }]);
  });
});

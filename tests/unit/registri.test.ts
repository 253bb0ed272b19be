// Beneficiary derivation (spec 001 §4, messages of §8), SIVI weight and the registry eligibility rule (§9): every branch.
import { describe, expect, it } from 'vitest';
import { campiRegistro, derivaAventeDiritto, idoneitaRegistro, MESSAGGI_REGISTRI as M, quintaliDaSivi, type DatiRegistro } from '../../src/shared/registri.ts';
import { SandboxRegistri, ALTRO_BENEFICIARIO, ALTRO_INTESTATARIO } from '../../src/server/adapters/registri/sandbox.ts';

const CLIENTE = { nome: 'MARIO', cognome: 'ROSSI', codice_fiscale: 'RSSMRA70A01H501S' };
const ALTRO = 'BNCLGU60C12F205K';
const TERZO = 'VRDGPP55M10L219E';
const dati = (sivi: string | null, atrc: { cf: string; nome?: string; cognome?: string } | null): DatiRegistro => ({
  result: 0,
  ResponseSivi: sivi === null ? null : { taxCode: sivi },
  ResponseAtrcMain: atrc === null ? null : { beneficiaryTaxCode: atrc.cf, beneficiaryFirstName: atrc.nome, beneficiaryLastName: atrc.cognome },
});

describe('derivaAventeDiritto', () => {
  const cases: Array<[string, DatiRegistro, { nome: string | null; cognome: string | null; codice_fiscale: string | null }, string[]]> = [
    ['no SIVI, no ATRC', dati(null, null), { nome: null, cognome: null, codice_fiscale: null }, [M.siviAssente, M.atrcAssente]],
    ['SIVI = client, no ATRC', dati(CLIENTE.codice_fiscale, null), CLIENTE, [M.siviCoincide, M.atrcAssente]],
    ['SIVI = client (lower case), no ATRC', dati(CLIENTE.codice_fiscale.toLowerCase(), null), CLIENTE, [M.siviCoincide, M.atrcAssente]],
    ['SIVI other, no ATRC: code kept, names cleared', dati(ALTRO, null), { nome: null, cognome: null, codice_fiscale: ALTRO }, [M.siviDiverso, M.atrcAssente]],
    ['SIVI = client, ATRC = client', dati(CLIENTE.codice_fiscale, { cf: CLIENTE.codice_fiscale }), CLIENTE, [M.siviCoincide, M.contraenteAventeDiritto]],
    ['SIVI other, ATRC = SIVI holder', dati(ALTRO, { cf: ALTRO, nome: 'LUIGI', cognome: 'BIANCHI' }), { nome: 'LUIGI', cognome: 'BIANCHI', codice_fiscale: ALTRO }, [M.siviDiverso, M.atrcCoincideSivi]],
    ['SIVI = client, ATRC third party', dati(CLIENTE.codice_fiscale, { cf: TERZO, nome: 'GIUSEPPE', cognome: 'VERDI' }), { nome: 'GIUSEPPE', cognome: 'VERDI', codice_fiscale: TERZO }, [M.siviCoincide, M.atrcDaAttestato]],
    ['no SIVI, ATRC third party', dati(null, { cf: TERZO, nome: 'GIUSEPPE', cognome: 'VERDI' }), { nome: 'GIUSEPPE', cognome: 'VERDI', codice_fiscale: TERZO }, [M.siviAssente, M.atrcDaAttestato]],
    ['no SIVI, ATRC = client', dati(null, { cf: CLIENTE.codice_fiscale }), CLIENTE, [M.siviAssente, M.contraenteAventeDiritto]],
    ['SIVI with empty tax code counts as absent', dati('  ', null), { nome: null, cognome: null, codice_fiscale: null }, [M.siviAssente, M.atrcAssente]],
  ];
  it.each(cases)('%s', (_name, input, avente, alert) => {
    expect(derivaAventeDiritto(CLIENTE, input)).toEqual({ avente, alert });
  });

  it('a client without tax code never matches an empty SIVI code', () => {
    expect(derivaAventeDiritto({ nome: 'X' }, dati(ALTRO, null)).alert[0]).toBe(M.siviDiverso);
  });
});

describe('campiRegistro', () => {
  it('result 2 stores the answer, the first description as error, and no derived party', () => {
    const out = campiRegistro(CLIENTE, { result: 2, Error: [{ descError: 'Targa non trovata' }, { descError: 'altro' }] }, 'A');
    expect(out.errore_registro).toBe('Targa non trovata');
    expect(out.alert).toBeNull();
    expect(out.avente_diritto_codice_fiscale_iva).toBeNull();
  });
  it('weights in hundredths become quintals for type C only', () => {
    const answer: DatiRegistro = { result: 0, ResponseSivi: { taxCode: ALTRO, weight: 3550 } };
    expect(campiRegistro(CLIENTE, answer, 'C')).toMatchObject({ quintali: 35.5, sivi_vehicle_weight: 35.5, sivi_tax_code: ALTRO });
    expect(campiRegistro(CLIENTE, answer, 'A')).toMatchObject({ sivi_vehicle_weight: null });
    expect(campiRegistro(CLIENTE, answer, 'A')).not.toHaveProperty('quintali');
    expect(quintaliDaSivi(0, 'C')).toBeUndefined();
    expect(quintaliDaSivi(undefined, 'C')).toBeUndefined();
  });
});

describe('idoneitaRegistro', () => {
  const oggi = new Date('2026-11-23T10:00:00Z');
  const conSinistri = (years: Array<[number, string]>): DatiRegistro => ({
    result: 0,
    ResponseAnia: { claims: [{ claimsType: '01', years: years.map(([Year, ClaimNumber]) => ({ Year, ClaimNumber })) }] },
  });
  it('refuses without registry data, with result 2, and without any certificate', () => {
    expect(idoneitaRegistro({ targa: 'AB123CD' }, oggi)).toMatchObject({ ok: false, motivo: expect.stringContaining('Dati ANIA non aggiornati') });
    expect(idoneitaRegistro({ targa: 'AB123CD', json: { result: 2, Error: [{ descError: 'boom' }] } }, oggi)).toMatchObject({ ok: false, motivo: expect.stringContaining('boom') });
    expect(idoneitaRegistro({ targa: 'AB123CD', json: { result: 0, ResponseSivi: { taxCode: ALTRO } } }, oggi)).toMatchObject({ ok: false, motivo: expect.stringContaining('attestato di rischio') });
  });
  it('refuses a claim in the last five years and accepts older ones and non-claim cells', () => {
    expect(idoneitaRegistro({ targa: 'X', json: conSinistri([[2021, '01']]) }, oggi)).toMatchObject({ ok: false, motivo: expect.stringContaining('2021') });
    expect(idoneitaRegistro({ targa: 'X', json: conSinistri([[2020, '02'], [2022, '00'], [2023, '--'], [2024, 'NA']]) }, oggi)).toEqual({ ok: true });
  });
});

describe('registry sandbox', () => {
  const sandbox = new SandboxRegistri(() => new Date('2026-11-23T10:00:00Z'));
  const ask = (targa: string, tipologia = 'A') => sandbox.interroga({ targa, tipologia, codiceFiscaleContraente: CLIENTE.codice_fiscale });
  it('is deterministic', async () => {
    expect(await ask('AB123CD')).toEqual(await ask('AB123CD'));
  });
  it('default plate: client is holder and beneficiary, clean certificate', async () => {
    const out = campiRegistro(CLIENTE, await ask('AB123CD'), 'A');
    expect(out.alert).toBe(`${M.siviCoincide} - ${M.contraenteAventeDiritto}`);
    expect(idoneitaRegistro({ targa: 'AB123CD', json: out.json }, new Date('2026-11-23'))).toEqual({ ok: true });
  });
  it.each([
    ['ZS123AB', `${M.siviAssente} - ${M.contraenteAventeDiritto}`],
    ['ZA123AB', `${M.siviCoincide} - ${M.atrcAssente}`],
    ['ZD123AB', `${M.siviDiverso} - ${M.atrcCoincideSivi}`],
    ['ZB123AB', `${M.siviDiverso} - ${M.atrcDaAttestato}`],
  ])('%s gives "%s"', async (targa, alert) => {
    expect(campiRegistro(CLIENTE, await ask(targa), 'A').alert).toBe(alert);
  });
  it('DH and AT name the other parties', async () => {
    expect(campiRegistro(CLIENTE, await ask('ZD123AB'), 'A').avente_diritto_codice_fiscale_iva).toBe(ALTRO_INTESTATARIO.taxCode);
    expect(campiRegistro(CLIENTE, await ask('ZB123AB'), 'A').avente_diritto_cognome).toBe(ALTRO_BENEFICIARIO.lastName);
  });
  it('the previous contract ended before today, except for ZR plates', async () => {
    expect(String((await ask('AB123CD')).ResponseAtrcMain?.contractExpirationDate) < '2026-11-23').toBe(true);
    expect(String((await ask('ZR123AB')).ResponseAtrcMain?.contractExpirationDate) > '2026-12-20').toBe(true);
  });
  it('SX has claims in two of the last five years; ER is result 2; TO times out; C carries a weight', async () => {
    expect(idoneitaRegistro({ targa: 'ZC123AB', json: await ask('ZC123AB') }, new Date('2026-11-23'))).toMatchObject({ ok: false });
    expect(await ask('ZE123AB')).toMatchObject({ result: 2, Error: [{ descError: expect.stringContaining('ZE123AB') }, expect.anything()] });
    await expect(ask('ZT123AB')).rejects.toThrow('non risponde');
    expect((await ask('AB123CD', 'C')).ResponseSivi?.weight).toBeGreaterThan(0);
  });
});

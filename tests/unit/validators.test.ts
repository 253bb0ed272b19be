// Unit tests for the Italian field validators (codice fiscale, partita IVA, IBAN, phones, CAP, birth date).
import { describe, it, expect } from 'vitest';
import {
  italianFormats,
  dataNascitaMessage,
  isCodiceFiscale,
  decodeCodiceFiscale,
  codiceFiscaleCheckChar,
  isPartitaIva,
  partitaIvaCheckDigit,
  isIban,
  isTelefonoInternazionale,
  isTelefonoPubblico,
  normalizeTelefono,
  isCap,
  isNazioneId,
  dataNascitaBounds,
  isDataNascitaValida,
} from '../../src/shared/validators/index.ts';
import { computeCodiceFiscale, codiceFiscaleMatches } from '../../src/shared/validators/codiceFiscale.ts';
import { createAjv } from '../../src/shared/validation.ts';
import type { CodiceFiscaleInput } from '../../src/shared/validators/codiceFiscale.ts';
import { patternWarning, warnPatternsOf } from '../../src/shared/warnPattern.ts';

// Check chars below were recomputed with a separate Python implementation of the official tables.
describe('codice fiscale (persona fisica)', () => {
  const valid: Array<[string, string]> = [
    ['RSSMRA85T10A562S', 'Agenzia delle Entrate sample: Mario Rossi, 10/12/1985, San Giuliano Terme'],
    ['MRTMTT25D09F205Z', 'widely used sample: Matteo Moretti, 09/04/1925, Milano'],
    ['RSSMRA80A01H501U', 'Mario Rossi, 01/01/1980, Roma'],
    ['RSSMRA80A41H501Y', 'female day (41), computed'],
    ['RSSMRA85T10A56NH', 'omocodic: position 15 2->N, check recomputed S->H'],
    ['RSSMRA80A41H5LMB', 'omocodic: positions 14-15 0,1 -> L,M'],
    ['RSSMRAURTMLARSNL', 'omocodic: all 7 numeric positions replaced'],
    // These three fully omocodic codes together use every letter L..V (digits 0-9).
    ['VRDLCU73H54L736L', 'female, 14/06/1973, Venezia, computed'],
    ['VRDLCUTPHRQLTPSJ', 'omocodic: all positions of VRDLCU73H54L736L'],
    ['MRTMTTNRDLVFNLRV', 'omocodic: all positions of MRTMTT25D09F205Z'],
  ];
  it.each(valid)('accepts %s (%s)', (cf) => {
    expect(isCodiceFiscale(cf)).toBe(true);
  });

  it('recomputes the check char of the samples', () => {
    expect(codiceFiscaleCheckChar('RSSMRA85T10A562')).toBe('S');
    expect(codiceFiscaleCheckChar('RSSMRA85T10A56N')).toBe('H');
    expect(codiceFiscaleCheckChar('MRTMTT25D09F205')).toBe('Z');
  });

  it('normalizes case and surrounding whitespace', () => {
    expect(isCodiceFiscale('  rssmra85t10a562s ')).toBe(true);
  });

  const invalid: Array<[string, string]> = [
    ['RSSMRA85T10A562T', 'wrong check char'],
    ['RSSMRA85T10A56NS', 'omocodic letter but the original check char kept'],
    ['RSSMRA85F10A562R', 'month letter F is not used (check char is correct)'],
    ['RSSMRA85T32A562Y', 'day 32 (check char is correct)'],
    ['RSSMRA85T00A562R', 'day 00 (check char is correct)'],
    ['RSSMRA85T40A562V', 'day 40 (check char is correct)'],
    ['RSSMRA85T72A562C', 'day 72 (check char is correct)'],
    ['RSSMRA85T10A562', 'too short'],
    ['RSSMRA85T10A562SX', 'too long'],
    ['RSSMRA85T10A5W2S', 'W is not an omocodia letter'],
    ['RSSMRA85T10A5O2S', 'O is not an omocodia letter'],
    ['RSSMRA85T101562S', 'place code must start with a letter'],
    ['RSSMR485T10A562S', 'digit in the surname/name part'],
    ['RSSMRA85T10A562 ', 'space instead of the check char'],
    ['RSS-RA85T10A562S', 'punctuation'],
    ['', 'empty'],
  ];
  it.each(invalid)('rejects %j (%s)', (cf) => {
    expect(isCodiceFiscale(cf)).toBe(false);
  });
});

describe('codice fiscale (persona giuridica, 11 digits)', () => {
  it.each([
    ['00484960588', 'Eni S.p.A. codice fiscale'],
    ['00905811006', 'Eni S.p.A. partita IVA'],
    ['00079760328', 'Assicurazioni Generali'],
  ])('accepts %s (%s)', (cf) => {
    expect(isCodiceFiscale(cf)).toBe(true);
  });
  it.each([['00484960589'], ['00000000000'], ['0048496058'], ['004849605880']])('rejects %s', (cf) => {
    expect(isCodiceFiscale(cf)).toBe(false);
  });
});

describe('decodeCodiceFiscale', () => {
  const today = new Date(2025, 0, 15);
  const cases: Array<[string, Date, { birthDate: string; sesso: 'M' | 'F'; codiceCatastale: string }]> = [
    ['RSSMRA85T10A562S', today, { birthDate: '1985-12-10', sesso: 'M', codiceCatastale: 'A562' }],
    ['RSSMRA80A41H501Y', today, { birthDate: '1980-01-01', sesso: 'F', codiceCatastale: 'H501' }],
    ['RSSMRA80A41H5LMB', today, { birthDate: '1980-01-01', sesso: 'F', codiceCatastale: 'H501' }],
    ['RSSMRAURTMLARSNL', today, { birthDate: '1985-12-10', sesso: 'M', codiceCatastale: 'A562' }],
    ['VRDLCU73H54L736L', today, { birthDate: '1973-06-14', sesso: 'F', codiceCatastale: 'L736' }],
    ['VRDLCUTPHRQLTPSJ', today, { birthDate: '1973-06-14', sesso: 'F', codiceCatastale: 'L736' }],
    ['MRTMTTNRDLVFNLRV', today, { birthDate: '1925-04-09', sesso: 'M', codiceCatastale: 'F205' }],
    // '25' born in April: before that date in 2025 it can only be 1925.
    ['MRTMTT25D09F205Z', today, { birthDate: '1925-04-09', sesso: 'M', codiceCatastale: 'F205' }],
    ['MRTMTT25D09F205Z', new Date(2025, 3, 9), { birthDate: '2025-04-09', sesso: 'M', codiceCatastale: 'F205' }],
    ['MRTMTT25D09F205Z', new Date(2025, 3, 8), { birthDate: '1925-04-09', sesso: 'M', codiceCatastale: 'F205' }],
  ];
  it.each(cases)('decodes %s relative to %s', (cf, when, expected) => {
    expect(decodeCodiceFiscale(cf, when)).toEqual(expected);
  });

  it('resolves the century so the person is at most 100 years old', () => {
    const when = new Date(2025, 0, 15);
    const decoded = decodeCodiceFiscale('RSSMRA85T10A562S', when);
    expect(decoded).not.toBeNull();
    const year = Number(decoded!.birthDate.slice(0, 4));
    expect(when.getFullYear() - year).toBeLessThanOrEqual(100);
    expect(decoded!.birthDate <= '2025-01-15').toBe(true);
  });

  it('normalizes lowercase input', () => {
    expect(decodeCodiceFiscale(' rssmra85t10a562s', today)?.birthDate).toBe('1985-12-10');
  });

  it.each([
    ['RSSMRA85T10A562T', 'wrong check char'],
    ['RSSMRA85B30A562G', '30 February (structurally valid, check char correct)'],
    ['00484960588', '11-digit legal-person code has no birth data'],
    ['', 'empty'],
  ])('returns null for %j (%s)', (cf) => {
    expect(decodeCodiceFiscale(cf, today)).toBeNull();
  });
});

describe('partita IVA', () => {
  // Real company numbers, each checked against the algorithm and public registry data.
  const real: Array<[string, string]> = [
    ['00905811006', 'Eni S.p.A.'],
    ['00488410010', 'Telecom Italia S.p.A.'],
    ['00348170101', 'UniCredit S.p.A.'],
    ['00159560366', 'Ferrari S.p.A.'],
    ['00079760328', 'Assicurazioni Generali S.p.A.'],
    ['00799960158', 'Intesa Sanpaolo S.p.A.'],
  ];
  it.each(real)('accepts %s (%s)', (piva) => {
    expect(isPartitaIva(piva)).toBe(true);
  });

  it('computes the check digit', () => {
    expect(partitaIvaCheckDigit('0090581100')).toBe(6);
    expect(partitaIvaCheckDigit('0048841001')).toBe(0);
  });

  it.each([
    ['00905811007', 'last digit changed'],
    ['00905811060', 'last two digits swapped'],
    ['00908511006', 'adjacent digits swapped (5,8)'],
    ['00000000000', 'all zeros'],
    ['0090581100', '10 digits'],
    ['009058110060', '12 digits'],
    ['IT00905811006', 'country prefix'],
    ['0090581100A', 'letter'],
    [' 00905811006', 'leading space'],
    ['', 'empty'],
  ])('rejects %j (%s)', (piva) => {
    expect(isPartitaIva(piva)).toBe(false);
  });
});

describe('IBAN', () => {
  const valid: Array<[string, string]> = [
    ['IT60X0542811101000000123456', 'IT'],
    ['IT60 X054 2811 1010 0000 0123 456', 'IT with spaces'],
    ['it60x0542811101000000123456', 'IT lowercase'],
    ['SM86U0322509800000000270100', 'SM'],
    ['DE89370400440532013000', 'DE'],
    ['GB82WEST12345698765432', 'GB'],
    ['FR1420041010050500013M02606', 'FR'],
    ['ES9121000418450200051332', 'ES'],
    ['CH9300762011623852957', 'CH'],
    ['AT611904300234573201', 'AT'],
    ['BE68539007547034', 'BE'],
    ['NL91ABNA0417164300', 'NL'],
    ['PT50000201231234567890154', 'PT'],
    ['LU280019400644750000', 'LU'],
    ['IE29AIBK93115212345678', 'IE'],
    ['VA59001123000012345678', 'VA'],
    ['MC5811222000010123456789030', 'MC'],
    ['NO9386011117947', 'country not in the table, 15 chars'],
    ['MT84MALT011000012345MTLCAST001S', 'country not in the table, 31 chars'],
    ['DE98000000000000000048', 'check digits 98 (computed)'],
  ];
  it.each(valid)('accepts %s (%s)', (iban) => {
    expect(isIban(iban)).toBe(true);
  });

  const invalid: Array<[string, string]> = [
    ['IT60X0542811101000000123457', 'last digit changed'],
    ['IT61X0542811101000000123456', 'check digits changed'],
    ['IT60X0542811101000000123465', 'digits swapped'],
    ['DE89370400440532013001', 'DE digit changed'],
    ['GB82WEST12345698765433', 'GB digit changed'],
    ['GB82WEST1234569876543', 'GB too short'],
    ['IT60X054281110100000012345', 'IT 26 chars'],
    ['IT32X05428A1101000000123456', 'letter in ABI (mod 97 correct)'],
    ['IT2910542811101000000123456', 'digit as CIN (mod 97 correct)'],
    ['NO698601111794', 'unknown-length country, 14 chars (mod 97 correct)'],
    ['NO338601111794700000000000000000000', 'unknown-length country, 35 chars (mod 97 correct)'],
    ['DE01000000000000000048', 'check digits 01 (mod 97 correct)'],
    ['6060X0542811101000000123456', 'no country code'],
    ['ITXXX0542811101000000123456', 'non-numeric check digits'],
    ['IT60-X054-2811-1010-0000-0123-456', 'dashes'],
    ['', 'empty'],
  ];
  it.each(invalid)('rejects %j (%s)', (iban) => {
    expect(isIban(iban)).toBe(false);
  });
});

describe('telefono internazionale', () => {
  it.each([
    ['+39 333 1234567', 'Italian mobile, grouped'],
    ['+393331234567', 'compact E.164'],
    ['+39 06 12345678', 'Italian landline'],
    ['+1 212 555 0100', '1-digit prefix'],
    ['+44 20 7946 0958', '2-digit prefix'],
    ['+353 1 234 5678', '3-digit prefix'],
    ['+1 23456', 'exactly 6 digits'],
    ['+39 333 1234567890', 'exactly 15 digits'],
    // Spaces anywhere are only typing: the number is read without them (normalizeTelefono).
    ['+3933 3123 4567', 'groups of any size'],
    ['+39  333 1234567', 'double space'],
    ['+ 39 333 1234567', 'space after +'],
    ['+39 333 1234567 ', 'trailing space'],
  ])('accepts %j (%s)', (tel) => {
    expect(isTelefonoInternazionale(tel)).toBe(true);
  });
  it.each([
    ['3331234567', 'no +'],
    ['0039 333 1234567', '00 instead of +'],
    ['+0 333 1234567', 'prefix starting with 0'],
    ['+39 333 12345678901', '16 digits'],
    ['+1 2345', '5 digits'],
    ['+39-333-1234567', 'dashes'],
    ['+39 (333) 1234567', 'parentheses'],
    ['+', 'only +'],
    ['', 'empty'],
  ])('rejects %j (%s)', (tel) => {
    expect(isTelefonoInternazionale(tel)).toBe(false);
  });
});

describe('telefono pubblico', () => {
  // '+39 333 1112233' as staff store it is the customer's number too.
  it.each([['+393331234567'], ['+390612345678'], ['+391234'], ['+39123456789012'], ['+39 333 1112233'], [' +39 06 1234 5678 ']])('accepts %j', (tel) => {
    expect(isTelefonoPubblico(tel)).toBe(true);
  });
  it.each([
    ['+39 333 12345678901', '13 digits, spaced'],
    ['+39123', '3 digits'],
    ['+391234567890123', '13 digits'],
    ['+413331234567', 'not +39'],
    ['393331234567', 'no +'],
    ['3331234567', 'national format'],
    ['', 'empty'],
  ])('rejects %j (%s)', (tel) => {
    expect(isTelefonoPubblico(tel)).toBe(false);
  });
});

describe('normalizeTelefono', () => {
  it('removes every space, of any kind, wherever it is', () => {
    expect(normalizeTelefono(' +39 333\u00a0111\t2233 ')).toBe('+393331112233');
    expect(normalizeTelefono('+393331112233')).toBe('+393331112233');
  });
});

describe('CAP', () => {
  it.each([['00100'], ['20121'], ['56017'], ['98168']])('accepts %s', (cap) => {
    expect(isCap(cap)).toBe(true);
  });
  it.each([['0010'], ['001000'], ['2012A'], [' 20121'], ['20 121'], ['']])('rejects %j', (cap) => {
    expect(isCap(cap)).toBe(false);
  });
});

describe('nazione (birth country id)', () => {
  it.each([['1'], ['2'], ['Z112'], ['Z404']])('accepts %j', (id) => {
    expect(isNazioneId(id)).toBe(true);
  });
  it.each([['ITALIA'], ['Germania'], ['40'], ['z112'], ['Z11'], ['H501'], ['']])('rejects %j', (id) => {
    expect(isNazioneId(id)).toBe(false);
  });
  it('on the server, a cadastral code must name a known place', () => {
    const ajv = createAjv({ placeCodes: new Set(['Z112']) });
    const validate = ajv.compile({ type: 'string', format: 'nazione' });
    expect([validate('Z112'), validate('Z999'), validate('1'), validate('2')]).toEqual([true, false, true, true]);
  });
});

describe('data di nascita', () => {
  const today = new Date(2025, 5, 15);

  it('derives the bounds from today', () => {
    expect(dataNascitaBounds(today)).toEqual({ min: '1923-01-01', max: '2008-12-31' });
    expect(dataNascitaBounds(new Date(2030, 0, 1)).max).toBe('2013-12-31');
  });

  it.each([
    ['1923-01-01', 'min bound'],
    ['1923-01-02', 'just after min'],
    ['2008-12-31', 'max bound'],
    ['2008-12-30', 'just before max'],
    ['1985-12-10', 'ordinary date'],
    ['2000-02-29', 'leap day (divisible by 400)'],
    ['1996-02-29', 'leap day'],
  ])('accepts %s (%s)', (date) => {
    expect(isDataNascitaValida(date, today)).toBe(true);
  });

  it.each([
    ['1922-12-31', 'day before min'],
    ['2009-01-01', 'day after max'],
    ['2001-02-30', 'non-existent date'],
    ['2001-02-29', 'not a leap year'],
    ['1985-13-01', 'month 13'],
    ['1985-00-10', 'month 00'],
    ['1985-04-31', '31 April'],
    ['1985-12-00', 'day 00'],
    ['1985-12-1', 'unpadded day'],
    ['10/12/1985', 'Italian format'],
    ['1985-12-10T00:00:00Z', 'timestamp'],
    ['', 'empty'],
  ])('rejects %j (%s)', (date) => {
    expect(isDataNascitaValida(date, today)).toBe(false);
  });

  it('uses the current date when today is omitted', () => {
    const max = `${new Date().getFullYear() - 17}-12-31`;
    expect(isDataNascitaValida(max)).toBe(true);
    expect(isDataNascitaValida(`${new Date().getFullYear() - 16}-01-01`)).toBe(false);
  });
});

describe('italianFormats registry', () => {
  const table: Array<[string, string, string, string]> = [
    ['codice-fiscale', 'Codice fiscale non valido', 'RSSMRA85T10A562S', 'RSSMRA85T10A562T'],
    ['partita-iva', 'Partita IVA non valida', '00905811006', '00905811007'],
    ['iban', 'IBAN non valido', 'IT60X0542811101000000123456', 'IT60X0542811101000000123457'],
    ['telefono', 'Il numero di telefono deve avere un prefisso internazionale valido', '+39 333 1234567', '3331234567'],
    ['telefono-pubblico', 'Formato telefono non valido', '+39 333 1234567', '+41 333 1234567'],
    ['cap', 'Il CAP deve essere di 5 cifre', '20121', '2012'],
    ['nazione', "Nazione non valida: sceglila dall'elenco", 'Z112', 'GERMANIA'],
  ];
  it.each(table)('%s has its message and validator', (key, message, good, bad) => {
    const format = italianFormats[key];
    expect(format).toBeDefined();
    expect(format.message).toBe(message);
    expect(format.validate(good)).toBe(true);
    expect(format.validate(bad)).toBe(false);
  });

  it('has exactly the documented keys', () => {
    expect(Object.keys(italianFormats).sort()).toEqual(table.map(([key]) => key).sort());
  });

  it('builds the birth date message from today', () => {
    expect(dataNascitaMessage(new Date(2025, 5, 15))).toBe(
      'La data di nascita deve essere compresa tra il 01/01/1923 e il 31/12/2008',
    );
    expect(dataNascitaMessage()).toBe(
      `La data di nascita deve essere compresa tra il 01/01/1923 e il 31/12/${new Date().getFullYear() - 17}`,
    );
  });
});

// Expected codes were recomputed step by step with a separate Python implementation of the
// official algorithm and tables (the same one that reproduces RSSMRA85T10A562S / ...A56NH).
describe('computeCodiceFiscale / codiceFiscaleMatches', () => {
  const person = (
    cognome: string,
    nome: string,
    dataNascita: string,
    sesso: 'M' | 'F',
    codiceCatastale: string,
  ): CodiceFiscaleInput => ({ cognome, nome, dataNascita, sesso, codiceCatastale });

  const mario = person('Rossi', 'Mario', '1985-12-10', 'M', 'A562');

  const computed: Array<[string, CodiceFiscaleInput, string]> = [
    ['Agenzia delle Entrate sample (Mario Rossi)', mario, 'RSSMRA85T10A562S'],
    ['woman: day 25 + 40 = 65, March = C', person('Bianchi', 'Maria', '1990-03-25', 'F', 'F205'), 'BNCMRA90C65F205C'],
    ['woman born on the 1st (41), year 2005 -> 05', person('Verdi', 'Anna', '2005-01-01', 'F', 'H501'), 'VRDNNA05A41H501U'],
    ['woman born on the 31st (71); surname with 4 consonants takes the first 3', person('Esposito', 'Giulia', '1978-08-31', 'F', 'F839'), 'SPSGLI78M71F839Z'],
    ['short surname padded with X (Fo -> FOX)', person('Fo', 'Dario', '1926-03-24', 'M', 'I845'), 'FOXDRA26C24I845E'],
    ['one-letter surname (OXX) and two-letter name (LAX)', person('O', 'Al', '1950-05-05', 'M', 'L219'), 'OXXLAX50E05L219L'],
    ['name with 4+ consonants takes 1st, 3rd, 4th (Gianfranco -> GFR)', person('Galli', 'Gianfranco', '1962-07-15', 'M', 'D969'), 'GLLGFR62L15D969W'],
    ["apostrophe surname and accented name (D'Angelo -> DNG, Niccolò -> NCL)", person("D'Angelo", 'Niccolò', '1999-02-28', 'M', 'F839'), 'DNGNCL99B28F839H'],
    ['accented surname (Niccolò -> NCC), year 2000 -> 00', person('Niccolò', 'Luca', '2000-09-09', 'M', 'G273'), 'NCCLCU00P09G273J'],
    ['accents folded and used as vowels (Pelè -> PLE, Zoè -> ZOE), foreign Z-code', person('Pelè', 'Zoè', '1970-10-20', 'F', 'Z602'), 'PLEZOE70R60Z602K'],
    ['space in surname ignored (De Luca -> DLC), name with one consonant (Ugo -> GUO)', person('De Luca', 'Ugo', '1945-04-30', 'M', 'A944'), 'DLCGUO45D30A944O'],
    ['hyphen in surname ignored (Rossi-Bianchi -> RSS)', person('Rossi-Bianchi', 'Eva', '1988-11-11', 'F', 'L736'), 'RSSVEA88S51L736C'],
    ['all accented vowels À È É Ì Ò Ù folded', person('Àèéìòù', 'Ìò', '1960-06-06', 'M', 'B354'), 'AEEIOX60H06B354V'],
    ['typographic apostrophe, lowercase and padded cadastral code', person('d’angelo', 'niccolò', '1999-02-28', 'M', ' f839 '), 'DNGNCL99B28F839H'],
  ];

  it.each(computed)('computes %s', (_label, input, expected) => {
    const cf = computeCodiceFiscale(input);
    expect(cf).toBe(expected);
    expect(isCodiceFiscale(cf)).toBe(true);
    expect(codiceFiscaleMatches(cf, input)).toBe(true);
  });

  it('is consistent with decodeCodiceFiscale', () => {
    const input = person('Bianchi', 'Maria', '1990-03-25', 'F', 'F205');
    expect(decodeCodiceFiscale(computeCodiceFiscale(input), new Date(2025, 0, 1))).toEqual({
      birthDate: '1990-03-25',
      sesso: 'F',
      codiceCatastale: 'F205',
    });
  });

  const malformed: Array<[string, Partial<CodiceFiscaleInput>, RegExp]> = [
    ['non-existent date', { dataNascita: '1985-02-30' }, /dataNascita/],
    ['month 13', { dataNascita: '1985-13-01' }, /dataNascita/],
    ['day 00', { dataNascita: '1985-12-00' }, /dataNascita/],
    ['Italian date format', { dataNascita: '10/12/1985' }, /dataNascita/],
    ['unpadded date', { dataNascita: '1985-12-1' }, /dataNascita/],
    ['empty date', { dataNascita: '' }, /dataNascita/],
    ['cadastral code too short', { codiceCatastale: 'A56' }, /codiceCatastale/],
    ['cadastral code too long', { codiceCatastale: 'A5620' }, /codiceCatastale/],
    ['cadastral code without leading letter', { codiceCatastale: '1562' }, /codiceCatastale/],
    ['omocodic cadastral code', { codiceCatastale: 'A56N' }, /codiceCatastale/],
    ['empty cadastral code', { codiceCatastale: '' }, /codiceCatastale/],
    ['invalid sesso', { sesso: 'X' as 'M' }, /sesso/],
    ['empty surname', { cognome: '' }, /cognome/],
    ['surname made only of separators', { cognome: " '- " }, /cognome/],
    ['digits in the name', { nome: 'Mario2' }, /nome/],
  ];

  it.each(malformed)('throws on %s', (_label, override, message) => {
    expect(() => computeCodiceFiscale({ ...mario, ...override })).toThrow(message);
    expect(() => codiceFiscaleMatches('RSSMRA85T10A562S', { ...mario, ...override })).toThrow(message);
  });

  const matches: Array<[string, string, CodiceFiscaleInput, boolean]> = [
    ['the right data', 'RSSMRA85T10A562S', mario, true],
    ['lowercase code with spaces around', '  rssmra85t10a562s ', mario, true],
    ['omocodic variant (position 15: 2 -> N)', 'RSSMRA85T10A56NH', mario, true],
    ['omocodic variant (positions 13-14: 5,6 -> R,S)', 'RSSMRA85T10ARS2Z', mario, true],
    ['fully omocodic variant', 'RSSMRAURTMLARSNL', mario, true],
    ['another birth date', 'RSSMRA85T10A562S', person('Rossi', 'Mario', '1985-12-11', 'M', 'A562'), false],
    ['same day a century earlier (the code has no century)', 'RSSMRA85T10A562S', person('Rossi', 'Mario', '1885-12-10', 'M', 'A562'), true],
    ['another sex', 'RSSMRA85T10A562S', person('Rossi', 'Mario', '1985-12-10', 'F', 'A562'), false],
    ['another birth place', 'RSSMRA85T10A562S', person('Rossi', 'Mario', '1985-12-10', 'M', 'H501'), false],
    ['another name', 'RSSMRA85T10A562S', person('Rossi', 'Marco', '1985-12-10', 'M', 'A562'), false],
    ['omocodic variant of another birth date', 'RSSMRA85T1MA562J', mario, false],
    ['wrong check char', 'RSSMRA85T10A562T', mario, false],
    ['omocodic variant with stale check char', 'RSSMRA85T10A56NS', mario, false],
    ['11-digit legal-person code', '00905811006', mario, false],
    ['empty string', '', mario, false],
  ];

  it.each(matches)('codiceFiscaleMatches: %s', (_label, cf, data, expected) => {
    expect(codiceFiscaleMatches(cf, data)).toBe(expected);
  });
});

describe('x-warn-pattern: advice on a value, for the save warnings and the form alike', () => {
  const rules = warnPatternsOf({ 'x-warn-pattern': { telefono: { pattern: '^\\+39', message: 'Il numero di telefono non ha il prefisso internazionale +39.' } } });
  it('warns on a filled value that does not match, never on an empty one', () => {
    expect(patternWarning(rules.telefono, '+41 79 1234567')).toBe('Il numero di telefono non ha il prefisso internazionale +39.');
    expect(patternWarning(rules.telefono, '+39 333 1234567')).toBeUndefined();
    expect(patternWarning(rules.telefono, '')).toBeUndefined();
    expect(patternWarning(rules.telefono, undefined)).toBeUndefined();
    expect(patternWarning(rules.email, 'x')).toBeUndefined();
    expect(warnPatternsOf({})).toEqual({});
  });
});

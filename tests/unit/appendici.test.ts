// Appendix amounts: inclusion totals in cents and the pro-rata share of a yearly premium.
import { describe, expect, it } from 'vitest';
import { dataNelPeriodo, rateoCentesimi, scadenzaAnnua, SPESE_EMISSIONE_PREDEFINITE_CENTESIMI, totaleInclusione } from '../../src/shared/appendici.ts';

describe('totaleInclusione', () => {
  it.each([
    [0, SPESE_EMISSIONE_PREDEFINITE_CENTESIMI, 0, 1500],
    [2000, 1500, 12345, 15845],
    [1, 1, 1, 3],
    // 0.1 + 0.2 in euro would drift; in cents it cannot.
    [10, 20, 0, 30],
  ])('competenze %i + spese %i + premio %i = %i', (competenze, spese, premio, totale) => {
    expect(totaleInclusione({ competenze_centesimi: competenze, spese_emissione_centesimi: spese, premio_verti_centesimi: premio })).toBe(totale);
  });
  it('refuses amounts that are not whole cents', () => {
    expect(() => totaleInclusione({ competenze_centesimi: 10.5, spese_emissione_centesimi: 0, premio_verti_centesimi: 0 })).toThrow('competenze');
  });
});

describe('rateoCentesimi', () => {
  const dec = '2026-01-01';
  const sca = scadenzaAnnua(dec);
  it('a whole year from decorrenza is the whole premium', () => {
    expect(sca).toBe('2027-01-01');
    expect(rateoCentesimi(36500, dec, dec, sca)).toBe(36500);
  });
  it.each([
    ['2026-07-02', 18300], // 183 of 365 days
    ['2026-12-31', 100],
    ['2027-01-01', 0],
    ['2025-06-01', 36500], // before decorrenza: capped at a year
  ])('from %s', (data, cents) => {
    expect(rateoCentesimi(36500, data, dec, sca)).toBe(cents);
  });
  it('rounds to the cent and handles leap years', () => {
    expect(scadenzaAnnua('2028-02-29')).toBe('2029-03-01');
    expect(rateoCentesimi(10000, '2027-07-01', '2027-01-01', '2028-01-01')).toBe(Math.round((10000 * 184) / 365));
  });
  it('dates inside the period', () => {
    expect(dataNelPeriodo('2026-01-01', dec, sca)).toBe(true);
    expect(dataNelPeriodo('2026-12-31', dec, sca)).toBe(true);
    expect(dataNelPeriodo('2027-01-01', dec, sca)).toBe(false);
    expect(dataNelPeriodo('2025-12-31', dec, sca)).toBe(false);
  });
});

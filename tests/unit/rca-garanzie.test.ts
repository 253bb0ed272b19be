// Table tests of the coverage rules of the fast quotation (spec 002 §3.7, §4.1): requires, excludes, ordering, availability.
import { describe, expect, it } from 'vitest';
import {
  CATALOGO, deseleziona, disponibile, massimali, ordina, seleziona, selezionePredefinita, verifica, type CoverageSel,
} from '../../src/shared/rca/garanzie.ts';

const codes = (list: CoverageSel[]) => list.map((c) => c.code);
const pick = (codesToPick: string[], category = 'Auto') =>
  codesToPick.reduce((sel, c) => seleziona(sel, c, category), selezionePredefinita());

describe('catalogue', () => {
  it('holds the sixteen coverages of the spec with their packages', () => {
    expect(CATALOGO.garanzie.map((g) => `${g.code}:${g.PackageCode}`)).toEqual([
      'P01:P94', 'P03:P93', 'P04:P93', 'P05:P93', 'P14:', 'P25:', 'P32:P93', 'P50:P91', 'P51:', 'P52:P91', 'P53:P91', 'P49:', 'P13:P92', 'P40:', 'P30:', 'P42:',
    ]);
  });
  it('defaults to P01 Responsabilità Civile at 6 000 000 with coInsurance', () => {
    expect(selezionePredefinita()).toEqual([{ code: 'P01', description: 'Responsabilità Civile', selected: true, value: 6000000, coInsurance: true, PackageCode: 'P94' }]);
  });
});

describe('requires: selecting adds what the coverage requires', () => {
  it.each([
    ['P03', ['P01', 'P03', 'P04']],
    ['P04', ['P01', 'P03', 'P04']],
    ['P05', ['P01', 'P03', 'P04', 'P05']],
    ['P14', ['P01', 'P03', 'P04', 'P14']],
    ['P25', ['P01', 'P03', 'P04', 'P05', 'P32', 'P25', 'P51']],
    ['P32', ['P01', 'P03', 'P04', 'P05', 'P32']],
    ['P49', ['P01', 'P52', 'P49']],
    ['P13', ['P01', 'P13']],
    ['P40', ['P01', 'P40']],
    ['P42', ['P01', 'P42']],
    ['P50', ['P01', 'P50']],
    ['P51', ['P01', 'P51']],
  ])('%s → %j', (code, expected) => {
    expect(codes(pick([code]))).toEqual(expected);
    expect(verifica(pick([code]), 'Auto')).toEqual([]);
  });
  it('P49 keeps P53 when it is already chosen instead of adding P52', () => {
    expect(codes(pick(['P53', 'P49']))).toEqual(['P01', 'P53', 'P49']);
  });
});

describe('excludes: selecting removes what the coverage excludes', () => {
  it.each([
    [['P50', 'P51'], 'P14', ['P01', 'P03', 'P04', 'P14']],
    [['P14'], 'P50', ['P01', 'P50', 'P03', 'P04']],
    [['P14'], 'P51', ['P01', 'P03', 'P04', 'P51']],
    [['P52'], 'P53', ['P01', 'P53']],
    [['P53'], 'P52', ['P01', 'P52']],
    // P25 requires P51: choosing kasko afterwards drops P51 and, with it, P25.
    [['P25'], 'P14', ['P01', 'P03', 'P04', 'P05', 'P32', 'P14']],
  ])('%j then %s → %j', (before, code, expected) => {
    expect(codes(seleziona(pick(before), code, 'Auto'))).toEqual(expected);
  });
});

describe('deselecting removes only that coverage', () => {
  it('leaves what it pulled in, and verifica names the broken rule', () => {
    const after = deseleziona(pick(['P05']), 'P03');
    expect(codes(after)).toEqual(['P01', 'P04', 'P05']);
    expect(verifica(after, 'Auto').map((v) => v.message)).toEqual([
      'La garanzia P04 Furto richiede P03 Incendio.',
      'La garanzia P05 Cristalli richiede P03 Incendio.',
    ]);
  });
});

describe('ordering: P94 first, then package code, then code', () => {
  it.each([
    [['P42', 'P13', 'P52', 'P05', 'P01', 'P14'], ['P01', 'P52', 'P13', 'P05', 'P14', 'P42']],
    [['P53', 'P50', 'P40', 'P03'], ['P50', 'P53', 'P03', 'P40']],
  ])('%j → %j', (input, expected) => {
    expect(codes(ordina(input.map((code) => ({ code }))))).toEqual(expected);
  });
});

describe('availability and limits per category', () => {
  const table: Array<[string, boolean, boolean]> = [
    ['P01', true, true], ['P03', true, true], ['P04', true, true], ['P05', true, false], ['P14', true, false],
    ['P25', true, false], ['P32', true, false], ['P50', true, true], ['P51', true, true], ['P52', true, true],
    ['P53', true, true], ['P49', true, true], ['P13', true, true], ['P40', true, true], ['P30', false, false], ['P42', true, true],
  ];
  it.each(table)('%s: Auto %s, Moto %s', (code, auto, moto) => {
    expect(disponibile(code, 'Auto')).toBe(auto);
    expect(disponibile(code, 'MotoLess50cc')).toBe(moto);
    expect(disponibile(code, 'MotoMore50cc')).toBe(moto);
  });
  it('refuses an unavailable coverage for the category', () => {
    const sel = [...selezionePredefinita(), { code: 'P05', selected: true }, { code: 'P03', selected: true }, { code: 'P04', selected: true }];
    expect(verifica(sel, 'MotoMore50cc')).toEqual([{ code: 'P05', message: 'La garanzia P05 Cristalli non è disponibile per la categoria MotoMore50cc.' }]);
    expect(codes(seleziona(selezionePredefinita(), 'P30', 'Auto'))).toEqual(['P01']);
  });
  it('offers four liability limits for cars and the first two for motorbikes', () => {
    expect(massimali('P01', 'Auto').map((m) => [m.value, m.persone, m.cose])).toEqual([
      [6000000, 6450000, 1300000], [12000000, 10000000, 2000000], [18000000, 15000000, 3000000], [25000000, 20000000, 5000000],
    ]);
    expect(massimali('P01', 'MotoLess50cc').map((m) => m.value)).toEqual([6000000, 12000000]);
    expect(massimali('P13', 'Auto').map((m) => m.value)).toEqual([15000]);
    expect(verifica([{ code: 'P01', value: 18000000 }], 'MotoMore50cc')[0]!.message).toMatch(/^Massimale non ammesso per la garanzia P01/);
  });
  it('requires P01 and flags every excluded pair both ways', () => {
    expect(verifica([{ code: 'P42' }], 'Auto')).toEqual([{ code: 'P01', message: 'La garanzia P01 Responsabilità Civile è obbligatoria.' }]);
    const both = [...selezionePredefinita(), { code: 'P52' }, { code: 'P53' }];
    expect(verifica(both, 'Auto').map((v) => v.code)).toEqual(['P52', 'P53']);
    const unselected = [...selezionePredefinita(), { code: 'P52', selected: false }, { code: 'P53' }];
    expect(verifica(unselected, 'Auto')).toEqual([]);
  });
});

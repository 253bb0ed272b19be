// Table tests of the policy money module: gross premium, instalment split per frazionamento, periods, commission formulas.
import { describe, expect, it } from 'vitest';
import frazionamenti from '../../schemas/_reference/frazionamenti.json' with { type: 'json' };
import {
  aggiungiMesi, calcolaProvvigioni, centesimi, periodi, premioLordo, premioLordoCents, rate, ripartisci,
  type InputProvvigioni,
} from '../../src/shared/premi.ts';

describe('premio lordo = competenze + imponibile + imposte + diritti + spese', () => {
  it.each([
    [{ competenze: 10, totale_premio_imponibile: 100, totale_premio_imposte: 22.25, diritti: 5, spese: 3 }, 140.25],
    [{ competenze: 0.1, totale_premio_imponibile: 0.2 }, 0.3],
    [{ totale_premio_imponibile: '1.005', totale_premio_imposte: '0,285' }, 1.3],
    [{ competenze: null, totale_premio_imponibile: undefined, diritti: '' }, 0],
    [{ competenze: 33.33, totale_premio_imponibile: 33.33, totale_premio_imposte: 33.34, diritti: 0, spese: 0 }, 100],
    [{ totale_premio_imponibile: 1234567.89, totale_premio_imposte: 0.01 }, 1234567.9],
  ])('%j → %d', (importi, expected) => {
    expect(premioLordo(importi)).toBe(expected);
    expect(premioLordoCents(importi)).toBe(Math.round(expected * 100));
  });

  it.each([[0.285, 29], ['12,345', 1235], [-1.005, -101], ['abc', 0], [7, 700]])('centesimi(%j) = %d', (value, cents) => {
    expect(centesimi(value)).toBe(cents);
  });
});

describe('ripartisci: parts add up to the cent, remainder on the first', () => {
  it.each([
    [10000, 4, [2500, 2500, 2500, 2500]],
    [10001, 4, [2501, 2500, 2500, 2500]],
    [10003, 4, [2503, 2500, 2500, 2500]],
    [100, 3, [34, 33, 33]],
    [1, 12, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
    [0, 2, [0, 0]],
    [-100, 3, [-34, -33, -33]],
  ])('%d in %d', (total, n, parts) => {
    expect(ripartisci(total, n)).toEqual(parts);
  });
  it('refuses zero parts', () => expect(() => ripartisci(100, 0)).toThrow());
});

describe('every frazionamento over one year', () => {
  const importi = { competenze: 10.01, totale_premio_imponibile: 1000.07, totale_premio_imposte: 222.22, diritti: 5.05, spese: 3.03 };
  const expected: Record<string, number> = { ANNUALE: 1, SEMESTRALE: 2, QUADRIMESTRALE: 3, TRIMESTRALE: 4, BIMESTRALE: 6, MENSILE: 12, UNICO: 1 };
  it.each(frazionamenti.items.map((f) => [f.codice, f] as const))('%s', (codice, f) => {
    const p = periodi('2026-01-31', '2027-01-31', f);
    expect(p).toHaveLength(expected[codice]!);
    expect(p[0]!.data_inizio).toBe('2026-01-31');
    expect(p.at(-1)!.data_fine).toBe('2027-01-31');
    // Periods are contiguous.
    for (let i = 1; i < p.length; i++) expect(p[i]!.data_inizio).toBe(p[i - 1]!.data_fine);
    const r = rate(importi, p.length);
    const sum = (k: keyof (typeof r)[0]) => r.reduce((s, x) => s + x[k], 0);
    expect(sum('premio')).toBe(premioLordoCents(importi));
    expect(sum('competenze')).toBe(1001);
    expect(sum('imponibile')).toBe(100007);
    expect(sum('imposte')).toBe(22222);
    expect(sum('diritti')).toBe(505);
    expect(sum('spese')).toBe(303);
    // The remainder is on the first instalment: the others are equal and not larger.
    for (const x of r.slice(1)) {
      expect(x).toEqual(r[1]);
      expect(x.premio).toBeLessThanOrEqual(r[0]!.premio);
    }
  });

  it('quarterly from 15/03: four titles on the quarter days', () => {
    expect(periodi('2026-03-15', '2027-03-15', { codice: 'TRIMESTRALE', mesi: 3 }).map((p) => [p.data_inizio, p.data_fine])).toEqual([
      ['2026-03-15', '2026-06-15'], ['2026-06-15', '2026-09-15'], ['2026-09-15', '2026-12-15'], ['2026-12-15', '2027-03-15'],
    ]);
  });
  it('a duration that is not a multiple cuts the last period at the expiry', () => {
    expect(periodi('2026-01-01', '2026-08-01', { codice: 'SEMESTRALE', mesi: 6 }).map((p) => p.data_fine)).toEqual(['2026-07-01', '2026-08-01']);
  });
  it('refuses an expiry not after the effective date', () => expect(() => periodi('2026-01-01', '2026-01-01', { codice: 'ANNUALE', mesi: 12 })).toThrow());
  it.each([['2026-01-31', 1, '2026-02-28'], ['2028-01-31', 1, '2028-02-29'], ['2026-11-30', 3, '2027-02-28'], ['2026-05-15', 12, '2027-05-15']])(
    'aggiungiMesi(%s, %d) = %s', (d, m, out) => expect(aggiungiMesi(d, m)).toBe(out),
  );
});

describe('commission panel formulas', () => {
  const base: InputProvvigioni = {
    totale_netto: 100000, diritti: 500, accessori: 1000, spese: 300, imposte: 22250, ssn: 10500, spese_emissione: 200, competenze: 2000,
    perc_provvigioni_attive: 12.5, perc_ritenuta: 11.5,
    perc_provvigione_collaboratore: 40, tipo_provvigione_collaboratore: 'PERC_RETROCESSIONE', perc_competenze_collaboratore: 50,
  };
  it.each([
    // [changes, premio_polizza, totale_cliente, provvigioni_attive, valore_ritenuta, provvigione_collaboratore, collaboratore_totale]
    [{}, 133750, 136750, 12500, 1438, 5000, 6000],
    [{ perc_ritenuta: 4.6 }, 133750, 136750, 12500, 575, 5000, 6000],
    [{ perc_ritenuta: null }, 133750, 136750, 12500, 0, 5000, 6000],
    [{ tipo_provvigione_collaboratore: 'PERC_IMPONIBILE', perc_provvigione_collaboratore: 5 }, 133750, 136750, 12500, 1438, 5000, 6000],
    [{ tipo_provvigione_collaboratore: 'PERC_IMPONIBILE', perc_provvigione_collaboratore: 7.25 }, 133750, 136750, 12500, 1438, 7250, 8250],
    [{ perc_provvigioni_attive: 0 }, 133750, 136750, 0, 0, 0, 1000],
    [{ totale_netto: 333, perc_provvigioni_attive: 15, perc_competenze_collaboratore: 0 }, 34083, 37083, 50, 6, 20, 20],
  ] as const)('%j', (changes, premio, cliente, attive, ritenuta, collab, collabTot) => {
    const out = calcolaProvvigioni({ ...base, ...(changes as Partial<InputProvvigioni>) });
    expect(out.premio_polizza).toBe(premio);
    expect(out.totale_cliente).toBe(cliente);
    expect(out.provvigioni_attive).toBe(attive);
    expect(out.valore_ritenuta).toBe(ritenuta);
    expect(out.provvigione_collaboratore).toBe(collab);
    expect(out.collaboratore_totale).toBe(collabTot);
  });
});

describe('payment types and frazionamenti in the definitions follow schemas/_reference', async () => {
  const { readFileSync } = await import('node:fs');
  const read = (file: string) => JSON.parse(readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8'));
  const codes = (prop: { oneOf: Array<{ const: string }> }) => prop.oneOf.map((o) => o.const);
  const tipi = read('_reference/tipi_pagamento.json').items.map((i: { codice: string }) => i.codice);
  it('has the 17 payment types of spec 002 §3.3', () => expect(tipi).toHaveLength(17));
  it.each(['polizza', 'titolo'])('%s.tipo_pagamento lists them', (resource) => {
    expect(codes(read(`${resource}/entity.schema.json`).properties.tipo_pagamento)).toEqual(tipi);
  });
  it('polizza.frazionamento_slug lists the frazionamenti', () => {
    expect(codes(read('polizza/entity.schema.json').properties.frazionamento_slug)).toEqual(frazionamenti.items.map((f) => f.codice));
  });
});

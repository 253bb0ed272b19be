import { describe, expect, it } from 'vitest';
import { dataItaliana, isCalendarDate, isCalendarDay, oggiIso } from '../../src/shared/dates.ts';
import { richiestaVuota, verificaRichiesta } from '../../src/shared/rca/richiesta.ts';

describe('calendar days', () => {
  it('accepts real days, leap days of leap years only', () => {
    expect(isCalendarDate('2026-11-24')).toBe(true);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2100-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
  });

  it('refuses days Date.parse would shift, other shapes and other types', () => {
    for (const value of ['2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '2026-1-5', '2026-01-05T00:00:00Z', ' 2026-01-05', '', null, 20260105]) {
      expect(isCalendarDate(value), String(value)).toBe(false);
    }
    expect(isCalendarDay(2026, 4, 31)).toBe(false);
    expect(isCalendarDay(2026, 4, 30)).toBe(true);
  });

  it('shows a wire day the Italian way and nothing for anything else', () => {
    expect(dataItaliana('2026-03-07')).toBe('07/03/2026');
    expect(dataItaliana('2026-03-07T10:00:00Z')).toBe('');
    expect(dataItaliana(undefined)).toBe('');
  });
});

describe("the brokerage's day", () => {
  it('changes at midnight in Rome, whatever the machine zone (winter and summer time)', () => {
    expect(oggiIso(new Date('2026-11-27T22:59:59Z'))).toBe('2026-11-27');
    expect(oggiIso(new Date('2026-11-27T23:00:00Z'))).toBe('2026-11-28');
    expect(oggiIso(new Date('2026-07-01T21:59:59Z'))).toBe('2026-07-01');
    expect(oggiIso(new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });

  it("a fast quotation made between 23:00 UTC and midnight starts on Rome's day, which step 2 accepts", () => {
    const now = new Date('2026-11-27T23:30:00Z');
    const request = richiestaVuota(oggiIso(now)) as { fastFlowData: { effectDate: string } };
    expect(request.fastFlowData.effectDate).toBe('2026-11-28');
    expect(verificaRichiesta(request, oggiIso(now))['fastFlowData.effectDate']).toBeUndefined();
  });
});

// The one date input's own check (src/client/widgets/inputs.tsx): what a person is told about a typed day.
import { describe, expect, it } from 'vitest';
import { dateProblem } from '../../src/client/widgets/inputs.tsx';

describe('dateProblem', () => {
  it('takes an empty text and a real day typed GG/MM/AAAA (also without leading zeros)', () => {
    expect(dateProblem('')).toBeUndefined();
    expect(dateProblem('28/02/2026')).toBeUndefined();
    expect(dateProblem('1/2/2026')).toBeUndefined();
  });

  it('names a day that does not exist or is not typed GG/MM/AAAA', () => {
    expect(dateProblem('31/02/2026')).toBe('Data non valida (GG/MM/AAAA)');
    expect(dateProblem('2026-02-01')).toBe('Data non valida (GG/MM/AAAA)');
    expect(dateProblem('02/30/2026')).toBe('Data non valida (GG/MM/AAAA)');
  });

  it('keeps to the bounds, naming them as a person reads them', () => {
    expect(dateProblem('29/11/2026', undefined, '2026-11-28')).toBe('La data non può essere successiva al 28/11/2026.');
    expect(dateProblem('27/11/2026', '2026-11-28')).toBe('La data non può essere precedente al 28/11/2026.');
    expect(dateProblem('28/11/2026', '2026-11-28', '2026-11-28')).toBeUndefined();
  });
});

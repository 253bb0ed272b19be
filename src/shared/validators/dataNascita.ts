// Validates a date of birth (YYYY-MM-DD) against the allowed range: 1923-01-01 to 31/12 of (this year - 17).
import { isCalendarDate } from '../dates.ts';

export function dataNascitaBounds(today: Date = new Date()): { min: string; max: string } {
  return { min: '1923-01-01', max: `${today.getFullYear() - 17}-12-31` };
}

export function isDataNascitaValida(value: string, today: Date = new Date()): boolean {
  if (typeof value !== 'string') return false;
  if (!isCalendarDate(value)) return false;
  // Zero-padded ISO dates order correctly as strings.
  const { min, max } = dataNascitaBounds(today);
  return value >= min && value <= max;
}

// Validates a date of birth (YYYY-MM-DD) against the allowed range: 1923-01-01 to 31/12 of (this year - 17).

export function dataNascitaBounds(today: Date = new Date()): { min: string; max: string } {
  return { min: '1923-01-01', max: `${today.getFullYear() - 17}-12-31` };
}

export function isDataNascitaValida(value: string, today: Date = new Date()): boolean {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  // Round-trip through UTC to reject dates such as 2001-02-30.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  // Zero-padded ISO dates order correctly as strings.
  const { min, max } = dataNascitaBounds(today);
  return value >= min && value <= max;
}

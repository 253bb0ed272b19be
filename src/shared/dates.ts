// Calendar days as the wire carries them (YYYY-MM-DD), one check for server and client.

/** YYYY-MM-DD naming a day of the calendar: 2026-02-30, which Date.parse would shift to 2 March, does not. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Year, month (1-12) and day form a real day: the UTC round trip refuses 31 April and 29 February of common years. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** YYYY-MM-DD → DD/MM/YYYY; anything else → ''. */
export function dataItaliana(value: unknown): string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value.split('-').reverse().join('/') : '';
}

/** Today as YYYY-MM-DD in Rome: the brokerage's day changes at midnight Italian time, whatever the machine's zone. */
export function oggiIso(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The calendar day `days` after `from` (before, when negative), as YYYY-MM-DD. */
export function giornoIso(days: number, from = oggiIso()): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

// Italian display formats (spec 000 §9): dates DD/MM/YYYY, money in it-IT euro with 2 decimals.
import { isCalendarDay } from '../../shared/dates.ts';

// CLDR leaves 4-digit Italian amounts ungrouped (1234,50); accounting wants 1.234,50 always.
const money = new Intl.NumberFormat('it-IT', {
  style: 'currency',
  currency: 'EUR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: 'always',
} as Intl.NumberFormatOptions);

/** YYYY-MM-DD (or an ISO timestamp) → DD/MM/YYYY; anything else is shown as it is. */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
  return match ? `${match[3]}/${match[2]}/${match[1]}` : String(value);
}

/** ISO timestamp → DD/MM/YYYY HH:mm in the browser's time zone. */
export function formatDateTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** DD/MM/YYYY (also D/M/YYYY) → YYYY-MM-DD, or null when it is not a real calendar date. */
export function parseItalianDate(text: string): string | null {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isCalendarDay(year, month, day)) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function formatMoney(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? money.format(n) : String(value);
}

/** Currency input (spec 000 §5): a comma counts as the decimal dot; returns null when not a number. */
export function parseDecimal(text: string): number | null {
  const normalised = text.trim().replace(/,/g, '.');
  if (!/^-?\d+(\.\d*)?$|^-?\.\d+$/.test(normalised)) return null;
  return Number(normalised);
}

/** Fills "{nome} {cognome}" from a record; missing values become empty and spaces collapse. */
export function fillTemplate(template: string, record: Record<string, unknown>): string {
  return template
    .replace(/\{([^}]+)\}/g, (_, key: string) => {
      const value = key
        .split('.')
        .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), record);
      return value === null || value === undefined ? '' : String(value);
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** ISTAT municipality codes travel as 6-digit zero-padded strings (spec 000 §3.7). */
export function padIstat(value: string | number): string {
  return String(value).replace(/\D/g, '').padStart(6, '0').slice(-6);
}

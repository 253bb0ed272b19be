// AG Grid cell renderers for list.json formats: date, datetime, money, boolean, chip (by value or by thresholds).
import type { JsonSchema, ListColumn } from '../types.ts';
import { formatDate, formatDateTime, formatMoney } from '../lib/format.ts';

export interface CellProps {
  value: unknown;
  column?: ListColumn;
  /** Option titles of an enum field (v → Verde), when the schema gives them. */
  titles?: Map<unknown, string>;
  /** The whole row (AG Grid passes it), for cells that show more than their own value. */
  data?: Record<string, unknown>;
  /** The column's property and the resource's schema: titles of what a cell shows besides its value. */
  prop?: JsonSchema;
  schema?: JsonSchema;
}

export const DateCell = ({ value }: CellProps) => <>{formatDate(value)}</>;
export const DateTimeCell = ({ value }: CellProps) => <>{formatDateTime(value)}</>;
export const MoneyCell = ({ value }: CellProps) => <span className="font-monospace">{formatMoney(value)}</span>;

export function BooleanCell({ value }: CellProps) {
  if (value === null || value === undefined || value === '') return null;
  const yes = value === true || value === 1 || value === '1';
  return <span className={`badge rounded-pill ${yes ? 'text-bg-success' : 'text-bg-light border'}`}>{yes ? 'Sì' : 'No'}</span>;
}

// Colour names an analyst may write in list.json, mapped to Bootstrap contextual colours.
const CHIP_COLOURS: Record<string, string> = {
  verde: 'success',
  green: 'success',
  success: 'success',
  giallo: 'warning',
  yellow: 'warning',
  arancione: 'warning',
  orange: 'warning',
  warning: 'warning',
  rosso: 'danger',
  red: 'danger',
  danger: 'danger',
  blu: 'primary',
  blue: 'primary',
  primary: 'primary',
  azzurro: 'info',
  info: 'info',
  grigio: 'secondary',
  grey: 'secondary',
  gray: 'secondary',
  secondary: 'secondary',
};

export function chipVariant(column: ListColumn | undefined, value: unknown): string {
  const colour = column?.chips?.[String(value)] ?? column?.chips?.['*'];
  return (colour && CHIP_COLOURS[colour.toLowerCase()]) ?? 'secondary';
}

/** An array column with "chips": one chip per item, named by itemKey, coloured by the value at itemValue. */
function ItemChips({ items, column }: { items: Array<Record<string, unknown>>; column: ListColumn }) {
  return (
    <span className="d-inline-flex flex-wrap gap-1">
      {items.map((item, i) => {
        const state = item?.[column.itemValue ?? 'value'];
        const name = String(item?.[column.itemKey ?? 'nome'] ?? '');
        return (
          <span key={`${name}-${i}`} className={`badge rounded-pill text-bg-${chipVariant(column, state)}`} data-chip={name} data-state={String(state ?? '')}>
            {name}: {String(state ?? '')}
          </span>
        );
      })}
    </span>
  );
}

const LEVELS: Record<string, string> = { success: 'verde', warning: 'arancione', danger: 'rosso' };
const decimal = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });

/** list.json "thresholds": [green from, orange from]; below both red; no colour for a value that is not a number. */
export function thresholdVariant(limits: [number, number] | undefined, value: unknown): string | undefined {
  if (!limits || value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return undefined;
  return n >= limits[0] ? 'success' : n >= limits[1] ? 'warning' : 'danger';
}

/** One chip per threshold key, in the order list.json declares them: a scalar uses '*', an array its items' itemKey. */
function ThresholdChips({ value, column }: { value: unknown; column: ListColumn }) {
  const thresholds = column.thresholds ?? {};
  const items = Array.isArray(value)
    ? (value as Array<Record<string, unknown>>).map((item) => ({ key: String(item?.[column.itemKey ?? 'nome'] ?? ''), value: item?.[column.itemValue ?? 'value'] }))
    : [{ key: '*', value }];
  const order = Object.keys(thresholds);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const chips = items.filter((item) => item.value !== null && item.value !== undefined && item.value !== '').sort((a, b) => rank(a.key) - rank(b.key));
  return (
    <span className="d-inline-flex flex-nowrap gap-1">
      {chips.map((item) => {
        const variant = thresholdVariant(thresholds[item.key] ?? thresholds['*'], item.value) ?? 'secondary';
        const number = typeof item.value === 'number' ? decimal.format(item.value) : String(item.value);
        return (
          <span key={item.key} className={`badge rounded-pill text-bg-${variant}`} data-chip={item.key}>
            {item.key === '*' ? number : `${item.key} ${number}`}
            {/* The colour carries meaning: say it for those who cannot see it. */}
            <span className="visually-hidden"> ({LEVELS[variant] ?? 'nessuna soglia'})</span>
          </span>
        );
      })}
    </span>
  );
}

export function ChipCell({ value, column, titles }: CellProps) {
  if (value === null || value === undefined || value === '') return null;
  if (column?.thresholds) return <ThresholdChips value={value} column={column} />;
  if (Array.isArray(value) && column) return <ItemChips items={value as Array<Record<string, unknown>>} column={column} />;
  const variant = chipVariant(column, value);
  // text-bg-* picks a text colour with enough contrast for each background.
  return <span className={`badge rounded-pill text-bg-${variant}`}>{titles?.get(value) ?? String(value)}</span>;
}

// AG Grid cell renderers for list.json formats: date, datetime, money, boolean, chip.
import type { ListColumn } from '../types.ts';
import { formatDate, formatDateTime, formatMoney } from '../lib/format.ts';

export interface CellProps {
  value: unknown;
  column?: ListColumn;
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
  verde: 'success', green: 'success', success: 'success',
  giallo: 'warning', yellow: 'warning', arancione: 'warning', orange: 'warning', warning: 'warning',
  rosso: 'danger', red: 'danger', danger: 'danger',
  blu: 'primary', blue: 'primary', primary: 'primary',
  azzurro: 'info', info: 'info',
  grigio: 'secondary', grey: 'secondary', gray: 'secondary', secondary: 'secondary',
};

export function chipVariant(column: ListColumn | undefined, value: unknown): string {
  const colour = column?.chips?.[String(value)] ?? column?.chips?.['*'];
  return (colour && CHIP_COLOURS[colour.toLowerCase()]) ?? 'secondary';
}

export function ChipCell({ value, column }: CellProps) {
  if (value === null || value === undefined || value === '') return null;
  const variant = chipVariant(column, value);
  // Dark text on the light variants keeps the contrast above 4.5:1.
  return <span className={`badge rounded-pill text-bg-${variant}`}>{String(value)}</span>;
}

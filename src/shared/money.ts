// Money in integer cents: euro amounts enter and leave as numbers with two decimals, sums never drift.

export function toCents(euro: number | string | null | undefined): number {
  if (euro === null || euro === undefined || euro === '') return 0;
  const value = typeof euro === 'string' ? Number(euro.replace(',', '.')) : euro;
  if (!Number.isFinite(value)) throw new Error(`not an amount: ${String(euro)}`);
  return Math.round(value * 100);
}

export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

const EURO = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatEuro(euro: number | null | undefined): string {
  return euro === null || euro === undefined ? '' : EURO.format(euro);
}

// A year up to the current one ("x-anno-corrente"): the bound is read when a value is judged, never written in a schema.

export function annoCorrente(today: Date = new Date()): number {
  return today.getFullYear();
}

/** A whole year from `min` (the schema's minimum, when it has one) to the current year. */
export function isAnnoValido(value: unknown, min?: number, today: Date = new Date()): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value <= annoCorrente(today) && (min === undefined || value >= min);
}

/** One message for every way a year can be wrong (not a number, too old, in the future), with today's bounds. */
export function annoMessage(min?: number, today: Date = new Date()): string {
  return min === undefined ? `Inserisci un anno valido, fino al ${annoCorrente(today)}` : `Inserisci un anno valido, dal ${min} al ${annoCorrente(today)}`;
}

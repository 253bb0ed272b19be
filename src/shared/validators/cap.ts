// Validates the Italian CAP (postal code).

export function isCap(value: string): boolean {
  return typeof value === 'string' && /^\d{5}$/.test(value);
}

// Validates phone numbers: any international number, and the public-facing Italian format. Both read a number as
// normalizeTelefono leaves it, so '+39 333 1112233' typed on a staff screen is the same number on the customer's link.

/** Spaces (of any kind, anywhere) removed: how a phone number is stored and compared. */
export function normalizeTelefono(value: string): string {
  return value.replace(/\s+/gu, '');
}

/** '+', an international prefix (never starting with 0), then the number: 6-15 digits in total (E.164). */
export function isTelefonoInternazionale(value: string): boolean {
  return typeof value === 'string' && /^\+[1-9]\d{5,14}$/.test(normalizeTelefono(value));
}

/** Exactly '+39' followed by 4-12 digits, once spaces are removed. */
export function isTelefonoPubblico(value: string): boolean {
  return typeof value === 'string' && /^\+39\d{4,12}$/.test(normalizeTelefono(value));
}

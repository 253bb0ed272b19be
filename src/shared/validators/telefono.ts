// Validates phone numbers: any international number, and the public-facing Italian format.

/**
 * '+', an international prefix of 1-3 digits (never starting with 0), then the number;
 * 6-15 digits in total (E.164). Single spaces may separate groups: when they do, the first
 * group is the prefix, so '+1234 555' is rejected. The compact form '+393331234567' is accepted.
 */
export function isTelefonoInternazionale(value: string): boolean {
  if (typeof value !== 'string' || !/^\+[1-9]\d*(?: \d+)*$/.test(value)) return false;
  const groups = value.slice(1).split(' ');
  if (groups.length > 1 && groups[0].length > 3) return false;
  const digits = groups.join('').length;
  return digits >= 6 && digits <= 15;
}

/** Exactly '+39' followed by 4-12 digits, no spaces. */
export function isTelefonoPubblico(value: string): boolean {
  return typeof value === 'string' && /^\+39\d{4,12}$/.test(value);
}

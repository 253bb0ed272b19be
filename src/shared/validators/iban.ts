// Validates IBANs (ISO 13616): country length, Italian BBAN layout, mod-97 check.

// Total IBAN length per country; unknown countries fall back to 15..34.
const IBAN_LENGTHS: Record<string, number> = {
  IT: 27, SM: 27, DE: 22, FR: 27, ES: 24, GB: 22, CH: 21, AT: 20,
  BE: 16, NL: 18, PT: 25, LU: 20, IE: 22, VA: 22, MC: 27,
};

// IT and SM share the layout: CIN letter, 5-digit ABI, 5-digit CAB, 12-char account.
const ITALIAN_BBAN = /^[A-Z]\d{10}[A-Z0-9]{12}$/;

/** Remainder mod 97 of the rearranged IBAN, digit by digit so it never exceeds safe integers. */
function mod97(rearranged: string): number {
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    if (code >= 48 && code <= 57) {
      remainder = (remainder * 10 + (code - 48)) % 97;
    } else {
      // A=10 ... Z=35: two decimal digits.
      remainder = (remainder * 100 + (code - 55)) % 97;
    }
  }
  return remainder;
}

export function isIban(value: string): boolean {
  if (typeof value !== 'string') return false;
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const country = iban.slice(0, 2);
  const expected = IBAN_LENGTHS[country];
  if (expected !== undefined ? iban.length !== expected : iban.length < 15 || iban.length > 34) return false;
  if ((country === 'IT' || country === 'SM') && !ITALIAN_BBAN.test(iban.slice(4))) return false;
  // 00, 01 and 99 are never issued (01 and 98 would both satisfy mod 97).
  const check = iban.slice(2, 4);
  if (check === '00' || check === '01' || check === '99') return false;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

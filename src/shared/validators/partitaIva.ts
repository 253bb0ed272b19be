// Validates the Italian partita IVA (11 digits, Luhn-like check digit); also the check for companies' codice fiscale.

/** Check digit of the first 10 digits: odd positions (1-based) add, even positions double minus 9. */
export function partitaIvaCheckDigit(first10: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const digit = first10.charCodeAt(i) - 48;
    if (i % 2 === 0) {
      sum += digit;
    } else {
      const doubled = digit * 2;
      sum += doubled > 9 ? doubled - 9 : doubled;
    }
  }
  return (10 - (sum % 10)) % 10;
}

export function isPartitaIva(value: string): boolean {
  if (typeof value !== 'string' || !/^\d{11}$/.test(value)) return false;
  // All zeros passes the checksum but is never issued.
  if (value === '00000000000') return false;
  return partitaIvaCheckDigit(value) === value.charCodeAt(10) - 48;
}

// Validates and decodes the Italian codice fiscale (16-char natural persons, incl. omocodia; 11-digit legal persons).
import { isPartitaIva } from './partitaIva.ts';

const MONTH_LETTERS = 'ABCDEHLMPRST';
// Omocodia substitutes digits 0-9 with these letters.
const OMOCODIA_LETTERS = 'LMNPQRSTUV';
// 0-based indexes of the 7 positions that are digits in a non-omocodic code.
const NUMERIC_POSITIONS = [6, 7, 9, 10, 12, 13, 14];

// Official values for characters in odd (1-based) positions, indexed by 0-9 then A-Z.
const ODD_VALUES_DIGITS = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
const ODD_VALUES_LETTERS = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];

// Letters in omocodic positions are accepted here; the place code's first char must stay a letter.
const STRUCTURE = /^[A-Z]{6}[0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{3}[A-Z]$/;

function charValue(ch: string, odd: boolean): number {
  const code = ch.charCodeAt(0);
  const isDigit = code >= 48 && code <= 57;
  if (odd) return isDigit ? ODD_VALUES_DIGITS[code - 48] : ODD_VALUES_LETTERS[code - 65];
  return isDigit ? code - 48 : code - 65;
}

/** Check character for the first 15 characters (uppercase, already structurally valid). */
export function codiceFiscaleCheckChar(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    // Index 0 is position 1, which is odd.
    sum += charValue(first15[i], i % 2 === 0);
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** Replaces omocodia letters with their digits in the numeric positions. */
function deOmocodify(cf: string): string {
  const chars = cf.split('');
  for (const pos of NUMERIC_POSITIONS) {
    const idx = OMOCODIA_LETTERS.indexOf(chars[pos]);
    if (idx >= 0) chars[pos] = String(idx);
  }
  return chars.join('');
}

function normalize(value: string): string {
  return typeof value === 'string' ? value.trim().toUpperCase() : '';
}

/** Parses a normalized 16-char code; null when structure, month, day or check char is wrong. */
function parsePersonCode(cf: string): { yy: number; month: number; day: number; sesso: 'M' | 'F'; codiceCatastale: string } | null {
  if (!STRUCTURE.test(cf)) return null;
  if (codiceFiscaleCheckChar(cf) !== cf[15]) return null;
  const plain = deOmocodify(cf);
  const month = MONTH_LETTERS.indexOf(plain[8]) + 1;
  if (month === 0) return null;
  const rawDay = Number(plain.slice(9, 11));
  // Women have 40 added to the day of birth.
  const sesso = rawDay > 40 ? 'F' : 'M';
  const day = sesso === 'F' ? rawDay - 40 : rawDay;
  if (day < 1 || day > 31) return null;
  return { yy: Number(plain.slice(6, 8)), month, day, sesso, codiceCatastale: plain.slice(11, 15) };
}

/**
 * True for a valid 16-char personal code or an 11-digit legal-person code.
 * The day is only range-checked (1-31 / 41-71), as the format defines it.
 */
export function isCodiceFiscale(value: string): boolean {
  const cf = normalize(value);
  if (cf.length === 11) return isPartitaIva(cf);
  if (cf.length !== 16) return false;
  return parsePersonCode(cf) !== null;
}

export interface CodiceFiscaleData {
  /** YYYY-MM-DD */
  birthDate: string;
  sesso: 'M' | 'F';
  /** Place code with omocodia removed, e.g. H501. */
  codiceCatastale: string;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function isRealDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * Decodes a 16-char personal code. The century is the most recent one that puts the birth
 * date on or before `today`, so the person is at most 100 years old. Null if invalid,
 * including non-existent dates such as 30 February.
 */
export function decodeCodiceFiscale(value: string, today: Date = new Date()): CodiceFiscaleData | null {
  const cf = normalize(value);
  if (cf.length !== 16) return null;
  const parsed = parsePersonCode(cf);
  if (!parsed) return null;
  const { yy, month, day } = parsed;
  // Compare as strings in local time, like the rest of the validators.
  const todayIso = `${pad(today.getFullYear(), 4)}-${pad(today.getMonth() + 1, 2)}-${pad(today.getDate(), 2)}`;
  const mmdd = `${pad(month, 2)}-${pad(day, 2)}`;
  const currentCentury = today.getFullYear() - (today.getFullYear() % 100);
  let year = currentCentury + yy;
  if (`${pad(year, 4)}-${mmdd}` > todayIso) year -= 100;
  if (!isRealDate(year, month, day)) return null;
  return { birthDate: `${pad(year, 4)}-${mmdd}`, sesso: parsed.sesso, codiceCatastale: parsed.codiceCatastale };
}

/** Personal data from which a 16-char codice fiscale is computed. */
export interface CodiceFiscaleInput {
  cognome: string;
  nome: string;
  /** YYYY-MM-DD */
  dataNascita: string;
  sesso: 'M' | 'F';
  /** Cadastral (Belfiore) code of the birth place, e.g. H501; Z-codes for foreign countries. */
  codiceCatastale: string;
}

const VOWELS = 'AEIOU';
// Apostrophes (incl. typographic ones), hyphens/dashes and whitespace are not part of the name.
const IGNORED_NAME_CHARS = /[\s'’‘`´ʼ\-‐‑–—]/g;

/** Folds accents (À→A, È/É→E, ...), drops ignored separators, uppercases; throws on other symbols. */
function nameLetters(value: string, field: string): string {
  if (typeof value !== 'string') throw new Error(`${field} must be a string`);
  const letters = value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(IGNORED_NAME_CHARS, '')
    .toUpperCase();
  if (letters === '') throw new Error(`${field} must contain at least one letter`);
  if (!/^[A-Z]+$/.test(letters)) throw new Error(`${field} contains characters that are not letters: "${value}"`);
  return letters;
}

function splitLetters(letters: string): { consonants: string; vowels: string } {
  let consonants = '';
  let vowels = '';
  for (const ch of letters) {
    if (VOWELS.includes(ch)) vowels += ch;
    else consonants += ch;
  }
  return { consonants, vowels };
}

/** Consonants, then vowels, then X padding; first 3 characters. */
function surnameCode(cognome: string): string {
  const { consonants, vowels } = splitLetters(nameLetters(cognome, 'cognome'));
  return (consonants + vowels + 'XXX').slice(0, 3);
}

/** With 4+ consonants the 1st, 3rd and 4th; otherwise as for the surname. */
function firstNameCode(nome: string): string {
  const { consonants, vowels } = splitLetters(nameLetters(nome, 'nome'));
  if (consonants.length >= 4) return consonants[0] + consonants[2] + consonants[3];
  return (consonants + vowels + 'XXX').slice(0, 3);
}

/** The first 15 characters (no omocodia) for the given data; throws on malformed input. */
function computeFirst15(input: CodiceFiscaleInput): string {
  if (input === null || typeof input !== 'object') throw new Error('input must be an object');
  const { dataNascita, sesso } = input;
  const dateMatch = typeof dataNascita === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(dataNascita) : null;
  if (!dateMatch) throw new Error(`dataNascita must be a date in YYYY-MM-DD format, got "${String(dataNascita)}"`);
  const year = Number(dateMatch[1]);
  const month = Number(dateMatch[2]);
  const day = Number(dateMatch[3]);
  if (month < 1 || month > 12 || day < 1 || !isRealDate(year, month, day)) {
    throw new Error(`dataNascita is not an existing date: "${dataNascita}"`);
  }
  if (sesso !== 'M' && sesso !== 'F') throw new Error(`sesso must be "M" or "F", got "${String(sesso)}"`);
  const codiceCatastale = typeof input.codiceCatastale === 'string' ? input.codiceCatastale.trim().toUpperCase() : '';
  if (!/^[A-Z][0-9]{3}$/.test(codiceCatastale)) {
    throw new Error(`codiceCatastale must be a letter followed by 3 digits (e.g. H501), got "${String(input.codiceCatastale)}"`);
  }
  return (
    surnameCode(input.cognome) +
    firstNameCode(input.nome) +
    pad(year % 100, 2) +
    MONTH_LETTERS[month - 1] +
    // Women have 40 added to the day of birth.
    pad(sesso === 'F' ? day + 40 : day, 2) +
    codiceCatastale
  );
}

/**
 * Computes the (non-omocodic) 16-char codice fiscale from personal data.
 * Throws an Error on malformed input: bad or non-existent date, bad cadastral code,
 * bad sesso, or a name/surname with no letters or with characters other than letters,
 * spaces, apostrophes and hyphens.
 */
export function computeCodiceFiscale(input: CodiceFiscaleInput): string {
  const first15 = computeFirst15(input);
  return first15 + codiceFiscaleCheckChar(first15);
}

/**
 * True when `cf` is a valid 16-char personal code (check char included, omocodic variants
 * accepted) whose first 15 characters, once de-omocodified, are those computed from `data`.
 * Returns false for a malformed `cf`; throws like computeCodiceFiscale for malformed `data`.
 */
export function codiceFiscaleMatches(cf: string, data: CodiceFiscaleInput): boolean {
  const expected = computeFirst15(data);
  const code = normalize(cf);
  if (code.length !== 16 || parsePersonCode(code) === null) return false;
  return deOmocodify(code).slice(0, 15) === expected;
}

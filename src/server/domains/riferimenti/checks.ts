// The "x-codice-fiscale" record check: warns when a codice fiscale does not match the person's own data.
import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { codiceFiscaleMatches } from '../../../shared/validators/codiceFiscale.ts';

export const CF_MISMATCH_MESSAGE = 'Il codice fiscale non corrisponde ai dati anagrafici inseriti.';

/** Root annotation of an entity schema: which property holds each datum. comune and nazione are optional. */
interface CodiceFiscaleFields {
  cf: string;
  nome: string;
  cognome: string;
  dataNascita: string;
  sesso: string;
  /** ISTAT code of the birth municipality (6 digits), looked up in ref_comune. */
  comune?: string;
  /** Birth country id (src/shared/validators/nazione.ts): its cadastral code when no municipality is given. */
  nazione?: string;
}

function fieldsOf(config: unknown): CodiceFiscaleFields {
  const c = config as Record<string, unknown> | null;
  const required = ['cf', 'nome', 'cognome', 'dataNascita', 'sesso'] as const;
  if (!c || typeof c !== 'object' || required.some((k) => typeof c[k] !== 'string')) {
    throw new Error(`x-codice-fiscale needs the property names of ${required.join(', ')} (and optionally comune, nazione)`);
  }
  return c as unknown as CodiceFiscaleFields;
}

function textOf(record: Record<string, unknown>, field: string | undefined): string | undefined {
  const value = field ? record[field] : undefined;
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function birthPlaceCode(trx: Transaction<any>, comune: string | undefined, nazione: string | undefined): Promise<string | undefined> {
  if (comune) {
    const row = await sql<{ code: string }>`SELECT codice_catastale AS code FROM ref_comune WHERE codice = ${comune}`.execute(trx);
    return row.rows[0]?.code;
  }
  // '1' (Italy) needs the municipality and '2' names no country: only a country's own code is compared.
  if (nazione && /^Z\d{3}$/.test(nazione)) {
    const row = await sql<{ code: string }>`SELECT codice_catastale AS code FROM ref_luogo WHERE codice_catastale = ${nazione}`.execute(trx);
    return row.rows[0]?.code;
  }
  return undefined;
}

/** This file's registrations, called by the domain's plugin (index.ts). */
export function register(app: FastifyInstance): void {
  app.extensions.recordCheck('x-codice-fiscale', async (config, record, trx) => {
    const f = fieldsOf(config);
    const cf = textOf(record, f.cf);
    const nome = textOf(record, f.nome);
    const cognome = textOf(record, f.cognome);
    const dataNascita = textOf(record, f.dataNascita);
    const sesso = textOf(record, f.sesso);
    // Only a personal (16-character) code encodes the data; companies' 11-digit codes and missing data are not checked.
    if (!cf || cf.length !== 16 || !nome || !cognome || !dataNascita || (sesso !== 'M' && sesso !== 'F')) return {};
    const codiceCatastale = await birthPlaceCode(trx, textOf(record, f.comune), textOf(record, f.nazione));
    if (!codiceCatastale) return {};
    let matches: boolean;
    try {
      matches = codiceFiscaleMatches(cf, { nome, cognome, dataNascita, sesso, codiceCatastale });
    } catch {
      return {}; // a name without letters cannot be compared; validation of the name is not this check's job
    }
    return matches ? {} : { [f.cf]: [CF_MISMATCH_MESSAGE] };
  });
}

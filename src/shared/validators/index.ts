// Registry of the Italian field formats (validator + user-facing message) and re-exports of the validators.
import { isCodiceFiscale, decodeCodiceFiscale, codiceFiscaleCheckChar } from './codiceFiscale.ts';
import type { CodiceFiscaleData } from './codiceFiscale.ts';
import { isPartitaIva, partitaIvaCheckDigit } from './partitaIva.ts';
import { isIban } from './iban.ts';
import { isTelefonoInternazionale, isTelefonoPubblico, normalizeTelefono } from './telefono.ts';
import { isCap } from './cap.ts';
import { isNazioneId, NAZIONE_ESTERO, NAZIONE_ITALIA } from './nazione.ts';
import { dataNascitaBounds, isDataNascitaValida } from './dataNascita.ts';
import { annoCorrente, annoMessage, isAnnoValido } from './anno.ts';

export {
  isCodiceFiscale,
  decodeCodiceFiscale,
  codiceFiscaleCheckChar,
  isPartitaIva,
  partitaIvaCheckDigit,
  isIban,
  isTelefonoInternazionale,
  isTelefonoPubblico,
  normalizeTelefono,
  isCap,
  isNazioneId,
  NAZIONE_ITALIA,
  NAZIONE_ESTERO,
  dataNascitaBounds,
  isDataNascitaValida,
  annoCorrente,
  annoMessage,
  isAnnoValido,
};
export type { CodiceFiscaleData };

export interface ItalianFormat {
  validate: (value: string) => boolean;
  message: string;
  /** The stored form of a valid value (the server applies it to every field of this format before validating). */
  normalize?: (value: string) => string;
}

export const italianFormats: Record<string, ItalianFormat> = {
  'codice-fiscale': { validate: isCodiceFiscale, message: 'Codice fiscale non valido' },
  'partita-iva': { validate: isPartitaIva, message: 'Partita IVA non valida' },
  iban: { validate: isIban, message: 'IBAN non valido' },
  telefono: {
    validate: isTelefonoInternazionale,
    message: 'Il numero di telefono deve avere un prefisso internazionale valido',
    normalize: normalizeTelefono,
  },
  'telefono-pubblico': { validate: isTelefonoPubblico, message: 'Formato telefono non valido', normalize: normalizeTelefono },
  cap: { validate: isCap, message: 'Il CAP deve essere di 5 cifre' },
  nazione: { validate: isNazioneId, message: 'Nazione non valida: sceglila dall\'elenco' },
};

/** The upper bound moves every year, so the message is built from `today`. */
export function dataNascitaMessage(today: Date = new Date()): string {
  return `La data di nascita deve essere compresa tra il 01/01/1923 e il 31/12/${today.getFullYear() - 17}`;
}

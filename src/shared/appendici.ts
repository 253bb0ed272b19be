// Amounts of inclusion and exclusion appendices (spec 001 §3, §4, §9), in integer cents.

/** Default issue fee of an inclusion appendix (spec 001 §9): 15 euro. */
export const SPESE_EMISSIONE_PREDEFINITE_CENTESIMI = 1500;

const GIORNO = 86_400_000;
const giorni = (da: string, a: string) => Math.round((Date.parse(`${a}T00:00:00Z`) - Date.parse(`${da}T00:00:00Z`)) / GIORNO);

/** The policy year that contains a date: from decorrenza to the same day a year later. */
export function scadenzaAnnua(decorrenza: string): string {
  const d = new Date(`${decorrenza}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The share of a yearly premium for the days from the appendix's effect date to the policy's expiry,
 * rounded to the cent. An effect date outside the policy period is refused by the caller.
 */
export function rateoCentesimi(premioAnnuoCentesimi: number, dataEffetto: string, decorrenza: string, scadenza: string): number {
  const anno = giorni(decorrenza, scadenza);
  const residui = Math.max(0, Math.min(anno, giorni(dataEffetto, scadenza)));
  return anno <= 0 ? 0 : Math.round((premioAnnuoCentesimi * residui) / anno);
}

/** Whether an appendix date falls in the policy period (from decorrenza, before expiry). */
export function dataNelPeriodo(dataEffetto: string, decorrenza: string, scadenza: string): boolean {
  return dataEffetto >= decorrenza && dataEffetto < scadenza;
}

export interface ImportiInclusione {
  competenze_centesimi: number;
  spese_emissione_centesimi: number;
  premio_verti_centesimi: number;
}

/** Inclusion total = competenze + issue fee + insurer premium (spec 001 §4). */
export function totaleInclusione(importi: ImportiInclusione): number {
  for (const [nome, valore] of Object.entries(importi)) {
    if (!Number.isInteger(valore)) throw new Error(`${nome} non è un importo in centesimi`);
  }
  return importi.competenze_centesimi + importi.spese_emissione_centesimi + importi.premio_verti_centesimi;
}

// Policy money in integer cents (spec 002 §2.3, §3.2): gross premium, instalment split and periods, commission panel.
// Pure and isomorphic: the server stores what these functions answer, the form shows the same numbers as the user types.

/** Euro (number or "12,50" text) to integer cents; empty is 0. Half a cent rounds away from zero. */
export function centesimi(euro: number | string | null | undefined): number {
  if (euro === null || euro === undefined || euro === '') return 0;
  const value = typeof euro === 'string' ? Number(euro.replace(',', '.')) : euro;
  if (!Number.isFinite(value)) return 0;
  // toFixed(3) first: 0.285 * 100 is 28.499999..., its decimal text is what the user typed.
  const scaled = Number((Math.abs(value) * 100).toFixed(3));
  return Math.sign(value) * Math.round(scaled);
}

export function euro(cents: number): number {
  return Math.round(cents) / 100;
}

export interface ImportiPolizza {
  competenze?: number | string | null;
  totale_premio_imponibile?: number | string | null;
  totale_premio_imposte?: number | string | null;
  diritti?: number | string | null;
  spese?: number | string | null;
}

export const CAMPI_PREMIO_LORDO = ['competenze', 'totale_premio_imponibile', 'totale_premio_imposte', 'diritti', 'spese'] as const;

/** Gross premium in cents: competenze + imponibile + imposte + diritti + spese, each rounded to the cent first. */
export function premioLordoCents(importi: ImportiPolizza): number {
  return CAMPI_PREMIO_LORDO.reduce((sum, field) => sum + centesimi(importi[field]), 0);
}

/** Gross premium in euro with two decimals (the value of totale_premio_lordo). */
export function premioLordo(importi: ImportiPolizza): number {
  return euro(premioLordoCents(importi));
}

/** Splits cents into n parts that add up exactly; the remainder goes to the first part. */
export function ripartisci(totalCents: number, n: number): number[] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`numero di rate non valido: ${n}`);
  const sign = totalCents < 0 ? -1 : 1;
  const abs = Math.abs(Math.round(totalCents));
  const base = Math.floor(abs / n);
  const parts = Array.from({ length: n }, () => base * sign);
  parts[0] = (base + (abs - base * n)) * sign;
  return parts;
}

export interface Frazionamento {
  codice: string;
  /** Months between two instalments; null = one premium for the whole duration (UNICO). */
  mesi: number | null;
}

/** YYYY-MM-DD plus months, the day clamped to the month's length (31/01 + 1 month = 28/02 or 29/02). */
export function aggiungiMesi(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface Periodo {
  numero_rata: number;
  data_inizio: string;
  data_fine: string;
}

export const MAX_RATE = 120;

/** Instalment periods from the effective date to the expiry: one every `mesi` months, the last cut at the expiry. */
export function periodi(dataInizio: string, dataFine: string, frazionamento: Frazionamento): Periodo[] {
  if (!(dataFine > dataInizio)) throw new Error('la scadenza deve seguire la data di effetto');
  if (!frazionamento.mesi) return [{ numero_rata: 1, data_inizio: dataInizio, data_fine: dataFine }];
  const out: Periodo[] = [];
  for (let i = 0; ; i++) {
    const start = aggiungiMesi(dataInizio, i * frazionamento.mesi);
    if (start >= dataFine) break;
    if (out.length >= MAX_RATE) throw new Error(`più di ${MAX_RATE} rate`);
    const end = aggiungiMesi(dataInizio, (i + 1) * frazionamento.mesi);
    out.push({ numero_rata: i + 1, data_inizio: start, data_fine: end < dataFine ? end : dataFine });
  }
  return out;
}

/** The amounts of one instalment, in cents. */
export interface RataCents {
  competenze: number;
  imponibile: number;
  imposte: number;
  diritti: number;
  spese: number;
  /** Gross premium of the instalment: the sum of the five above. */
  premio: number;
}

/** Each amount of the policy split over n instalments (remainder on the first), so every column adds up to the cent. */
export function rate(importi: ImportiPolizza, n: number): RataCents[] {
  const split = {
    competenze: ripartisci(centesimi(importi.competenze), n),
    imponibile: ripartisci(centesimi(importi.totale_premio_imponibile), n),
    imposte: ripartisci(centesimi(importi.totale_premio_imposte), n),
    diritti: ripartisci(centesimi(importi.diritti), n),
    spese: ripartisci(centesimi(importi.spese), n),
  };
  return Array.from({ length: n }, (_, i) => {
    const r = { competenze: split.competenze[i]!, imponibile: split.imponibile[i]!, imposte: split.imposte[i]!, diritti: split.diritti[i]!, spese: split.spese[i]! };
    return { ...r, premio: r.competenze + r.imponibile + r.imposte + r.diritti + r.spese };
  });
}

// ---- Commission panel ('Calcolo Premio' and 'Calcolo Provv. Su Netto e Competenze') ----

export type TipoProvvigione = 'PERC_IMPONIBILE' | 'PERC_RETROCESSIONE';

export interface InputProvvigioni {
  /** Amounts in cents. */
  totale_netto: number;
  diritti: number;
  accessori: number;
  spese: number;
  imposte: number;
  ssn: number;
  spese_emissione: number;
  competenze: number;
  /** The mandate product's percentuale_provvigione_attiva (broker's commission on the net). */
  perc_provvigioni_attive: number;
  /** The supplier's percentRitenuta (4.6 or 11.5); none = no withholding. */
  perc_ritenuta: number | null;
  /** The collaborator's commission for the product's sector, and on what it is computed. */
  perc_provvigione_collaboratore: number;
  tipo_provvigione_collaboratore: TipoProvvigione;
  /** The collaborator's share of the competenze (percProvvigioneCompetenze). */
  perc_competenze_collaboratore: number;
}

export interface Provvigioni {
  premio_polizza: number;
  totale_cliente: number;
  provvigioni_attive: number;
  valore_ritenuta: number;
  provvigione_collaboratore: number;
  competenze_collaboratore: number;
  collaboratore_totale: number;
}

/** Percent of cents, rounded to the cent (half away from zero); percents keep up to 4 decimals. */
export function percentuale(cents: number, perc: number): number {
  return Math.round((cents * Math.round(perc * 10000)) / 1000000);
}

/**
 * premio_polizza      = totale_netto + accessori + imposte + ssn               (what the insurer charges)
 * totale_cliente      = premio_polizza + diritti + spese + spese_emissione + competenze
 * provvigioni_attive  = totale_netto × perc_provvigioni_attive %                (the broker's commission)
 * valore_ritenuta     = provvigioni_attive × perc_ritenuta %                    (withholding on the commission)
 * collaboratore       = PERC_IMPONIBILE: totale_netto × perc %; PERC_RETROCESSIONE: provvigioni_attive × perc %
 * competenze_collab.  = competenze × perc_competenze_collaboratore %
 * collaboratore_totale = collaboratore + competenze_collab.
 */
export function calcolaProvvigioni(input: InputProvvigioni): Provvigioni {
  const premio_polizza = input.totale_netto + input.accessori + input.imposte + input.ssn;
  const totale_cliente = premio_polizza + input.diritti + input.spese + input.spese_emissione + input.competenze;
  const provvigioni_attive = percentuale(input.totale_netto, input.perc_provvigioni_attive);
  const valore_ritenuta = input.perc_ritenuta ? percentuale(provvigioni_attive, input.perc_ritenuta) : 0;
  const base = input.tipo_provvigione_collaboratore === 'PERC_RETROCESSIONE' ? provvigioni_attive : input.totale_netto;
  const provvigione_collaboratore = percentuale(base, input.perc_provvigione_collaboratore);
  const competenze_collaboratore = percentuale(input.competenze, input.perc_competenze_collaboratore);
  return {
    premio_polizza,
    totale_cliente,
    provvigioni_attive,
    valore_ritenuta,
    provvigione_collaboratore,
    competenze_collaboratore,
    collaboratore_totale: provvigione_collaboratore + competenze_collaboratore,
  };
}

/** What the commission percentages come from (served by the policy domain for a product and collaborator). */
export interface ParametriProvvigioni {
  perc_provvigioni_attive: number;
  perc_ritenuta: number | null;
  perc_provvigione_collaboratore: number;
  tipo_provvigione_collaboratore: TipoProvvigione;
  perc_competenze_collaboratore: number;
}

export const PARAMETRI_VUOTI: ParametriProvvigioni = {
  perc_provvigioni_attive: 0,
  perc_ritenuta: null,
  perc_provvigione_collaboratore: 0,
  tipo_provvigione_collaboratore: 'PERC_IMPONIBILE',
  perc_competenze_collaboratore: 0,
};

/** The panel for one instalment (or the whole policy) from its amounts in cents and the percentages. */
export function provvigioniRata(r: RataCents, p: ParametriProvvigioni, extra: { accessori?: number; ssn?: number; spese_emissione?: number } = {}): Provvigioni {
  return calcolaProvvigioni({
    totale_netto: r.imponibile,
    diritti: r.diritti,
    accessori: extra.accessori ?? 0,
    spese: r.spese,
    imposte: r.imposte,
    ssn: extra.ssn ?? 0,
    spese_emissione: extra.spese_emissione ?? 0,
    competenze: r.competenze,
    ...p,
  });
}

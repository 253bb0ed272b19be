// The historic-car insurer's appendices (inclusion and exclusion of a vehicle on an issued policy, spec 001 §4, §7).
import type { ErroreCompagnia } from './emissione-types.ts';
import type { VeicoloDaQuotare } from './types.ts';

/** A vehicle priced for an appendix: the quotation's own vehicle shape, with its plate. */
export interface VeicoloAppendice extends VeicoloDaQuotare {
  targa: string;
}

export interface PeriodoPolizza {
  numero_polizza: string;
  /** The policy year: from decorrenza to scadenza (YYYY-MM-DD). */
  decorrenza: string;
  scadenza: string;
  provincia: string;
  minoreAnni: boolean;
}

export interface RichiestaCalcoloAppendice extends PeriodoPolizza {
  data_effetto: string;
  veicolo: VeicoloAppendice;
}

export type EsitoCalcoloAppendice =
  | { ok: true; premio_annuo_veicolo_centesimi: number; premio_centesimi: number }
  | { ok: false; Error: ErroreCompagnia[] };

export interface RichiestaAppendice extends RichiestaCalcoloAppendice {
  operazione: 'inclusione' | 'esclusione';
  /** For an inclusion the insurer premium of the period; for an exclusion the amount returned. */
  importo_centesimi: number;
  /** Our reference (the quotation), echoed by the insurer. */
  riferimento: string;
}

/** result 0 issued (numero_appendice), 1 warning (nothing issued), 2 error. */
export interface EsitoAppendice {
  result: 0 | 1 | 2;
  numero_appendice?: string;
  Error: ErroreCompagnia[];
}

export type RicercaAppendice = { trovata: false } | { trovata: true; esito: EsitoAppendice };

export interface AutoStoricheAppendici {
  calcolaInclusione(richiesta: RichiestaCalcoloAppendice): Promise<EsitoCalcoloAppendice>;
  calcolaEsclusione(richiesta: RichiestaCalcoloAppendice): Promise<EsitoCalcoloAppendice>;
  anteprima(richiesta: RichiestaAppendice): Promise<EsitoAppendice>;
  /** Issues once per key: the same key always answers the same appendix. */
  emetti(chiave: string, richiesta: RichiestaAppendice): Promise<EsitoAppendice>;
  cerca(chiave: string): Promise<RicercaAppendice>;
}

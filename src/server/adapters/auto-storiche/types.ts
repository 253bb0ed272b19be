// The historic-car insurer as the back office sees it; a sandbox and (later) an HTTP implementation satisfy it.

export interface VeicoloDaQuotare {
  marca: string;
  modello: string;
  anno: number;
  tipologia_ania?: string;
  /** The model's type name from the historic-car models (e.g. FUORISTRADA), for eligibility. */
  tipologia_modello?: string;
  /** Value in cents (the model's valore_b). */
  valore_centesimi: number;
  furto: boolean;
}

export interface RichiestaQuotazione {
  veicoli: VeicoloDaQuotare[];
  provincia: string;
  minoreAnni: boolean;
  competenze_centesimi: number;
  oggi: Date;
}

export type EsitoQuotazione =
  | { ok: true; premio_compagnia_centesimi: number; diritti_centesimi: number; zona: number; eta_massima: number; eta_minima: number; dettaglio: Array<{ premio_centesimi: number; furto_centesimi: number }> }
  | { ok: false; errori: Array<{ veicolo: number; motivo: string }> };

export interface AutoStoricheInsurer {
  quota(richiesta: RichiestaQuotazione): Promise<EsitoQuotazione>;
}

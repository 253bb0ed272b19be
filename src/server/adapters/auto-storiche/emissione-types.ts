// The historic-car insurer's issue side (preview, issue, reverse, regenerate documents, lookup by idempotency key).

export interface VeicoloDaEmettere {
  targa: string;
  marca: string;
  modello: string;
  anno: number;
  tipologia_ania?: string;
  tipologia_targa?: string;
  furto: boolean;
  /** Expiry of the vehicle's previous policy from the risk certificate (ATRC), YYYY-MM-DD. */
  atrc_contract_expiration_date?: string;
}

export interface RichiestaEmissione {
  /** Our reference of the quotation; the insurer echoes it. */
  riferimento: string;
  contraente: { nome?: string; cognome?: string; rsoc?: string; cfisc?: string; piva?: string; email?: string; telefono?: string };
  veicoli: VeicoloDaEmettere[];
  /** The policy covers from 24:00 of this day (YYYY-MM-DD). */
  decorrenza: string;
  premio_centesimi: number;
  /** Refuse when a vehicle's previous policy has not expired by decorrenza (default true). */
  check_atrc_contract_expiration_date: boolean;
}

export interface ErroreCompagnia {
  descError: string;
  codError?: string;
}

/** The insurer's answer: result 0 success, 1 warning (nothing issued), 2 error. */
export interface EsitoEmissione {
  result: 0 | 1 | 2;
  verti_policy_number?: string;
  infodrive_id?: string;
  Error: ErroreCompagnia[];
  documenti?: Array<{ nome: string; url: string }>;
}

export interface EsitoStorno {
  result: 0 | 2;
  Error: ErroreCompagnia[];
}

/** What the insurer knows of a call made with an idempotency key. */
export type EsitoRicerca =
  | { trovata: false }
  | { trovata: true; operazione: 'emissione'; esito: EsitoEmissione }
  | { trovata: true; operazione: 'storno'; esito: EsitoStorno };

/**
 * The outcome is unknown: the transport failed (timeout, 5xx, connection reset), or the insurer answered 409 to a keyed
 * request (the key was already received: what it did is learnt by the lookup, never by sending again blindly).
 */
export class EsitoIncerto extends Error {
  constructor(message: string, readonly causa: 'timeout' | 'http_5xx' | 'rete' | 'conflitto') {
    super(message);
    this.name = 'EsitoIncerto';
  }
}

export interface AutoStoricheEmissione {
  anteprima(richiesta: RichiestaEmissione): Promise<EsitoEmissione>;
  /** Issues once per key: the same key always answers the same policy. */
  emetti(chiave: string, richiesta: RichiestaEmissione): Promise<EsitoEmissione>;
  storna(chiave: string, numeroPolizza: string): Promise<EsitoStorno>;
  rigeneraDocumenti(numeroPolizza: string): Promise<{ result: 0 | 2; Error: ErroreCompagnia[]; documenti?: Array<{ nome: string; url: string }> }>;
  /** Reconciliation: what happened to the call made with this key. */
  cerca(chiave: string): Promise<EsitoRicerca>;
}

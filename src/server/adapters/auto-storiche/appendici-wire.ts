// Every request and response shape of the insurer's appendix API and the environment that configures it, in one file.
import type { EsitoAppendice, EsitoCalcoloAppendice, RichiestaAppendice, RichiestaCalcoloAppendice, RicercaAppendice } from './appendici-types.ts';

/** Same insurer, same settings as the issue API (AUTO_STORICHE_EMISSIONE_URL, AUTO_STORICHE_API_KEY, AUTO_STORICHE_TIMEOUT_MS). */
export const ENDPOINT_APPENDICI = {
  calcolaInclusione: (numero: string) => `/policies/${encodeURIComponent(numero)}/endorsements/inclusion/quote`,
  calcolaEsclusione: (numero: string) => `/policies/${encodeURIComponent(numero)}/endorsements/exclusion/quote`,
  anteprima: (numero: string) => `/policies/${encodeURIComponent(numero)}/endorsements/preview`,
  /** POST with header Idempotency-Key. */
  emetti: (numero: string) => `/policies/${encodeURIComponent(numero)}/endorsements`,
  /** GET: 200 with the answer given to a key, 404 when the insurer never received it. */
  cerca: (chiave: string) => `/endorsements/requests/${encodeURIComponent(chiave)}`,
} as const;

export interface WireRichiestaAppendice {
  reference?: string;
  operation?: 'inclusion' | 'exclusion';
  effective_date: string;
  amount?: number;
  vehicle: { plate_number: string; brand: string; model: string; year: number; ania_type?: string; theft: boolean; insured_value: number };
}

export function versoWire(r: RichiestaCalcoloAppendice | RichiestaAppendice): WireRichiestaAppendice {
  const v = r.veicolo;
  return {
    ...('riferimento' in r ? { reference: r.riferimento, operation: r.operazione === 'inclusione' ? 'inclusion' as const : 'exclusion' as const, amount: r.importo_centesimi / 100 } : {}),
    effective_date: r.data_effetto,
    vehicle: { plate_number: v.targa, brand: v.marca, model: v.modello, year: v.anno, ania_type: v.tipologia_ania, theft: v.furto, insured_value: v.valore_centesimi / 100 },
  };
}

/** Quote answer: { result, premium, yearly_premium, Error } */
export function calcoloDaWire(body: { result?: number; premium?: number; yearly_premium?: number; Error?: Array<{ descError: string; codError?: string }> }): EsitoCalcoloAppendice {
  if (body.result === 0 && typeof body.premium === 'number' && typeof body.yearly_premium === 'number') {
    return { ok: true, premio_centesimi: Math.round(body.premium * 100), premio_annuo_veicolo_centesimi: Math.round(body.yearly_premium * 100) };
  }
  return { ok: false, Error: body.Error?.length ? body.Error : [{ descError: 'Risposta della compagnia non valida.' }] };
}

/** Issue and preview answer: { result, endorsement_number, Error } */
export function esitoDaWire(body: { result?: number; endorsement_number?: string; Error?: Array<{ descError: string; codError?: string }> }): EsitoAppendice {
  const result = body.result === 0 || body.result === 1 || body.result === 2 ? body.result : 2;
  return { result, ...(body.endorsement_number ? { numero_appendice: body.endorsement_number } : {}), Error: body.Error ?? [] };
}

export function ricercaDaWire(status: number, body: unknown): RicercaAppendice {
  return status === 404 ? { trovata: false } : { trovata: true, esito: esitoDaWire(body as Parameters<typeof esitoDaWire>[0]) };
}

// Every request and response shape of the insurer's issue API, and the environment that configures it: one file to check against the insurer's documentation.
import type { EsitoEmissione, EsitoRicerca, EsitoStorno, RichiestaEmissione } from './emissione-types.ts';
import type { Config } from '../../config.ts';

export interface ConfigurazioneHttp {
  /** AUTO_STORICHE_EMISSIONE_URL, e.g. https://api.compagnia.example/auto-storiche/v1 */
  baseUrl: string;
  /** AUTO_STORICHE_API_KEY, sent as a bearer token. */
  apiKey: string;
  /** AUTO_STORICHE_TIMEOUT_MS, default 30000. */
  timeoutMs: number;
}

export type ConfigAutoStoriche = Pick<Config, 'AUTO_STORICHE_EMISSIONE_ADAPTER' | 'AUTO_STORICHE_EMISSIONE_URL' | 'AUTO_STORICHE_API_KEY' | 'AUTO_STORICHE_TIMEOUT_MS'>;

/** The HTTP client's settings from the configuration (loadConfig requires URL and key with http). */
export function configurazioneHttp(config: ConfigAutoStoriche): ConfigurazioneHttp {
  return { baseUrl: config.AUTO_STORICHE_EMISSIONE_URL!.replace(/\/$/, ''), apiKey: config.AUTO_STORICHE_API_KEY!, timeoutMs: config.AUTO_STORICHE_TIMEOUT_MS };
}

/** Endpoints, relative to baseUrl. Calls that create something carry the header Idempotency-Key. */
export const ENDPOINT = {
  anteprima: { method: 'POST', path: () => '/policies/preview' },
  emetti: { method: 'POST', path: () => '/policies' },
  storna: { method: 'POST', path: (numero: string) => `/policies/${encodeURIComponent(numero)}/cancellation` },
  documenti: { method: 'POST', path: (numero: string) => `/policies/${encodeURIComponent(numero)}/documents` },
  /** 200 with WireRicerca, 404 when the insurer never received a call with this key. */
  cerca: { method: 'GET', path: (chiave: string) => `/requests/${encodeURIComponent(chiave)}` },
} as const;

/** Body of preview and issue. */
export interface WireRichiestaEmissione {
  reference: string;
  effective_date: string;
  premium: number;
  check_atrc_contract_expiration_date: boolean;
  holder: { first_name?: string; last_name?: string; company_name?: string; tax_code?: string; vat_number?: string; email?: string; phone?: string };
  vehicles: Array<{ plate_number: string; brand: string; model: string; year: number; ania_type?: string; plate_number_type?: string; theft: boolean; atrc_contract_expiration_date?: string }>;
}

/** Answer of preview, issue and cancellation (the insurer's own field names). */
export interface WireEsito {
  result: number;
  verti_policy_number?: string | null;
  infodrive_id?: string | null;
  Error?: Array<{ descError: string; codError?: string }> | null;
  documents?: Array<{ name: string; url: string }> | null;
}

export interface WireRicerca {
  operation: 'issue' | 'cancellation';
  response: WireEsito;
}

export function richiestaWire(r: RichiestaEmissione): WireRichiestaEmissione {
  return {
    reference: r.riferimento,
    effective_date: r.decorrenza,
    premium: r.premio_centesimi / 100,
    check_atrc_contract_expiration_date: r.check_atrc_contract_expiration_date,
    holder: {
      first_name: r.contraente.nome, last_name: r.contraente.cognome, company_name: r.contraente.rsoc,
      tax_code: r.contraente.cfisc, vat_number: r.contraente.piva, email: r.contraente.email, phone: r.contraente.telefono,
    },
    vehicles: r.veicoli.map((v) => ({
      plate_number: v.targa, brand: v.marca, model: v.modello, year: v.anno, ania_type: v.tipologia_ania,
      plate_number_type: v.tipologia_targa, theft: v.furto, atrc_contract_expiration_date: v.atrc_contract_expiration_date,
    })),
  };
}

function risultato(n: number): 0 | 1 | 2 {
  return n === 0 || n === 1 ? n : 2;
}

export function esitoEmissioneDaWire(w: WireEsito): EsitoEmissione {
  return {
    result: risultato(Number(w.result)),
    ...(w.verti_policy_number ? { verti_policy_number: String(w.verti_policy_number) } : {}),
    ...(w.infodrive_id ? { infodrive_id: String(w.infodrive_id) } : {}),
    Error: (w.Error ?? []).map((e) => ({ descError: String(e.descError), ...(e.codError ? { codError: String(e.codError) } : {}) })),
    ...(w.documents ? { documenti: w.documents.map((d) => ({ nome: d.name, url: d.url })) } : {}),
  };
}

export function esitoStornoDaWire(w: WireEsito): EsitoStorno {
  return { result: Number(w.result) === 0 ? 0 : 2, Error: (w.Error ?? []).map((e) => ({ descError: String(e.descError), ...(e.codError ? { codError: String(e.codError) } : {}) })) };
}

export function ricercaDaWire(w: WireRicerca): EsitoRicerca {
  return w.operation === 'issue'
    ? { trovata: true, operazione: 'emissione', esito: esitoEmissioneDaWire(w.response) }
    : { trovata: true, operazione: 'storno', esito: esitoStornoDaWire(w.response) };
}

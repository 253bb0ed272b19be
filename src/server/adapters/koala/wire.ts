// Koala's request and response shapes and the environment that configures the HTTP client (KOALA_ADAPTER=http).
import type { DatiEmissioneKoala, EsitoKoala } from './types.ts';
import type { Config } from '../../config.ts';

export interface ConfigurazioneKoala {
  /** KOALA_URL, e.g. https://koala.broker.example/api */
  baseUrl: string;
  /** KOALA_TOKEN */
  token: string;
  /** KOALA_TIMEOUT_MS, default 20000 */
  timeoutMs: number;
}

export type ConfigKoala = Pick<Config, 'KOALA_ADAPTER' | 'KOALA_URL' | 'KOALA_TOKEN' | 'KOALA_TIMEOUT_MS'>;

/** The HTTP client's settings from the configuration (loadConfig requires URL and token with http). */
export function configurazioneKoala(config: ConfigKoala): ConfigurazioneKoala {
  return { baseUrl: config.KOALA_URL!.replace(/\/$/, ''), token: config.KOALA_TOKEN!, timeoutMs: config.KOALA_TIMEOUT_MS };
}

/** POST {KOALA_URL}/polizze/import with header Idempotency-Key. */
export const KOALA_IMPORT_PATH = '/polizze/import';

export interface WireImportKoala {
  policy_number: string;
  infodrive_id?: string;
  quotation_id: number;
  holder: string;
  tax_code?: string;
  effective_date: string;
  expiry_date: string;
  premium: number;
  broker_fee: number;
  agent_id?: number;
}

/** 200/201 { import_id }, 422 { errors: string[] } */
export interface WireRispostaKoala {
  import_id?: string;
  errors?: string[];
}

export function importWire(d: DatiEmissioneKoala): WireImportKoala {
  return {
    policy_number: d.numero_polizza, infodrive_id: d.infodrive_id, quotation_id: d.quotazione_id, holder: d.contraente,
    tax_code: d.codice_fiscale, effective_date: d.decorrenza, expiry_date: d.scadenza, premium: d.premio, broker_fee: d.competenze,
    agent_id: d.collaboratore_id,
  };
}

export function esitoDaWire(status: number, w: WireRispostaKoala): EsitoKoala {
  if (status < 300 && w.import_id) return { ok: true, id_importazione: String(w.import_id) };
  return { ok: false, errori: w.errors?.length ? w.errors.map(String) : [`Koala ha rifiutato i dati (HTTP ${status}).`] };
}

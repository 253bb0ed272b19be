// Request and response shapes of the registries' HTTP service, in one place (the answer is stored as given).
import type { DatiRegistro } from '../../../shared/registri.ts';
import type { RichiestaRegistro } from './types.ts';

/** POST {REGISTRY_URL}/vehicles/registry-data */
export const PERCORSO_INTERROGAZIONE = '/vehicles/registry-data';

export interface RichiestaHttp {
  plateNumber: string;
  vehicleType: string;
  contractorTaxCode?: string;
}

export function richiestaHttp(richiesta: RichiestaRegistro): RichiestaHttp {
  return {
    plateNumber: richiesta.targa,
    vehicleType: richiesta.tipologia,
    ...(richiesta.codiceFiscaleContraente ? { contractorTaxCode: richiesta.codiceFiscaleContraente } : {}),
  };
}

/** The service answers the registry data (result 0/1/2, Error, ResponseAnia, ResponseSivi, ResponseAtrcMain). */
export function rispostaHttp(body: unknown): DatiRegistro | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const result = (body as { result?: unknown }).result;
  if (result !== 0 && result !== 1 && result !== 2) return undefined;
  return body as DatiRegistro;
}

// Chooses the insurer's issue implementation by environment (AUTO_STORICHE_EMISSIONE_ADAPTER: sandbox, the default, or http).
import type { AutoStoricheEmissione, EsitoEmissione } from './emissione-types.ts';
import { SandboxAutoStoricheEmissione } from './emissione-sandbox.ts';
import { HttpAutoStoricheEmissione } from './emissione-http.ts';
import { configurazioneDaAmbiente } from './emissione-wire.ts';

export function emissioneAutoStoriche(consegnaDuplicata?: (chiave: string, esito: EsitoEmissione) => void): AutoStoricheEmissione {
  const mode = process.env.AUTO_STORICHE_EMISSIONE_ADAPTER ?? 'sandbox';
  if (mode === 'sandbox') return new SandboxAutoStoricheEmissione(consegnaDuplicata);
  if (mode === 'http') return new HttpAutoStoricheEmissione(configurazioneDaAmbiente());
  throw new Error(`AUTO_STORICHE_EMISSIONE_ADAPTER=${mode}: use 'sandbox' or 'http'`);
}

// Chooses the insurer's issue implementation by configuration (AUTO_STORICHE_EMISSIONE_ADAPTER: sandbox, the default, or http).
import type { AutoStoricheEmissione, EsitoEmissione } from './emissione-types.ts';
import { SandboxAutoStoricheEmissione } from './emissione-sandbox.ts';
import { HttpAutoStoricheEmissione } from './emissione-http.ts';
import { configurazioneHttp, type ConfigAutoStoriche } from './emissione-wire.ts';

export function emissioneAutoStoriche(config: ConfigAutoStoriche, consegnaDuplicata?: (chiave: string, esito: EsitoEmissione) => void): AutoStoricheEmissione {
  if (config.AUTO_STORICHE_EMISSIONE_ADAPTER === 'http') return new HttpAutoStoricheEmissione(configurazioneHttp(config));
  return new SandboxAutoStoricheEmissione(consegnaDuplicata);
}

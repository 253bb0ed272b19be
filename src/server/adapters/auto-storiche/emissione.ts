// Chooses the insurer's issue implementation by configuration (AUTO_STORICHE_EMISSIONE_ADAPTER: sandbox, the default, or http).
import type { Database } from '../../db/connection.ts';
import type { AutoStoricheEmissione, EsitoEmissione } from './emissione-types.ts';
import { SandboxAutoStoricheEmissione } from './emissione-sandbox.ts';
import { HttpAutoStoricheEmissione } from './emissione-http.ts';
import { configurazioneHttp, type ConfigAutoStoriche } from './emissione-wire.ts';

/** `db` keeps the sandbox insurer's books (the sandbox only). */
export function emissioneAutoStoriche(config: ConfigAutoStoriche, db: Database, consegnaDuplicata?: (chiave: string, esito: EsitoEmissione) => void): AutoStoricheEmissione {
  if (config.AUTO_STORICHE_EMISSIONE_ADAPTER === 'http') return new HttpAutoStoricheEmissione(configurazioneHttp(config));
  return new SandboxAutoStoricheEmissione(db, consegnaDuplicata);
}

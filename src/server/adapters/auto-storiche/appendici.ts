// Chooses the insurer's appendix implementation by the same setting as issuing (AUTO_STORICHE_EMISSIONE_ADAPTER).
import type { Database } from '../../db/connection.ts';
import type { Tariffa } from './sandbox.ts';
import type { AutoStoricheAppendici } from './appendici-types.ts';
import { SandboxAutoStoricheAppendici } from './appendici-sandbox.ts';
import { HttpAutoStoricheAppendici } from './appendici-http.ts';
import { configurazioneHttp, type ConfigAutoStoriche } from './emissione-wire.ts';

/** `db` keeps the sandbox insurer's books (the sandbox only). */
export function appendiciAutoStoriche(config: ConfigAutoStoriche, tariffa: Tariffa, db: Database): AutoStoricheAppendici {
  if (config.AUTO_STORICHE_EMISSIONE_ADAPTER === 'http') return new HttpAutoStoricheAppendici(configurazioneHttp(config));
  return new SandboxAutoStoricheAppendici(db, tariffa);
}

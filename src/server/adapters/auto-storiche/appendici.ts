// Chooses the insurer's appendix implementation by the same setting as issuing (AUTO_STORICHE_EMISSIONE_ADAPTER).
import type { Tariffa } from './sandbox.ts';
import type { AutoStoricheAppendici } from './appendici-types.ts';
import { SandboxAutoStoricheAppendici } from './appendici-sandbox.ts';
import { HttpAutoStoricheAppendici } from './appendici-http.ts';
import { configurazioneHttp, type ConfigAutoStoriche } from './emissione-wire.ts';

export function appendiciAutoStoriche(config: ConfigAutoStoriche, tariffa: Tariffa): AutoStoricheAppendici {
  if (config.AUTO_STORICHE_EMISSIONE_ADAPTER === 'http') return new HttpAutoStoricheAppendici(configurazioneHttp(config));
  return new SandboxAutoStoricheAppendici(tariffa);
}

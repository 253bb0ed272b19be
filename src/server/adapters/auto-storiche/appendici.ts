// Chooses the insurer's appendix implementation by the same setting as issuing (AUTO_STORICHE_EMISSIONE_ADAPTER).
import type { Tariffa } from './sandbox.ts';
import type { AutoStoricheAppendici } from './appendici-types.ts';
import { SandboxAutoStoricheAppendici } from './appendici-sandbox.ts';
import { HttpAutoStoricheAppendici } from './appendici-http.ts';
import { configurazioneDaAmbiente } from './emissione-wire.ts';

export function appendiciAutoStoriche(tariffa: Tariffa): AutoStoricheAppendici {
  const mode = process.env.AUTO_STORICHE_EMISSIONE_ADAPTER ?? 'sandbox';
  if (mode === 'sandbox') return new SandboxAutoStoricheAppendici(tariffa);
  if (mode === 'http') return new HttpAutoStoricheAppendici(configurazioneDaAmbiente());
  throw new Error(`AUTO_STORICHE_EMISSIONE_ADAPTER=${mode}: use 'sandbox' or 'http'`);
}

// Chooses Koala's implementation by environment (KOALA_ADAPTER: sandbox, the default, or http).
import type { KoalaBroker } from './types.ts';
import { SandboxKoala } from './sandbox.ts';
import { HttpKoala } from './http.ts';
import { configurazioneKoala } from './wire.ts';

export function koalaBroker(): KoalaBroker {
  const mode = process.env.KOALA_ADAPTER ?? 'sandbox';
  if (mode === 'sandbox') return new SandboxKoala();
  if (mode === 'http') return new HttpKoala(configurazioneKoala());
  throw new Error(`KOALA_ADAPTER=${mode}: use 'sandbox' or 'http'`);
}

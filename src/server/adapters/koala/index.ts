// Chooses Koala's implementation by configuration (KOALA_ADAPTER: sandbox, the default, or http).
import type { KoalaBroker } from './types.ts';
import { SandboxKoala } from './sandbox.ts';
import { HttpKoala } from './http.ts';
import { configurazioneKoala, type ConfigKoala } from './wire.ts';

export function koalaBroker(config: ConfigKoala): KoalaBroker {
  return config.KOALA_ADAPTER === 'http' ? new HttpKoala(configurazioneKoala(config)) : new SandboxKoala();
}

// Chooses Koala's implementation by configuration (KOALA_ADAPTER: sandbox, the default, or http).
import type { Database } from '../../db/connection.ts';
import type { KoalaBroker } from './types.ts';
import { SandboxKoala } from './sandbox.ts';
import { HttpKoala } from './http.ts';
import { configurazioneKoala, type ConfigKoala } from './wire.ts';

/** `db` keeps the sandbox's books (the sandbox only). */
export function koalaBroker(config: ConfigKoala, db: Database): KoalaBroker {
  return config.KOALA_ADAPTER === 'http' ? new HttpKoala(configurazioneKoala(config)) : new SandboxKoala(db);
}

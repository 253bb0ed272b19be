// The configured e-signature provider: FIRMA_ADAPTER=sandbox (default) or http (FIRMA_URL, FIRMA_API_KEY).
import { HttpFirma } from './http.ts';
import { SandboxFirma } from './sandbox.ts';
import type { FirmaProvider } from './types.ts';
import type { Config } from '../../config.ts';

type FirmaConfig = Pick<Config, 'FIRMA_ADAPTER' | 'FIRMA_SANDBOX_DELAY_MS' | 'FIRMA_URL' | 'FIRMA_API_KEY' | 'FIRMA_TIMEOUT_MS' | 'FIRMA_CALLBACK_SECRET' | 'APP_URL'>;

/** loadConfig has checked the values (http with its URL and key). */
export function createFirmaProvider(config: FirmaConfig): FirmaProvider {
  if (config.FIRMA_ADAPTER === 'sandbox') return new SandboxFirma(config.FIRMA_SANDBOX_DELAY_MS);
  return new HttpFirma(config.FIRMA_URL!, config.FIRMA_API_KEY!, config.FIRMA_TIMEOUT_MS, config.FIRMA_CALLBACK_SECRET ? `${config.APP_URL}/api/firma/callback` : undefined);
}

export type { FirmaProvider } from './types.ts';

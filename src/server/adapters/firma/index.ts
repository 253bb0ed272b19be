// The configured e-signature provider: FIRMA_ADAPTER=sandbox (default) or http (FIRMA_URL, FIRMA_API_KEY).
import { HttpFirma } from './http.ts';
import { SandboxFirma } from './sandbox.ts';
import type { FirmaProvider } from './types.ts';

export function createFirmaProvider(env: NodeJS.ProcessEnv = process.env): FirmaProvider {
  const kind = env.FIRMA_ADAPTER ?? 'sandbox';
  if (kind === 'sandbox') return new SandboxFirma(env.FIRMA_SANDBOX_DELAY_MS === undefined ? 5000 : Number(env.FIRMA_SANDBOX_DELAY_MS));
  if (kind === 'http') {
    if (!env.FIRMA_URL || !env.FIRMA_API_KEY) throw new Error('FIRMA_ADAPTER=http needs FIRMA_URL and FIRMA_API_KEY');
    const appUrl = env.APP_URL ?? `http://127.0.0.1:${env.PORT ?? 3000}`;
    return new HttpFirma(env.FIRMA_URL, env.FIRMA_API_KEY, Number(env.FIRMA_TIMEOUT_MS) || 15000, env.FIRMA_CALLBACK_SECRET ? `${appUrl}/api/firma/callback` : undefined);
  }
  throw new Error(`FIRMA_ADAPTER must be "sandbox" or "http", not "${kind}"`);
}

export type { FirmaProvider } from './types.ts';

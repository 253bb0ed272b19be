// The registries' adapter chosen by REGISTRY_MODE: 'sandbox' (default) or 'http'.
import { HttpRegistri } from './http.ts';
import { SandboxRegistri } from './sandbox.ts';
import type { RegistriAdapter } from './types.ts';
import type { Config } from '../../config.ts';

/** loadConfig requires REGISTRY_URL with http. */
export function registriAdapter(config: Pick<Config, 'REGISTRY_MODE' | 'REGISTRY_URL' | 'REGISTRY_API_KEY' | 'REGISTRY_TIMEOUT_MS'>): RegistriAdapter {
  if (config.REGISTRY_MODE === 'http') return new HttpRegistri({ url: config.REGISTRY_URL!, apiKey: config.REGISTRY_API_KEY, timeoutMs: config.REGISTRY_TIMEOUT_MS });
  return new SandboxRegistri();
}

// The registries' adapter chosen by REGISTRY_MODE: 'sandbox' (default) or 'http'.
import { HttpRegistri } from './http.ts';
import { SandboxRegistri } from './sandbox.ts';
import type { RegistriAdapter } from './types.ts';

export function registriDaAmbiente(env: NodeJS.ProcessEnv = process.env): RegistriAdapter {
  const mode = env.REGISTRY_MODE ?? 'sandbox';
  if (mode === 'sandbox') return new SandboxRegistri();
  if (mode === 'http') {
    if (!env.REGISTRY_URL) throw new Error('REGISTRY_MODE=http richiede REGISTRY_URL');
    return new HttpRegistri({ url: env.REGISTRY_URL, apiKey: env.REGISTRY_API_KEY, timeoutMs: Number(env.REGISTRY_TIMEOUT_MS ?? 10_000) });
  }
  throw new Error(`REGISTRY_MODE=${mode} non valido: usa 'sandbox' o 'http'`);
}

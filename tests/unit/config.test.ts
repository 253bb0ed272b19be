// The configuration object: read once from the environment, a wrong value named in Italian, the table documenting every variable is checked by docs.test.ts (docs/operations.md).
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA, ConfigError, loadConfig } from '../../src/server/config.ts';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('configuration', () => {
  it('gives the defaults for an empty environment, and empty values count as unset', () => {
    const config = loadConfig({ PORT: '', TOKEN_TTL_HOURS: '' });
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', MAINTENANCE: false, TOKEN_TTL_HOURS: 12, MEDIA_STORAGE: 'postgres', APP_URL: 'http://127.0.0.1:3000', EXACT_TOTAL_LIMIT: 10_000 });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('converts numbers and flags', () => {
    const config = loadConfig({ PORT: '8080', MAINTENANCE: '1', SEED_DEMO: 'false', APP_URL: 'https://broker.example/', PUBLIC_RATE_LIMIT_IP: '5' });
    expect(config).toMatchObject({ PORT: 8080, MAINTENANCE: true, SEED_DEMO: false, APP_URL: 'https://broker.example', PUBLIC_RATE_LIMIT_IP: 5 });
  });

  it('names every wrong value in Italian', () => {
    expect(problems({ DATABASE_URL: 'non un indirizzo', PORT: '70000', MAINTENANCE: 'forse', KOALA_ADAPTER: 'soap', TOKEN_TTL_HOURS: 'dodici' })).toEqual([
      'DATABASE_URL non è un URL valido',
      'PORT deve essere un numero tra 0 e 65535',
      'MAINTENANCE deve essere 1 o 0 (true o false)',
      'TOKEN_TTL_HOURS deve essere un numero tra 1 e 8760',
      'KOALA_ADAPTER deve essere uno di: sandbox, http',
    ].sort((a, b) => Object.keys(CONFIG_SCHEMA.properties).indexOf(a.split(' ')[0]!) - Object.keys(CONFIG_SCHEMA.properties).indexOf(b.split(' ')[0]!)));
    expect(problems({ PORT: '3.5' })).toEqual(['PORT deve essere un numero tra 0 e 65535']);
  });

  it('refuses a third party switched to http without its address', () => {
    expect(problems({ FIRMA_ADAPTER: 'http', FIRMA_URL: 'https://firma.example' })).toEqual(['FIRMA_API_KEY è obbligatorio con FIRMA_ADAPTER=http']);
    expect(problems({ REGISTRY_MODE: 'http' })).toEqual(['REGISTRY_URL è obbligatorio con REGISTRY_MODE=http']);
  });
});

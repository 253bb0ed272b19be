// The server's one configuration object: every environment variable, validated once at start (env-schema), Italian messages for a wrong value.
import envSchema from 'env-schema';
import type { Ajv } from 'ajv';

const flag = { type: 'boolean', default: false } as const;
const url = { type: 'string', format: 'url' } as const;
const text = { type: 'string' } as const;
const integer = (minimum: number, maximum: number) => ({ type: 'integer', minimum, maximum }) as const;
const integerOr = (minimum: number, maximum: number, fallback: number) => ({ type: 'integer', minimum, maximum, default: fallback }) as const;
/** The first value is the default. */
const choice = <const V extends readonly [string, ...string[]]>(values: V) => ({ type: 'string', enum: values, default: values[0] }) as const;
const MS = 24 * 3600 * 1000;

/** docs/operations.md 'Configuration (environment)' documents each of these (tests/unit/docs.test.ts). */
export const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    DATABASE_URL: url,
    DATA_DIR: text,
    SCHEMAS_DIR: text,
    STATIC_DIR: text,
    PORT: integerOr(0, 65535, 3000),
    HOST: { type: 'string', default: '127.0.0.1' },
    ADMIN_EMAIL: { type: 'string', default: 'admin@localhost' },
    ADMIN_PASSWORD: text,
    // Test and demo installs only: the first super_admin (created at that start) logs in without two-step verification.
    ADMIN_MFA_ESENTE: flag,
    // Single sign-on (OpenID Connect): all four set turn it on; OIDC_NOME is the provider's name on the login button.
    OIDC_ISSUER: url,
    OIDC_CLIENT_ID: text,
    OIDC_CLIENT_SECRET: text,
    OIDC_REDIRECT_URL: url,
    OIDC_NOME: text,
    SEED_DEMO: flag,
    LOG_LEVEL: choice(['info', 'silent', 'fatal', 'error', 'warn', 'debug', 'trace']),
    PG_LOG: flag,
    EMBEDDED_PG_PORT: integer(1, 65535),
    DB_POOL_SIZE: integerOr(1, 1000, 20),
    EXACT_TOTAL_LIMIT: integerOr(1, 100_000_000, 10_000),
    LIST_ANCHOR_EVERY: integerOr(1, 1_000_000, 50),
    LIST_ANCHORED_FROM: integerOr(0, 100_000_000, 2_000),
    AMBIENTE: { type: 'string', default: 'development' },
    MAINTENANCE: flag,
    TRUST_PROXY: text,
    APP_URL: url,
    TOKEN_TTL_HOURS: integerOr(1, 24 * 365, 12),
    // Fractions allowed (tests use a few seconds).
    SESSION_IDLE_MINUTES: { type: 'number', minimum: 0.01, maximum: 24 * 60, default: 30 },
    LOGIN_SLOW_BASE_MS: integerOr(1, 8000, 1000),
    SMTP_URL: url,
    MAIL_FROM: { type: 'string', default: 'Broker Back Office <noreply@localhost>' },
    MAIL_INTERVAL_MS: integerOr(100, MS, 5000),
    SCHEDULER_TICK_MS: integerOr(0, MS, 15000),
    HISTORY_RETENTION_DAYS: integerOr(0, 36500, 0),
    MEDIA_STORAGE: choice(['postgres', 'dir']),
    MEDIA_DIR: text,
    FIRMA_ADAPTER: choice(['sandbox', 'http']),
    FIRMA_SANDBOX_DELAY_MS: integerOr(0, MS, 5000),
    FIRMA_URL: url,
    FIRMA_API_KEY: text,
    FIRMA_TIMEOUT_MS: integerOr(1, MS, 15000),
    FIRMA_CALLBACK_SECRET: text,
    FIRMA_POLL_MS: integerOr(0, MS, 15000),
    AUTO_STORICHE_ADAPTER: choice(['sandbox']),
    AUTO_STORICHE_EMISSIONE_ADAPTER: choice(['sandbox', 'http']),
    AUTO_STORICHE_EMISSIONE_URL: url,
    AUTO_STORICHE_API_KEY: text,
    AUTO_STORICHE_TIMEOUT_MS: integerOr(1, MS, 30000),
    KOALA_ADAPTER: choice(['sandbox', 'http']),
    KOALA_URL: url,
    KOALA_TOKEN: text,
    KOALA_TIMEOUT_MS: integerOr(1, MS, 20000),
    MOTOR_INSURER_ADAPTER: choice(['sandbox', 'http']),
    MOTOR_INSURER_URL: url,
    MOTOR_INSURER_TOKEN: text,
    MOTOR_INSURER_TIMEOUT_MS: integerOr(1, MS, 15000),
    REGISTRY_MODE: choice(['sandbox', 'http']),
    REGISTRY_URL: url,
    REGISTRY_API_KEY: text,
    REGISTRY_TIMEOUT_MS: integerOr(1, MS, 10000),
    ISSUE_MODE: { type: 'string', default: 'sandbox' },
    CHIAMATE_ESTERNE_LEASE_MS: integerOr(1000, MS, 300000),
    PUBLIC_RATE_LIMIT_IP: integerOr(1, 1_000_000, 120),
    PUBLIC_RATE_LIMIT_UUID: integerOr(1, 1_000_000, 60),
    PUBLIC_RATE_LIMIT_WINDOW: integerOr(1, 86_400, 60),
    VALIDATORS_RATE_LIMIT: integerOr(1, 1_000_000, 300),
  },
} as const;

type Schema = typeof CONFIG_SCHEMA.properties;
type Value<P> = P extends { type: 'integer' | 'number' } ? number : P extends { type: 'boolean' } ? boolean : P extends { enum: readonly (infer E)[] } ? E : string;
type WithDefault = { [K in keyof Schema]: Schema[K] extends { default: unknown } ? K : never }[keyof Schema];

/** Every variable, typed; those with a default are always set. APP_URL defaults to http://127.0.0.1:PORT. */
export type Config = { [K in WithDefault]: Value<Schema[K]> } & { [K in Exclude<keyof Schema, WithDefault>]?: Value<Schema[K]> } & { APP_URL: string };

/** A third party switched to http needs its address (and key): named here so a missing one stops the start, not the first call. */
const NEEDED_WITH_HTTP: Array<[keyof Schema, Array<keyof Schema>]> = [
  ['FIRMA_ADAPTER', ['FIRMA_URL', 'FIRMA_API_KEY']],
  ['AUTO_STORICHE_EMISSIONE_ADAPTER', ['AUTO_STORICHE_EMISSIONE_URL', 'AUTO_STORICHE_API_KEY']],
  ['KOALA_ADAPTER', ['KOALA_URL', 'KOALA_TOKEN']],
  ['MOTOR_INSURER_ADAPTER', ['MOTOR_INSURER_URL']],
  ['REGISTRY_MODE', ['REGISTRY_URL']],
];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configurazione non valida:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

function problemOf(issue: AjvIssue): string {
  const name = issue.instancePath.slice(1) as keyof Schema;
  const rule = CONFIG_SCHEMA.properties[name] as { type: string; minimum?: number; maximum?: number; enum?: readonly string[] } | undefined;
  if (!rule) return `${name}: valore non valido`;
  if (issue.keyword === 'format') return `${name} non è un URL valido`;
  if (issue.keyword === 'enum') return `${name} deve essere uno di: ${rule.enum!.join(', ')}`;
  if (rule.type === 'integer' || rule.type === 'number') return `${name} deve essere un numero tra ${rule.minimum} e ${rule.maximum}`;
  if (rule.type === 'boolean') return `${name} deve essere 1 o 0 (true o false)`;
  return `${name}: valore non valido`;
}

const ajvWithUrl = {
  customOptions(ajv: Ajv) {
    ajv.addFormat('url', (value: string) => URL.canParse(value));
    return ajv;
  },
};

/**
 * The configuration from `source` (process.env at start; a test's overrides): unset and empty values take the default,
 * a wrong one throws ConfigError naming every wrong variable in Italian.
 */
export function loadConfig(source: Record<string, unknown> = {}): Config {
  const data: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(CONFIG_SCHEMA.properties)) {
    let value = source[name];
    if (value === undefined || value === null || value === '') continue;
    if (rule.type === 'boolean' && (value === '1' || value === '0')) value = value === '1' ? 'true' : 'false';
    data[name] = value;
  }
  // env-schema builds and compiles a new ajv on every call: the same values (a start reads them three times) are checked once.
  const key = Object.values(data).every((v) => typeof v !== 'object') ? JSON.stringify(data) : undefined;
  const known = key === undefined ? undefined : checkedConfigs.get(key);
  if (known) return { ...known };
  const config = checkedConfig(data);
  if (key !== undefined) checkedConfigs.set(key, config);
  return { ...config };
}

const checkedConfigs = new Map<string, Config>();

function checkedConfig(data: Record<string, unknown>): Config {
  let config: Record<string, unknown>;
  try {
    config = envSchema({ schema: structuredClone(CONFIG_SCHEMA) as unknown as Record<string, unknown>, data, env: false, dotenv: false, ajv: ajvWithUrl as never });
  } catch (error) {
    const issues = (error as { errors?: AjvIssue[] }).errors;
    if (!issues) throw error;
    throw new ConfigError([...new Set(issues.map(problemOf))]);
  }
  const missing = NEEDED_WITH_HTTP.flatMap(([mode, needed]) => (config[mode] === 'http' ? needed.filter((n) => !config[n]).map((n) => `${n} è obbligatorio con ${mode}=http`) : []));
  if (missing.length) throw new ConfigError(missing);
  config.APP_URL = String(config.APP_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '');
  return config as Config;
}

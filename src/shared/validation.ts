// One ajv set-up for client and server: Italian formats, keywords and messages, and input normalisation.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { dataNascitaMessage, decodeCodiceFiscale, isDataNascitaValida, italianFormats } from './validators/index.ts';
import type { FieldDefinition, JsonSchema } from './definitions/types.ts';

// ajv-formats ships CommonJS; its default export differs between bundlers and Node.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export const REQUIRED_MESSAGE = 'Campo Obbligatorio.';

export type FieldErrors = Record<string, string[]>;

export interface AjvOptions {
  /**
   * Every known cadastral (Belfiore) code: with it a 16-char codice fiscale must also name a real place
   * (and a real date). The server passes it; the client, without the data, checks structure and check character.
   */
  placeCodes?: ReadonlySet<string>;
}

export function createAjv(options: AjvOptions = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
  addFormats(ajv);
  const { placeCodes } = options;
  for (const [name, format] of Object.entries(italianFormats)) {
    let validate = format.validate;
    if (name === 'codice-fiscale' && placeCodes) {
      // decodeCodiceFiscale undoes omocodia in the place code (H5LM -> H501); 11-digit codes have no place.
      validate = (value: string) => format.validate(value)
        && (value.trim().length !== 16 || placeCodes.has(decodeCodiceFiscale(value)?.codiceCatastale ?? ''));
    }
    ajv.addFormat(name, { type: 'string', validate });
  }
  ajv.addKeyword({
    keyword: 'x-data-nascita',
    type: 'string',
    schemaType: 'boolean',
    validate: (enabled: boolean, value: string) => !enabled || isDataNascitaValida(value),
    errors: false,
  });
  return ajv;
}

function messageFor(error: ErrorObject): string | undefined {
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-messages'] as Record<string, string> | undefined;
  if (custom?.[error.keyword]) return custom[error.keyword];
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': return REQUIRED_MESSAGE;
    case 'format': {
      const name = String(p.format);
      if (italianFormats[name]) return italianFormats[name].message;
      if (name === 'email') return 'Indirizzo email non valido';
      if (name === 'date') return 'Data non valida (formato AAAA-MM-GG)';
      if (name === 'date-time') return 'Data e ora non valide';
      return 'Formato non valido';
    }
    case 'x-data-nascita': return dataNascitaMessage();
    case 'maxLength': return `Massimo ${String(p.limit)} caratteri`;
    case 'minLength': return `Almeno ${String(p.limit)} caratteri`;
    case 'minimum': return `Il valore minimo è ${String(p.limit)}`;
    case 'maximum': return `Il valore massimo è ${String(p.limit)}`;
    case 'exclusiveMinimum': return `Il valore deve essere maggiore di ${String(p.limit)}`;
    case 'exclusiveMaximum': return `Il valore deve essere minore di ${String(p.limit)}`;
    case 'type': return 'Tipo di dato non valido';
    case 'enum': case 'const': case 'oneOf': return 'Valore non ammesso';
    case 'pattern': return 'Formato non valido';
    case 'additionalProperties': return 'Campo non consentito.';
    case 'minItems': return `Almeno ${String(p.limit)} elementi`;
    case 'maxItems': return `Al massimo ${String(p.limit)} elementi`;
    case 'uniqueItems': return 'Valori duplicati';
    // if/then/else, anyOf and friends only summarise the errors reported on the fields themselves.
    default: return undefined;
  }
}

function fieldPath(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  const p = error.params as Record<string, unknown>;
  const leaf = error.keyword === 'required' ? p.missingProperty : error.keyword === 'additionalProperties' ? p.additionalProperty : undefined;
  return [base, leaf].filter((s) => s !== undefined && s !== '').join('.');
}

/** Laravel-style `{field: [messages]}` from ajv errors, one message per cause and field. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors ?? []) {
    // The const branches of a oneOf each fail; the oneOf error itself carries the message.
    if (error.keyword === 'const' && error.schemaPath.includes('/oneOf/')) continue;
    const message = messageFor(error);
    if (!message) continue;
    const path = fieldPath(error) || '_';
    const list = (out[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return out;
}

export function compileValidator(ajv: Ajv, schema: JsonSchema): (data: unknown) => FieldErrors | null {
  const validate: ValidateFunction = ajv.compile(schema);
  return (data) => (validate(data) ? null : toFieldErrors(validate.errors));
}

/** Trims text, upper-cases what the schema asks for, and turns empty strings into null. */
export function normalizeInput(fields: FieldDefinition[], input: Record<string, unknown>): Record<string, unknown> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = byName.get(key);
    if (typeof value === 'string' && field && field.kind !== 'json' && !field.secret) {
      const trimmed = value.trim();
      out[key] = trimmed === '' ? null : field.uppercase ? trimmed.toUpperCase() : trimmed;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A copy without null values: null means "no value", which JSON Schema would call a type error. */
export function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined));
}

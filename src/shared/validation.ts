// One ajv set-up for client and server: Italian formats, keywords and messages, and input normalisation.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import localizeItModule from 'ajv-i18n/localize/it/index.js';
import { dataNascitaMessage, decodeCodiceFiscale, isDataNascitaValida, italianFormats } from './validators/index.ts';
import { formatMessages, keywordMessages } from './validation-messages.ts';
import type { FieldDefinition, JsonSchema } from './definitions/types.ts';

// ajv-formats ships CommonJS; its default export differs between bundlers and Node.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const localizeIt = ((localizeItModule as unknown as { default?: unknown }).default ?? localizeItModule) as (errors: ErrorObject[]) => void;

export { REQUIRED_MESSAGE } from './validation-messages.ts';

export type FieldErrors = Record<string, string[]>;

/** Annotations the definitions use, declared to ajv; strict mode stays off so a new x-* never breaks a form. */
export const ANNOTATION_KEYWORDS = [
  'x-uppercase', 'x-widget', 'x-ref', 'x-money', 'x-secret', 'x-messages', 'x-unique', 'x-aliases', 'x-codice-fiscale',
  'x-filter-permission', 'x-read-permission', 'x-premio-forzato', 'x-warn-pattern', 'x-renamed-from', 'x-removed', 'x-computed',
];

export interface AjvOptions {
  /**
   * Every known cadastral (Belfiore) code: with it a 16-char codice fiscale must also name a real place
   * (and a real date). The server passes it; the client, without the data, checks structure and check character.
   */
  placeCodes?: ReadonlySet<string>;
}

/** Formats, annotation keywords and x-data-nascita on an ajv instance: the server's and the one rjsf builds. */
export function configureAjv(ajv: Ajv, options: AjvOptions = {}): Ajv {
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
  for (const keyword of ANNOTATION_KEYWORDS) if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
  if (!ajv.getKeyword('x-data-nascita')) {
    ajv.addKeyword({
      keyword: 'x-data-nascita',
      type: 'string',
      schemaType: 'boolean',
      // A malformed date is the format's error; this keyword only judges real dates.
      validate: (enabled: boolean, value: string) => !enabled || !/^\d{4}-\d{2}-\d{2}$/.test(value) || isDataNascitaValida(value),
      errors: false,
    });
  }
  return ajv;
}

export function createAjv(options: AjvOptions = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
  addFormats(ajv);
  return configureAjv(ajv, options);
}

// Keywords that only summarise the errors reported on the fields themselves (if/then/else, anyOf, allOf).
const SUMMARY_KEYWORDS = new Set(['if', 'then', 'else', 'anyOf', 'allOf', '$ref']);

/** The one Italian message of an ajv error: x-messages of the schema, our wording, else ajv-i18n's Italian. */
export function messageFor(error: ErrorObject): string | undefined {
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-messages'] as Record<string, string> | undefined;
  if (custom?.[error.keyword]) return custom[error.keyword];
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'format') {
    const name = String(params.format);
    return italianFormats[name]?.message ?? formatMessages[name] ?? 'Formato non valido';
  }
  if (error.keyword === 'x-data-nascita') return dataNascitaMessage();
  const ours = keywordMessages[error.keyword];
  if (ours) return ours(params);
  if (SUMMARY_KEYWORDS.has(error.keyword)) return undefined;
  const copy = { ...error, message: undefined as string | undefined };
  localizeIt([copy]);
  return copy.message ? copy.message.charAt(0).toUpperCase() + copy.message.slice(1) : undefined;
}

/** Sets every error's message to its Italian text (rjsf shows error.message). */
export function localizeErrors(errors: ErrorObject[] | null | undefined): void {
  for (const error of errors ?? []) {
    const message = messageFor(error);
    if (message) error.message = message;
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

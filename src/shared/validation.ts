// One ajv set-up for client and server: Italian formats, keywords and messages, and input normalisation.
import { Ajv, _, type ErrorObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { decodeCodiceFiscale, italianFormats } from './validators/index.ts';
import { ITALIAN_FORMATS, VALIDATION_RUNTIME, annoFinoAOggi, dataNascita, messageFor } from './validation-runtime.ts';
import type { FieldDefinition, JsonSchema } from './definitions/types.ts';

// ajv-formats ships CommonJS; its default export differs between bundlers and Node.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export { REQUIRED_MESSAGE } from './validation-messages.ts';
export { VALIDATION_RUNTIME, localizeErrors, messageFor, validationRuntime } from './validation-runtime.ts';

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

/** ajv's code.formats for standalone code: every format from the run-time module (validation-runtime.ts). */
export const STANDALONE_FORMATS = _`require(${VALIDATION_RUNTIME}).formats`;

/** Formats, annotation keywords, x-data-nascita and x-anno-corrente on an ajv instance: the server's and the one rjsf builds. */
export function configureAjv(ajv: Ajv, options: AjvOptions = {}): Ajv {
  const { placeCodes } = options;
  for (const [name, format] of Object.entries(ITALIAN_FORMATS)) {
    if (name === 'codice-fiscale' && placeCodes) {
      // decodeCodiceFiscale undoes omocodia in the place code (H5LM -> H501); 11-digit codes have no place.
      ajv.addFormat(name, {
        type: 'string',
        validate: (value: string) => format.validate(value)
          && (value.trim().length !== 16 || placeCodes.has(decodeCodiceFiscale(value)?.codiceCatastale ?? '')),
      });
    } else if (name === 'nazione' && placeCodes) {
      // A country's cadastral code must name a real one ('1' and '2' carry no code).
      ajv.addFormat(name, { type: 'string', validate: (value: string) => format.validate(value) && (!value.startsWith('Z') || placeCodes.has(value)) });
    } else {
      ajv.addFormat(name, format);
    }
  }
  for (const keyword of ANNOTATION_KEYWORDS) if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
  if (!ajv.getKeyword('x-data-nascita')) {
    ajv.addKeyword({
      keyword: 'x-data-nascita',
      type: 'string',
      schemaType: 'boolean',
      // Generated code (not a validate function) so that standalone code can call the check from the runtime module.
      code(cxt: KeywordCxt) {
        if (cxt.schema !== true) return;
        const check = cxt.gen.scopeValue('func', { ref: dataNascita, code: _`require(${VALIDATION_RUNTIME}).dataNascita` });
        cxt.fail(_`!${check}(${cxt.data})`);
      },
    });
  }
  if (!ajv.getKeyword('x-anno-corrente')) {
    ajv.addKeyword({
      keyword: 'x-anno-corrente',
      type: 'number',
      schemaType: 'boolean',
      // The current year is read at each validation (a compiled schema lives across New Year), from the runtime module.
      code(cxt: KeywordCxt) {
        if (cxt.schema !== true) return;
        const check = cxt.gen.scopeValue('func', { ref: annoFinoAOggi, code: _`require(${VALIDATION_RUNTIME}).annoFinoAOggi` });
        cxt.fail(_`!${check}(${cxt.data})`);
      },
    });
  }
  return ajv;
}

export function createAjv(options: AjvOptions = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
  addFormats(ajv);
  return configureAjv(ajv, options);
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

/** compileValidator on the first call: for validators a start builds that most requests, and many starts, never use. */
export function lazyValidator(ajvOf: () => Ajv, schema: JsonSchema): (data: unknown) => FieldErrors | null {
  let validate: ((data: unknown) => FieldErrors | null) | undefined;
  return (data) => (validate ??= compileValidator(ajvOf(), schema))(data);
}

/** Trims text, upper-cases what the schema asks for, applies its format's normaliser, and turns empty strings into null. */
export function normalizeInput(fields: FieldDefinition[], input: Record<string, unknown>): Record<string, unknown> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = byName.get(key);
    if (typeof value === 'string' && field && field.kind !== 'json' && !field.secret) {
      const trimmed = value.trim();
      const normalize = field.format ? italianFormats[field.format]?.normalize : undefined;
      out[key] = trimmed === '' ? null : field.uppercase ? trimmed.toUpperCase() : normalize ? normalize(trimmed) : trimmed;
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

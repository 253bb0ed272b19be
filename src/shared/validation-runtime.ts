// What validation needs at run time, without ajv's compiler: the formats, the x-data-nascita check and the Italian
// messages. The browser loads only this (its validators come compiled from the server); validation.ts sets up ajv.
import type { ErrorObject } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import localizeItModule from 'ajv-i18n/localize/it/index.js';
import { annoCorrente, annoMessage, dataNascitaMessage, isDataNascitaValida, italianFormats } from './validators/index.ts';
import { formatMessages, keywordMessages } from './validation-messages.ts';

// ajv-i18n ships CommonJS; its default export differs between bundlers and Node.
export const localizeIt = ((localizeItModule as unknown as { default?: unknown }).default ?? localizeItModule) as (errors: ErrorObject[]) => void;

/** A malformed date is the format's error; x-data-nascita only judges real dates. */
export function dataNascita(value: string): boolean {
  return !/^\d{4}-\d{2}-\d{2}$/.test(value) || isDataNascitaValida(value);
}

/** "x-anno-corrente": a number is at most the current year (the type and the minimum are the schema's own keywords). */
export function annoFinoAOggi(value: number): boolean {
  return value <= annoCorrente();
}

export const ITALIAN_FORMATS = Object.fromEntries(
  Object.entries(italianFormats).map(([name, format]) => [name, { type: 'string' as const, validate: format.validate }]),
);

/**
 * What code compiled ahead of time (ajv standalone, no eval in the browser) calls at run time: the formats and the
 * x-data-nascita and x-anno-corrente checks, the same objects configureAjv hands to ajv. Compiled code reaches them as
 * require(VALIDATION_RUNTIME).
 */
export const VALIDATION_RUNTIME = 'app:validation';
export const validationRuntime = { formats: { ...fullFormats, ...ITALIAN_FORMATS } as Record<string, unknown>, dataNascita, annoFinoAOggi };

// Keywords that only summarise the errors reported on the fields themselves (if/then/else, anyOf, allOf).
const SUMMARY_KEYWORDS = new Set(['if', 'then', 'else', 'anyOf', 'allOf', '$ref']);

/** The one Italian message of an ajv error: x-messages of the schema, our wording, else ajv-i18n's Italian. */
export function messageFor(error: ErrorObject): string | undefined {
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  const custom = parent?.['x-messages'] as Record<string, string> | undefined;
  if (custom?.[error.keyword]) return custom[error.keyword];
  // A year: not a whole number, before the minimum or after this year all read the same, with today's bounds.
  if (parent?.['x-anno-corrente'] === true && ['x-anno-corrente', 'type', 'minimum', 'maximum'].includes(error.keyword)) {
    return annoMessage(typeof parent.minimum === 'number' ? parent.minimum : undefined);
  }
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


// The rjsf validator: ajv with the server's Italian formats, the x-data-nascita keyword and Italian messages.
import type { ErrorObject } from 'ajv';
import type { RJSFValidationError, ValidatorType } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { dataNascitaMessage, isDataNascitaValida, italianFormats } from '../../shared/validators/index.ts';
import { ajvMessages, formatMessages } from '../messages.ts';
import { hiddenFields } from './layout.ts';

/** Annotations the definitions use, declared to ajv; strict mode stays off so a new x-* never breaks a form. */
export const ANNOTATION_KEYWORDS = [
  'x-uppercase',
  'x-widget',
  'x-ref',
  'x-money',
  'x-secret',
  'x-messages',
  'x-unique',
  'x-aliases',
  'x-codice-fiscale',
  'x-filter-permission',
  'x-read-permission',
  'x-premio-forzato',
  'x-warn-pattern',
];

function messageFor(error: ErrorObject): string | undefined {
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-messages'] as Record<string, string> | undefined;
  if (custom?.[error.keyword]) return custom[error.keyword];
  if (error.keyword === 'format') {
    const name = String((error.params as { format?: string }).format);
    return italianFormats[name]?.message ?? formatMessages[name] ?? 'Formato non valido';
  }
  if (error.keyword === 'x-data-nascita') return dataNascitaMessage();
  return ajvMessages[error.keyword]?.(error.params as Record<string, unknown>);
}

function localize(errors?: null | ErrorObject[]): void {
  for (const error of errors ?? []) {
    const message = messageFor(error);
    if (message) error.message = message;
  }
}

const customFormats = Object.fromEntries(Object.entries(italianFormats).map(([name, format]) => [name, (value: string) => format.validate(value)]));

const base = customizeValidator(
  {
    customFormats,
    ajvOptionsOverrides: { strict: false },
    extenderFn: (ajv) => {
      for (const keyword of ANNOTATION_KEYWORDS) if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
      ajv.addKeyword({
        keyword: 'x-data-nascita',
        type: 'string',
        schemaType: 'boolean',
        // A malformed date is the format's error; this keyword only judges real dates.
        validate: (enabled: boolean, value: string) => !enabled || !/^\d{4}-\d{2}-\d{2}$/.test(value) || isDataNascitaValida(value),
        errors: false,
      });
      return ajv;
    },
  },
  localize,
);

/** Drops summary errors (if/then/else) and errors of fields that "ui:hideWhen" currently hides. */
export function cleanErrors(errors: RJSFValidationError[], uiSchema: Record<string, unknown> | undefined, formData: unknown): RJSFValidationError[] {
  const hidden = hiddenFields(uiSchema, formData as Record<string, unknown>);
  return errors.filter((error) => {
    if (error.name === 'if' || error.name === 'then' || error.name === 'else') return false;
    const top = (error.property ?? '').replace(/^\./, '').split('.')[0];
    return !hidden.has(top);
  });
}

/** Delegates to the ajv validator, cleaning errors with the data being validated in hand. */
export const formValidator: ValidatorType = {
  validateFormData(formData, schema, customValidate, transformErrors, uiSchema) {
    return base.validateFormData(
      formData,
      schema,
      customValidate,
      (errors, ui) => cleanErrors(transformErrors ? transformErrors(errors, ui) : errors, ui as Record<string, unknown>, formData),
      uiSchema,
    );
  },
  isValid: (schema, formData, rootSchema) => base.isValid(schema, formData, rootSchema),
  rawValidation: (schema, formData) => base.rawValidation(schema, formData),
  reset: () => base.reset(),
};

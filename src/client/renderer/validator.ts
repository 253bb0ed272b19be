// The rjsf validator: the server's ajv set-up (formats, keywords, Italian messages) from src/shared/validation.ts.
import type { Ajv } from 'ajv';
import type { RJSFValidationError, ValidatorType } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { configureAjv, localizeErrors } from '../../shared/validation.ts';
import { hiddenFields } from './layout.ts';

// The same ajv set-up and messages as the server (src/shared/validation.ts); only the place codes are server-side data.
const base = customizeValidator({ extenderFn: (ajv) => configureAjv(ajv as unknown as Ajv) as unknown as typeof ajv }, localizeErrors);

/** rjsf reports an unknown property on its parent object; the server (and the user) names the property itself. */
function atOffendingField(error: RJSFValidationError): RJSFValidationError {
  const extra = (error.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  if (error.name !== 'additionalProperties' || !extra) return error;
  const property = `${error.property ?? ''}.${extra}`;
  return { ...error, property, stack: `${property} ${error.message ?? ''}`.trim() };
}

/** Drops summary errors (if/then/else) and errors of fields that "ui:hideWhen" currently hides. */
export function cleanErrors(errors: RJSFValidationError[], uiSchema: Record<string, unknown> | undefined, formData: unknown): RJSFValidationError[] {
  const hidden = hiddenFields(uiSchema, formData as Record<string, unknown>);
  return errors.map(atOffendingField).filter((error) => {
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

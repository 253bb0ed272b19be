// The rjsf validator, with no eval in the browser (the Content-Security-Policy has no 'unsafe-eval'): each form's schema
// is compiled by the server with the shared ajv set-up (src/shared/validation.ts) into a module the browser imports,
// and rjsf's precompiled validator runs it with the same Italian messages.
import { useEffect, useState } from 'react';
import { hashForSchema, type RJSFSchema, type RJSFValidationError, type ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import uriModule from 'ajv/dist/runtime/uri.js';
import validationErrorModule from 'ajv/dist/runtime/validation_error.js';
import { VALIDATION_RUNTIME, localizeErrors, validationRuntime } from '../../shared/validation-runtime.ts';
import { api } from '../api/dataProvider.ts';
import { hiddenFields } from './layout.ts';
import { hiddenRowPaths } from '../../shared/rules.ts';
import type { JsonSchema } from '../types.ts';

// ajv's run-time helpers are CommonJS: their default export differs between bundlers and Node.
const unwrap = (module: unknown) => (module as { default?: unknown }).default ?? module;
const RUNTIME: Record<string, unknown> = {
  'ajv/dist/runtime/equal': { default: unwrap(equalModule) },
  'ajv/dist/runtime/ucs2length': { default: unwrap(ucs2lengthModule) },
  'ajv/dist/runtime/uri': { default: unwrap(uriModule) },
  'ajv/dist/runtime/validation_error': { default: unwrap(validationErrorModule) },
  [VALIDATION_RUNTIME]: validationRuntime,
};

function runtimeRequire(name: string): unknown {
  const module = RUNTIME[name];
  if (!module) throw new Error(`Modulo di validazione sconosciuto: ${name}`);
  return module;
}

/** rjsf reports an unknown property on its parent object; the server (and the user) names the property itself. */
function atOffendingField(error: RJSFValidationError): RJSFValidationError {
  const extra = (error.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  if (error.name !== 'additionalProperties' || !extra) return error;
  const property = `${error.property ?? ''}.${extra}`;
  return { ...error, property, stack: `${property} ${error.message ?? ''}`.trim() };
}

/**
 * Drops summary errors (if/then/else), errors of fields that "ui:hideWhen" currently hides and errors of array rows'
 * fields their own conditions hide (the schema's items if/then/else).
 */
export function cleanErrors(errors: RJSFValidationError[], uiSchema: Record<string, unknown> | undefined, formData: unknown, schema?: JsonSchema): RJSFValidationError[] {
  const data = (formData ?? {}) as Record<string, unknown>;
  const hidden = hiddenFields(uiSchema, data);
  const hiddenRows = schema ? hiddenRowPaths(schema, data) : new Set<string>();
  return errors.map(atOffendingField).filter((error) => {
    if (error.name === 'if' || error.name === 'then' || error.name === 'else') return false;
    const path = (error.property ?? '').replace(/^\./, '').split('.');
    return !hidden.has(path[0]!) && !hiddenRows.has(path.slice(0, 3).join('.'));
  });
}

// Every compiled function of every loaded module, by the id rjsf looks up (hashForSchema: the same schema, the same
// id, whichever module brought it); and one precompiled validator per root schema a form validates against.
const functions: ValidatorFunctions = {};
const roots = new Map<string, ValidatorType>();
const loading = new Map<string, Promise<void>>();

// Hashing a large schema on every render would cost typing latency: one hash per schema object.
const hashes = new WeakMap<object, string>();
function keyOf(schema: RJSFSchema): string {
  let key = hashes.get(schema);
  if (key === undefined) hashes.set(schema, (key = hashForSchema(schema)));
  return key;
}

export function hasFormValidator(schema: RJSFSchema): boolean {
  return roots.has(keyOf(schema));
}

/** Registers a compiled module (what the server's /api/validators module returns) for its root schema. */
export function registerFormValidator(schema: RJSFSchema, module: (require: (name: string) => unknown) => ValidatorFunctions): void {
  Object.assign(functions, module(runtimeRequire));
  roots.set(keyOf(schema), createPrecompiledValidator(functions, schema, localizeErrors));
}

/** Loads (once) the compiled validator of a form's schema from the server. */
export function loadFormValidator(schema: RJSFSchema): Promise<void> {
  const key = keyOf(schema);
  if (roots.has(key)) return Promise.resolve();
  let pending = loading.get(key);
  if (!pending) {
    pending = api.formValidator<ValidatorFunctions>(schema).then((module) => registerFormValidator(schema, module));
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/**
 * The validator of the form whose root is `schema`, or of the form `schema` is a resolved view of (rjsf validates
 * a form against its schema resolved with the data). A schema no loaded form knows is a programming error: it
 * throws, so a form never passes validation silently.
 */
function rootValidator(schema: RJSFSchema, formData: unknown): ValidatorType {
  const direct = roots.get(keyOf(schema));
  if (direct) return direct;
  for (const validator of roots.values()) {
    try {
      if ((validator as unknown as { ensureSameRootSchema(s: RJSFSchema, d: unknown): boolean }).ensureSameRootSchema(schema, formData)) return validator;
    } catch {
      // Not this form's schema.
    }
  }
  throw new Error(`Validatore del modulo non caricato per lo schema ${keyOf(schema)} (loadFormValidator prima di mostrare il modulo)`);
}

/** One validator for every form: each call goes to the precompiled validator of the form's root schema. */
export const formValidator: ValidatorType = {
  validateFormData(formData, schema, customValidate, transformErrors, uiSchema) {
    return rootValidator(schema, formData).validateFormData(
      formData,
      schema,
      customValidate,
      (errors, ui) => cleanErrors(transformErrors ? transformErrors(errors, ui) : errors, ui as Record<string, unknown>, formData, schema as JsonSchema),
      uiSchema,
    );
  },
  // Any sub-schema rjsf asks about (an `if`, a oneOf option) was compiled with its root, under rjsf's own id.
  isValid: (schema, formData, rootSchema) => rootValidator(rootSchema, formData).isValid(schema, formData, rootSchema),
  rawValidation: (schema, formData) => rootValidator(schema, formData).rawValidation(schema, formData),
  reset: () => undefined,
};

/** True once the validators of these schemas are loaded; `error` when one could not be. */
export function useFormValidators(schemas: RJSFSchema[]): { ready: boolean; error?: string } {
  const key = schemas.map(keyOf).join(',');
  const [state, setState] = useState<{ key: string; error?: string }>();
  const ready = schemas.every(hasFormValidator);
  useEffect(() => {
    if (ready) return;
    let live = true;
    Promise.all(schemas.map(loadFormValidator)).then(
      () => live && setState({ key }),
      (error: unknown) => live && setState({ key, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
    // The key stands for the schemas' content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready]);
  return { ready, error: state?.key === key ? state.error : undefined };
}

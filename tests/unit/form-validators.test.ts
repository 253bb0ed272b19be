// rjsf's precompiled validator asks isValid about sub-schemas its own schemaParser never collects (each `if` of an
// if/then/else): the server compiles them too, and a sub-schema nobody compiled throws instead of passing.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDefaultFormState, hashForSchema, retrieveSchema, schemaParser, type RJSFSchema } from '@rjsf/utils';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { conditionSchemas } from '../../src/server/validation/standalone.ts';
import { formValidator } from '../../src/client/renderer/validator.ts';
import { quotazioneForms } from '../../src/client/pages/quotazione/useQuotazione.ts';
import type { FormUi } from '../../src/client/types.ts';
import { registerFeatures } from '../../src/client/features.ts';
import { precompile } from './support/formValidators.ts';

registerFeatures();

// A licence count that narrows another choice, as on the public quotation link: nested in allOf, with an else.
const conditional: RJSFSchema = {
  type: 'object',
  properties: {
    patenti: { type: 'integer', minimum: 0, maximum: 10 },
    quotidiano: { type: 'integer', minimum: 1, maximum: 10 },
    nota: { type: 'string', default: 'nessuna' },
  },
  allOf: [
    {
      if: { properties: { patenti: { minimum: 4 } }, required: ['patenti'] },
      then: { properties: { quotidiano: { minimum: 2 } }, required: ['quotidiano'] },
      else: { properties: { nota: { default: 'una patente' } } },
    },
  ],
};

// An `if` inside a oneOf option: rjsf's schemaParser does not reach it, retrieveSchema asks about it.
const inOption: RJSFSchema = {
  type: 'object',
  oneOf: [
    { properties: { a: { type: 'string' } }, if: { properties: { a: { const: 'x' } }, required: ['a'] }, then: { required: ['a', 'b'] } },
    { properties: { b: { type: 'number' } } },
  ],
};

let main: RJSFSchema;
beforeAll(async () => {
  const quotazione = (await loadDefinitions(path.resolve('schemas'))).resources.get('quotazione')!;
  main = quotazioneForms(quotazione.schema, quotazione.form as FormUi).main.schema;
  await precompile(conditional, inOption, main);
});

describe('precompiled form validators', () => {
  it("compiles each `if`, also those rjsf's schemaParser leaves out", () => {
    const ifSchema = (inOption.oneOf![0] as RJSFSchema).if as RJSFSchema;
    expect(Object.keys(schemaParser(inOption))).not.toContain(hashForSchema(ifSchema));
    expect(conditionSchemas(inOption as never)).toContainEqual(ifSchema);
    // What rjsf's oneOf field does once it picked the option: resolve the option with the data.
    const option = inOption.oneOf![0] as RJSFSchema;
    expect(retrieveSchema(formValidator, option, inOption, { a: 'x' }).required).toEqual(['a', 'b']);
    expect(retrieveSchema(formValidator, option, inOption, { a: 'y' }).required).toBeUndefined();
  });

  it('applies then and else by the data, like the server', () => {
    const four = retrieveSchema(formValidator, conditional, conditional, { patenti: 4 });
    expect((four.properties!.quotidiano as RJSFSchema).minimum).toBe(2);
    expect(four.required).toEqual(['quotidiano']);
    const one = retrieveSchema(formValidator, conditional, conditional, { patenti: 1 });
    expect((one.properties!.quotidiano as RJSFSchema).minimum).toBe(1);
    expect(getDefaultFormState(formValidator, conditional, { patenti: 4 }, conditional)).toMatchObject({ patenti: 4, nota: 'nessuna' });
    const errors = formValidator.validateFormData({ patenti: 4, quotidiano: 1 }, conditional).errors.map((e) => e.property);
    expect(errors).toEqual(['.quotidiano']);
  });

  it("answers the quotation's persona conditions (natural or legal person)", () => {
    const legal = retrieveSchema(formValidator, main, main, { persona: 'g' });
    expect(legal.required).toEqual(expect.arrayContaining(['rsoc', 'piva']));
    const natural = retrieveSchema(formValidator, main, main, { persona: 'f' });
    expect(natural.required).toEqual(expect.arrayContaining(['nome', 'cognome']));
    expect(natural.required).not.toContain('rsoc');
  });

  it('throws on a sub-schema or a form nobody compiled, never passing silently', () => {
    expect(() => formValidator.isValid({ type: 'string', minLength: 99 }, 'x', conditional)).toThrow(/No precompiled validator/);
    expect(() => formValidator.validateFormData({}, { type: 'object', title: 'mai compilato' })).toThrow(/non caricato/);
  });
});

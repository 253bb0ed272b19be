// The stepper's pure parts on the real quotazioni_rca definition: forms per person kind, errors per form, the body sent.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { errorSchemas, personaPulita, personaUi, stepForms, type Richiesta } from '../../src/client/pages/rca/forms.ts';
import { requestErrors, toSend } from '../../src/client/pages/rca/useQuotazioneRca.ts';
import { padIstat, richiestaVuota, tipiIndirizzo, verificaRichiesta } from '../../src/shared/rca/richiesta.ts';
import type { JsonSchema } from '../../src/client/types.ts';
import { precompile } from './support/formValidators.ts';

let entity: JsonSchema;
beforeAll(async () => {
  entity = (await loadDefinitions(path.resolve('schemas'))).resources.get('quotazioni_rca')!.schema;
  await precompile(entity.properties!.quotation_request!);
});

describe('person form of spec 002 §2.6', () => {
  it('a legal person shows Ragione Sociale and Partita IVA only; others the reverse', () => {
    const juridic = stepForms(entity, 'Juridic').persona;
    expect(Object.keys(juridic.properties!)).toEqual(['gender', 'name', 'vatNumber']);
    expect(juridic.required).toEqual(['gender', 'name', 'vatNumber']);
    expect(personaUi('Juridic').name).toEqual({ 'ui:title': 'Ragione Sociale' });
    const male = stepForms(entity, 'Male').persona;
    expect(Object.keys(male.properties!)).toEqual(['gender', 'name', 'surname', 'birthDate', 'maritalStatus', 'fiscalCode']);
    expect(male.required).toEqual(['gender', 'name', 'surname', 'birthDate', 'fiscalCode']);
    expect(personaPulita({ gender: 'Juridic', name: 'ACME', surname: 'X', vatNumber: '01234567897' })).toEqual({ gender: 'Juridic', name: 'ACME', vatNumber: '01234567897' });
    expect(personaPulita({ gender: 'Female', name: 'ANNA', vatNumber: '1' })).toEqual({ gender: 'Female', name: 'ANNA' });
  });

  it('address types follow the person kind', () => {
    const types = (g: string) => (stepForms(entity, g).indirizzo.properties!.addressType!.oneOf as Array<{ const: string }>).map((o) => o.const);
    expect(types('Juridic')).toEqual(['CompanyHeadquarters', 'CompanyOther']);
    expect(types('Female')).toEqual(['PermanentResidency', 'OtherResidency']);
    expect(tipiIndirizzo('Juridic', true)).toEqual(['CompanyHeadquarters']);
  });
});

describe('request sent and its errors', () => {
  it('pads the municipality code to six digits and formats the plate', () => {
    expect(padIstat(58091)).toBe('058091');
    const r = richiestaVuota('2030-01-01') as Richiesta;
    r.fastFlowData.plate = 'ab 123-cd';
    r.addresses[0]!.cityIstat = 1272;
    const sent = toSend(r);
    expect(sent.fastFlowData.plate).toBe('AB123CD');
    expect(sent.addresses[0]!.cityIstat).toBe('001272');
  });

  it('names every missing field of the empty request, and the past effect date', () => {
    const r = richiestaVuota('2020-01-01') as Richiesta;
    const errors = requestErrors(entity.properties!.quotation_request as RJSFSchema, r);
    expect(Object.keys(errors)).toEqual(expect.arrayContaining([
      'fastFlowData.plate', 'fastFlowData.personData.name', 'fastFlowData.personData.surname', 'addresses.0.streetName', 'addresses.0.cityIstat', 'contacts.0.value',
    ]));
    expect(verificaRichiesta(r, '2021-01-01')['fastFlowData.effectDate']).toEqual(['La data è già passata.']);
  });

  it('splits server errors into the forms that show them', () => {
    expect(errorSchemas({ 'fastFlowData.plate': ['a'], 'fastFlowData.personData.name': ['b'], 'addresses.0.zipCode': ['c'], 'contacts.0.value': ['d'], coverages: ['e'] })).toEqual({
      dati: { plate: { __errors: ['a'] } },
      persona: { name: { __errors: ['b'] } },
      indirizzo: { zipCode: { __errors: ['c'] } },
      contatto: { value: { __errors: ['d'] } },
      garanzie: { coverages: { __errors: ['e'] } },
    });
  });
});

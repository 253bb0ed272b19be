// One validator for both sides: the same invalid records fed to the server's ajv (422 field errors) and to the form's
// rjsf validator give the same fields with the same Italian messages.
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { compileValidator, createAjv, type FieldErrors } from '../../src/shared/validation.ts';
import { formValidator } from '../../src/client/renderer/validator.ts';
import { precompile } from './support/formValidators.ts';
import type { Definitions } from '../../src/shared/definitions/types.ts';

let definitions: Definitions;
beforeAll(async () => {
  definitions = await loadDefinitions(path.resolve('schemas'));
  // The form validates with code the server compiled (no eval in the browser), from the same ajv set-up.
  await precompile(...['cliente', 'quotazione', 'compagnia', 'collaboratore'].map((name) => definitions.resources.get(name)!.schema));
});

function flatten(schema: ErrorSchema | undefined, prefix = '', out: FieldErrors = {}): FieldErrors {
  for (const [key, value] of Object.entries((schema ?? {}) as Record<string, unknown>)) {
    if (key === '__errors') {
      if ((value as string[]).length) out[prefix || '_'] = [...new Set([...(out[prefix || '_'] ?? []), ...(value as string[])])];
    } else {
      flatten(value as ErrorSchema, prefix ? `${prefix}.${key}` : key, out);
    }
  }
  return out;
}

const sorted = (errors: FieldErrors | null) =>
  Object.fromEntries(Object.entries(errors ?? {}).map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => a.localeCompare(b)));

function both(resource: string, record: Record<string, unknown>) {
  const schema = definitions.resources.get(resource)!.schema;
  const server = compileValidator(createAjv(), schema)(record);
  const client = flatten(formValidator.validateFormData(record, schema as RJSFSchema).errorSchema);
  return { server: sorted(server), client: sorted(client) };
}

const cases: Array<[string, string, Record<string, unknown>]> = [
  ['cliente', 'empty record', {}],
  ['cliente', 'company without VAT', { tipo: 'CORPORATE', sesso: 'A', nome: 'Rossi Srl' }],
  ['cliente', 'every kind of bad value', {
    tipo: 'PRIVATO', sesso: 'M', nome: 'x'.repeat(300), cognome: 'Rossi', cf: 'RSSMRA80A01H501X', email: 'non-una-mail',
    dataNascita: '1890-05-01', documentoScadenza: '2024-02-31', residenzaCap: '123', piva: '12345', IBAN: 'IT00X', codiceUnivocoPA: 'abc',
    numeroDipendentiMaggioreDi: 5, attivo: 'si', collaboratore_id: 'abc', perc_provvigione_passiva: 250, extra: 1,
  }],
  ['cliente', 'birth date too recent', { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Neri', dataNascita: `${new Date().getFullYear() - 5}-01-01` }],
  ['quotazione', 'legal person without company data, bad vehicles', {
    persona: 'g', telefono: '12', quotidiano: 'tre', competenze: -5,
    veicoli_storici: [{ marca: 'Fiat', anno: 2200, tipologia_ania: 'K' }, { modello: 'Spider' }],
  }],
  ['quotazione', 'natural person without names', { persona: 'f', email: 'x@', decorrenza: '01/02/2025' }],
  ['compagnia', 'empty supplier', {}],
  ['collaboratore', 'bad collaborator', { nome: '', email: 'no', cf: '123', iban: 'XX' }],
];

describe('server and form validators', () => {
  it.each(cases)('%s, %s: identical field errors', (resource, _label, record) => {
    const { server, client } = both(resource, record);
    expect(Object.keys(server).length).toBeGreaterThan(0);
    expect(client).toEqual(server);
  });
});

describe('historic vehicle year (spec 001 §5: 1900 to the current year)', () => {
  const year = new Date().getFullYear();
  const vehicles = (...anni: unknown[]) => ({ persona: 'f', nome: 'Anna', cognome: 'Neri', veicoli_storici: anni.map((anno) => ({ marca: 'Fiat', modello: '500 F', anno })) });
  const years = (errors: FieldErrors) => Object.fromEntries(Object.entries(errors).filter(([k]) => k.endsWith('.anno')));

  it('a whole year from 1900 to this year, one message at the field, the same on the server and in the form', () => {
    const { server, client } = both('quotazione', vehicles(1899, year + 1, 1968.5, '1968', 1900, year));
    expect(client).toEqual(server);
    const message = `Inserisci un anno valido, dal 1900 al ${year}`;
    expect(years(server)).toEqual({
      'veicoli_storici.0.anno': [message], 'veicoli_storici.1.anno': [message], 'veicoli_storici.2.anno': [message], 'veicoli_storici.3.anno': [message],
    });
  });

  it('reads the current year when it judges a value, not when the schema was compiled', () => {
    const schema = definitions.resources.get('quotazione')!.schema;
    const validate = compileValidator(createAjv(), schema);
    const next = vehicles(year + 1);
    expect(years(validate(next) ?? {})).toEqual({ 'veicoli_storici.0.anno': [`Inserisci un anno valido, dal 1900 al ${year}`] });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(year + 1, 0, 1, 9));
      expect(years(validate(next) ?? {})).toEqual({});
      expect(years(flatten(formValidator.validateFormData(next, schema as RJSFSchema).errorSchema))).toEqual({});
    } finally {
      vi.useRealTimers();
    }
  });
});

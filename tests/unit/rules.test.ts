// Conditional and computed fields declared in JSON Schema: evaluation, server application, and the form rules derived.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { compileDefinitions, DefinitionError, type RawDefinitions } from '../../src/shared/definitions/compile.ts';
import type { Definitions, JsonSchema } from '../../src/shared/definitions/types.ts';
import { applyRecordRules, computedProperties, evaluateComputed, hiddenProperties, hiddenRowPaths, staleComputed, staleHiddenRows, withDerivedValues } from '../../src/shared/rules.ts';
import { formValidator } from '../../src/client/renderer/validator.ts';
import { compileValidator, createAjv } from '../../src/shared/validation.ts';
import { precompile } from './support/formValidators.ts';

let definitions: Definitions;
beforeAll(async () => {
  definitions = await loadDefinitions(path.resolve('schemas'));
});
const schemaOf = (name: string) => definitions.resources.get(name)!.schema;
const formOf = (name: string) => definitions.resources.get(name)!.form as Record<string, any>;
const mismatch = (v: number) => `calcolato ${v}`;

describe('computed fields', () => {
  it('adds in integer cents, rounds products to the cent, and is empty when every operand is', () => {
    expect(evaluateComputed('premio_base + competenze', { premio_base: 0.1, competenze: 0.2 })).toBe(0.3);
    expect(evaluateComputed('premio_base + competenze', { premio_base: 1234.56, competenze: null })).toBe(1234.56);
    expect(evaluateComputed('a * 1.22', { a: 10.01 })).toBe(12.21);
    expect(evaluateComputed('(a - b) / 2', { a: 10, b: 0.01 })).toBe(5);
    expect(evaluateComputed('a + b', {})).toBeNull();
  });

  it('fills the quotation premium lines and refuses a total that disagrees', () => {
    const schema = schemaOf('quotazione');
    const record: Record<string, unknown> = { persona: 'f', nome: 'A', cognome: 'B', preventivi: [{ premio_base: 180.1, competenze: 20.2 }] };
    const input = { ...record };
    expect(applyRecordRules(schema, record, input, mismatch)).toEqual({});
    expect((input.preventivi as any[])[0].premio_totale).toBe(200.3);
    const wrong = { ...record, preventivi: [{ premio_base: 180.1, competenze: 20.2, premio_totale: 200 }] };
    expect(applyRecordRules(schema, wrong, { ...wrong }, mismatch)).toEqual({ 'preventivi.0.premio_totale': ['calcolato 200.3'] });
  });

  it('tells the form which computed values are stale as the user types, chained in declaration order', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        premio_base: { type: 'number' }, competenze: { type: 'number' },
        premio_totale: { type: 'number', 'x-computed': 'premio_base + competenze' },
        con_imposte: { type: 'number', 'x-computed': 'premio_totale * 1.1' },
      },
    };
    const computed = computedProperties(schema);
    expect(staleComputed(computed, { premio_base: 100 })).toEqual([['premio_totale', 100], ['con_imposte', 110]]);
    expect(staleComputed(computed, { premio_base: 100, competenze: 0.5, premio_totale: 100.5, con_imposte: 110.55 })).toEqual([]);
    expect(staleComputed(computed, { premio_totale: 5, con_imposte: 5.5 })).toEqual([['premio_totale', undefined], ['con_imposte', undefined]]);
  });

  it('is checked at start-up: expression and operands', () => {
    const base = schemaOf('cliente');
    const compile = (prop: JsonSchema) => {
      const raw: RawDefinitions = {
        shared: {},
        resources: [{
          dir: 'prova',
          resource: { name: 'prova', title: 'Prova', api: { path: '/api/prova' }, permissions: { list: 'x', read: 'x', create: 'x', update: 'x', delete: 'x' } },
          entity: { type: 'object', properties: { a: { type: 'number' }, testo: { type: 'string' }, totale: prop } },
          list: { columns: [{ field: 'a', headerName: 'A' }] },
          form: {},
        }],
      };
      return compileDefinitions(raw);
    };
    expect(base).toBeDefined();
    expect(compile({ type: 'number', 'x-computed': 'a * 2' }).resources.get('prova')!.form.totale).toEqual({ 'ui:readonly': true });
    expect(() => compile({ type: 'number', 'x-computed': 'a +' })).toThrow(DefinitionError);
    expect(() => compile({ type: 'number', 'x-computed': 'a +' })).toThrow(/x-computed: l'espressione è incompleta/);
    expect(() => compile({ type: 'number', 'x-computed': 'a ) 2' })).toThrow(/x-computed: "\)" non è atteso qui/);
    expect(() => compile({ type: 'number', 'x-computed': 'a + testo' })).toThrow(/"testo" non è una proprietà numerica dello stesso record/);
    expect(() => compile({ type: 'number', 'x-computed': 'a + manca' })).toThrow(/"manca" non è una proprietà numerica dello stesso record/);
  });
});

describe('conditional fields', () => {
  it('hides the natural-person fields of a company customer and clears them on the server', () => {
    const schema = schemaOf('cliente');
    expect([...hiddenProperties(schema, { sesso: 'A' })].sort()).toEqual(['cognome', 'comune_nascita_id', 'dataNascita', 'nazioneNascita']);
    expect([...hiddenProperties(schema, { sesso: 'F' })]).toEqual([]);
    const record: Record<string, unknown> = { tipo: 'CORPORATE', sesso: 'A', nome: 'Acme Srl', piva: '01234567897', cognome: 'Rossi', dataNascita: '1980-01-01' };
    const input: Record<string, unknown> = { ...record };
    applyRecordRules(schema, record, input, mismatch);
    expect(input).toMatchObject({ cognome: null, dataNascita: null, nome: 'Acme Srl' });
    expect(compileValidator(createAjv(), schema)(Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null)))).toBeNull();
  });

  it('asks company data only for persona g, birth province and municipality only for birth country 1, quintali only for type C', () => {
    const schema = schemaOf('quotazione');
    expect(hiddenProperties(schema, { persona: 'g' })).toEqual(new Set(['sesso', 'nome', 'cognome', 'dataNascita', 'nazione_nascita_id', 'provincia_nascita_codice', 'comune_nascita_id']));
    expect(hiddenProperties(schema, { persona: 'f', nazione_nascita_id: '1' })).toEqual(new Set(['rsoc', 'piva']));
    expect(hiddenProperties(schema, { persona: 'f', nazione_nascita_id: '40' })).toEqual(new Set(['rsoc', 'piva', 'provincia_nascita_codice', 'comune_nascita_id']));
    const vehicles = schema.properties!.veicoli_storici!.items!;
    expect(hiddenProperties(vehicles, { tipologia_ania: 'C' }).size).toBe(0);
    expect(hiddenProperties(vehicles, { tipologia_ania: 'A' })).toEqual(new Set(['quintali']));
    const record: Record<string, unknown> = { persona: 'f', nome: 'A', cognome: 'B', veicoli_storici: [{ marca: 'Fiat', modello: '600', anno: 1960, tipologia_ania: 'A', quintali: 8 }, { marca: 'OM', modello: 'Leoncino', anno: 1955, tipologia_ania: 'C', quintali: 30 }] };
    const input = { ...record };
    applyRecordRules(schema, record, input, mismatch);
    expect((input.veicoli_storici as any[]).map((v) => v.quintali)).toEqual([undefined, 30]);
    // The server's validator agrees: a hidden field that holds a value is an error, a cleared one is not.
    const validate = compileValidator(createAjv(), schema);
    expect(validate({ persona: 'g', rsoc: 'Acme', piva: '01234567897', nome: 'X' })).toHaveProperty('nome');
    expect(validate(withDerivedValues(schema, { persona: 'g', rsoc: 'Acme', piva: '01234567897', nome: 'X' }))).toBeNull();
  });

  it('turns into the form rules, so the analyst writes the condition once', () => {
    expect(formOf('cliente').cognome).toEqual({ 'ui:hideWhen': { sesso: 'A' } });
    const q = formOf('quotazione');
    expect(q.rsoc).toEqual({ 'ui:showWhen': { persona: 'g' } });
    expect(q.nome).toEqual({ 'ui:hideWhen': { persona: 'g' } });
    expect(q.provincia_nascita_codice).toEqual({ 'ui:hideWhen': { persona: 'g' }, 'ui:showWhen': { nazione_nascita_id: '1' } });
    expect(q.veicoli_storici.items.quintali).toEqual({ 'ui:showWhen': { tipologia_ania: 'C' } });
    expect(q.veicoli_storici['ui:widget']).toBe('veicoli_storici');
    expect(q.preventivi.items.premio_totale).toEqual({ 'ui:readonly': true });
  });
});

describe('conditional fields in array rows (the form)', () => {
  const rows = (...tipi: string[]) => tipi.map((t, i) => ({ id: `v${i}`, marca: 'FIAT', modello: '124', anno: 1970, tipologia_ania: t, quintali: 35 }));

  it('names the hidden fields of each row and empties them, leaving visible ones', () => {
    const quotazione = schemaOf('quotazione');
    const data = { veicoli_storici: rows('C', 'A') };
    expect([...hiddenRowPaths(quotazione, data)]).toEqual(['veicoli_storici.1.quintali']);
    const [[name, cleaned]] = staleHiddenRows(quotazione, data) as [[string, Array<Record<string, unknown>>]];
    expect(name).toBe('veicoli_storici');
    expect(cleaned[0]!.quintali).toBe(35);
    expect('quintali' in cleaned[1]!).toBe(false);
    expect(staleHiddenRows(quotazione, { veicoli_storici: cleaned })).toEqual([]);
  });

  it('raises no form error for a field its row hides', async () => {
    const quotazione = schemaOf('quotazione');
    await precompile(quotazione);
    const { errors } = formValidator.validateFormData({ veicoli_storici: rows('A') }, quotazione as Parameters<typeof formValidator.validateFormData>[1], undefined, undefined, formOf('quotazione'));
    expect(errors.filter((e) => (e.property ?? '').includes('veicoli_storici'))).toEqual([]);
    // The same row is wrong for the server's validator (the else branch forbids quintali): the form leaves it out.
    expect(compileValidator(createAjv(), { type: 'object', properties: { veicoli_storici: quotazione.properties!.veicoli_storici! } })({ veicoli_storici: rows('A') })).toBeTruthy();
  });
});

describe('schema evolution annotations', () => {
  const compileWith = (properties: Record<string, unknown>) => compileDefinitions({
    shared: {},
    resources: [{
      dir: 'prova',
      resource: { name: 'prova', title: 'Prova', api: { path: '/api/prova' }, permissions: { list: 'x', read: 'x', create: 'x', update: 'x', delete: 'x' } },
      entity: { type: 'object', properties },
      list: { columns: [{ field: 'id', headerName: 'Id' }] },
      form: {},
    }],
  }).resources.get('prova')!;

  it('x-renamed-from makes the old name an alias; x-removed takes the property out and names it', () => {
    const def = compileWith({ id: { type: 'integer' }, codice: { type: 'string', 'x-renamed-from': 'vecchio' }, via: { 'x-removed': true } });
    expect(def.fields.find((f) => f.name === 'codice')!.renamedFrom).toBe('vecchio');
    expect(def.schema.properties!.codice!['x-aliases']).toEqual(['vecchio']);
    expect(def.removed).toEqual(['via']);
    expect(def.schema.properties!.via).toBeUndefined();
  });

  it('refuses annotations that cannot be right, naming the pointer', () => {
    expect(() => compileWith({ a: { type: 'string', 'x-renamed-from': 'b' }, b: { type: 'string' } })).toThrow('prova/entity.schema.json#/properties/a/x-renamed-from: "b" è ancora una proprietà');
    expect(() => compileWith({ a: { type: 'string', 'x-renamed-from': 'a b' } })).toThrow(/x-renamed-from: deve essere il nome precedente della proprietà/);
    expect(() => compileWith({ a: { 'x-removed': 'yes' } })).toThrow(/#\/properties\/a\/x-removed: deve essere true/);
    expect(() => compileWith({ id: { 'x-removed': true } })).toThrow(/x-removed: una colonna di sistema non si può togliere/);
  });
});

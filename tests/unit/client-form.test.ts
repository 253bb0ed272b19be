// The generic form's rules on the real cliente definition: widgets by name, Italian validation, request bodies.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { dataNascitaMessage } from '../../src/shared/validators/index.ts';
import { createBody, displayValue, pickFields, toErrorSchema, updateBody, withoutErrorsOf } from '../../src/client/renderer/formBody.ts';
import { prepareForm, widgetNameFor } from '../../src/client/renderer/formSchema.ts';
import { buildSections, fieldOfId, hiddenFields, OTHER_SECTION_TITLE } from '../../src/client/renderer/layout.ts';
import { formValidator } from '../../src/client/renderer/validator.ts';
import { precompile } from './support/formValidators.ts';
import { cellRenderer, registry, rjsfWidgets, UnknownWidgetError, widgetEntry } from '../../src/client/widgets/registry.ts';
import type { FormUi, JsonSchema } from '../../src/client/types.ts';
import { registerFeatures } from '../../src/client/features.ts';

let schema: JsonSchema;
let formUi: FormUi;
let listFormats: string[];

beforeAll(async () => {
  // The list formats include cells that feature modules register (quietanza_pdf), as main.tsx does at start.
  registerFeatures();
  const definitions = await loadDefinitions(path.resolve('schemas'));
  const cliente = definitions.resources.get('cliente')!;
  schema = cliente.schema;
  formUi = cliente.form as FormUi;
  await precompile(prepareForm(schema, formUi, 'attivo').schema);
  listFormats = [...definitions.resources.values()].flatMap((r) => r.list.columns.map((c) => c.format).filter((f): f is NonNullable<typeof f> => Boolean(f)));
});

function errorsOf(data: Record<string, unknown>) {
  const prepared = prepareForm(schema, formUi, 'attivo');
  const { errors } = formValidator.validateFormData(data, prepared.schema, undefined, undefined, prepared.uiSchema);
  return Object.fromEntries(errors.map((e) => [String(e.property).replace(/^\./, ''), e.message]));
}

const valid = { tipo: 'RETAIL', sesso: 'M', nome: 'MARIO', cognome: 'ROSSI', attivo: true };

describe('prepareForm', () => {
  it('drops what the server owns and keeps what the user edits', () => {
    const prepared = prepareForm(schema, formUi, 'attivo');
    expect(prepared.fields).not.toContain('id');
    expect(prepared.fields).not.toContain('created_at');
    expect(prepared.fields).not.toContain('version');
    expect(prepared.fields).toContain('cf');
    expect(prepared.uiSchema['ui:skip']).toEqual(['attivo']);
  });

  it('shows read-only the server-owned fields a layout names, and never sends them', async () => {
    const outbox = (await loadDefinitions(path.resolve('schemas'))).resources.get('email_outbox')!;
    const prepared = prepareForm(outbox.schema, outbox.form as FormUi);
    // An e-mail in the outbox is the server's: its recipient, subject and text are read on the screen, not typed.
    expect(prepared.readOnly).toEqual(expect.arrayContaining(['destinatario', 'oggetto', 'corpo', 'stato', 'ultimo_errore']));
    expect(prepared.fields).toEqual([]);
    expect(Object.keys(prepared.schema.properties ?? {})).toEqual(expect.arrayContaining(['destinatario', 'oggetto', 'corpo']));
    expect((prepared.uiSchema.corpo as Record<string, unknown>)['ui:readonly']).toBe(true);
    // Not placed in the layout: not shown.
    expect(prepared.schema.properties).not.toHaveProperty('created_at');
    const record = { id: 1, destinatario: 'a@b.it', oggetto: 'Ciao', corpo: 'Testo', version: 2 };
    expect(pickFields(record, [...prepared.fields, ...prepared.readOnly], prepared.schema as JsonSchema)).toMatchObject({ destinatario: 'a@b.it', corpo: 'Testo' });
    expect(updateBody({ ...record, oggetto: 'Altro' }, record, prepared.fields, outbox.form as FormUi, outbox.schema)).toEqual({ version: 2 });
  });

  it('chooses widgets by name from annotations', () => {
    const ui = prepareForm(schema, formUi).uiSchema as Record<string, Record<string, unknown>>;
    expect(ui.cf['ui:widget']).toBe('uppercase');
    expect(ui.dataNascita['ui:widget']).toBe('date');
    expect(ui.cell['ui:widget']).toBe('phone');
    expect(ui.comune_nascita_id['ui:widget']).toBe('comune');
    expect(ui.collaboratore_id['ui:widget']).toBe('reference');
    expect(ui.sesso['ui:widget']).toBe('select');
    expect(ui.isprospect['ui:widget']).toBe('switch');
    expect(ui.note['ui:widget']).toBe('textarea');
    expect(ui.cognome['ui:hideWhen']).toEqual({ sesso: 'A' });
  });

  it('fails loudly, naming the field, on an unknown widget', () => {
    const broken = { ...formUi, nome: { 'ui:widget': 'arcobaleno' } };
    expect(() => prepareForm(schema, broken)).toThrow(UnknownWidgetError);
    expect(() => prepareForm(schema, broken)).toThrow(/"arcobaleno".*"nome"/);
    expect(widgetNameFor({ type: 'string', 'x-widget': 'currency' }, undefined)).toBe('currency');
  });
});

describe('the one widget registry', () => {
  it('serves form widgets and grid cells by name', () => {
    expect(widgetEntry('currency', 'premio').widget).toBe(registry.money.widget);
    const widgets = rjsfWidgets();
    for (const name of ['uppercase', 'currency', 'date', 'phone', 'comune', 'reference', 'switch', 'textarea', 'select', 'TextWidget', 'SelectWidget']) {
      expect(widgets[name], name).toBeTypeOf('function');
    }
    for (const format of listFormats) expect(cellRenderer(format, 'x')).toBeTypeOf('function');
    expect(() => cellRenderer('ologramma', 'stato')).toThrow(/"ologramma".*"stato"/);
  });
});

describe('Italian validation, same formats as the server', () => {
  it('accepts a complete customer', () => {
    expect(errorsOf(valid)).toEqual({});
  });

  it('says Campo Obbligatorio. for missing required fields', () => {
    expect(errorsOf({ attivo: true })).toMatchObject({ tipo: 'Campo Obbligatorio.', sesso: 'Campo Obbligatorio.', nome: 'Campo Obbligatorio.' });
  });

  it('uses the shared format messages', () => {
    const errors = errorsOf({ ...valid, cf: 'RSSMRA80A01H501X', cell: '3331234567', residenzaCap: '123', IBAN: 'IT00X' });
    expect(errors.cf).toBe('Codice fiscale non valido');
    expect(errors.cell).toBe('Il numero di telefono deve avere un prefisso internazionale valido');
    expect(errors.residenzaCap).toBe('Il CAP deve essere di 5 cifre');
    expect(errors.IBAN).toBe('IBAN non valido');
  });

  it('checks the birth date range with the x-data-nascita keyword', () => {
    expect(errorsOf({ ...valid, dataNascita: '1900-05-05' }).dataNascita).toBe(dataNascitaMessage());
    expect(errorsOf({ ...valid, dataNascita: '31/02/1990' }).dataNascita).toBe('Data non valida (GG/MM/AAAA)');
    expect(errorsOf({ ...valid, dataNascita: '1980-05-05' })).toEqual({});
  });

  it('follows if/then/else: a company needs the partita IVA, not a surname', () => {
    const errors = errorsOf({ tipo: 'CORPORATE', sesso: 'A', nome: 'ACME SRL' });
    expect(errors).toEqual({ piva: 'Campo Obbligatorio.' });
  });

  it('does not count errors of fields that ui:hideWhen hides', () => {
    expect(errorsOf({ tipo: 'CORPORATE', sesso: 'A', nome: 'ACME', piva: '01234567897', dataNascita: '1800-01-01' })).toEqual({});
  });
});

describe('layout', () => {
  it('puts fields no section names into a last section', () => {
    const sections = buildSections([{ title: 'A', fields: ['x', 'nope'] }], ['x', 'y', 'z'], new Set(['z']));
    expect(sections).toEqual([
      { title: 'A', fields: ['x'] },
      { title: OTHER_SECTION_TITLE, fields: ['y'] },
    ]);
  });
  it('finds the field an rjsf id belongs to, underscores in names included', () => {
    const fields = ['comune', 'comune_nascita_id', 'responsabile'];
    expect(fieldOfId('root_comune_nascita_id', fields)).toBe('comune_nascita_id');
    expect(fieldOfId('root_comune', fields)).toBe('comune');
    expect(fieldOfId('root_responsabile_nome', fields)).toBe('responsabile');
    expect(fieldOfId('altro_x', fields)).toBeUndefined();
  });
  it('hides fields by the value of another field', () => {
    expect([...hiddenFields(formUi, { sesso: 'A' })].sort()).toEqual(['cognome', 'comune_nascita_id', 'dataNascita', 'nazioneNascita']);
    expect(hiddenFields(formUi, { sesso: 'M' }).size).toBe(0);
  });
});

describe('what a form starts from', () => {
  it("leaves out a row's server-owned value read as null (a colour the collaborator may not see), which would block every save", async () => {
    const quotazione = (await loadDefinitions(path.resolve('schemas'))).resources.get('quotazione')!;
    const prepared = prepareForm(quotazione.schema, quotazione.form as FormUi, quotazione.resource.activeField);
    await precompile(prepared.schema);
    const row = { id: 'a1', marca: 'FIAT', modello: '124 SPIDER', anno: 1966, tipologia_ania: 'A', targa: 'AB123CD', colore: null };
    const record = { veicoli_storici: [row] };
    const rowErrors = (data: Record<string, unknown>) =>
      formValidator.validateFormData(data, prepared.schema, undefined, undefined, prepared.uiSchema).errors.filter((e) => String(e.property).includes('colore'));
    expect(rowErrors(record).length).toBeGreaterThan(0);
    const started = pickFields(record, ['veicoli_storici'], quotazione.schema);
    expect((started.veicoli_storici as Array<Record<string, unknown>>)[0]).not.toHaveProperty('colore');
    expect((started.veicoli_storici as Array<Record<string, unknown>>)[0]).toMatchObject({ targa: 'AB123CD' });
    expect(rowErrors(started)).toEqual([]);
  });
});

describe('request bodies', () => {
  const fields = ['tipo', 'sesso', 'nome', 'cognome', 'dataNascita', 'note', 'attivo'];

  it('creates with filled visible fields only', () => {
    expect(createBody({ tipo: 'CORPORATE', sesso: 'A', nome: 'ACME', cognome: 'RESIDUO', note: '', attivo: true, id: 9 }, fields, formUi)).toEqual({
      tipo: 'CORPORATE',
      sesso: 'A',
      nome: 'ACME',
      attivo: true,
    });
  });

  it('updates with changed fields, null for cleared ones, and the loaded version', () => {
    const original = { id: 4, version: 7, tipo: 'RETAIL', sesso: 'M', nome: 'MARIO', cognome: 'ROSSI', note: 'vecchia', attivo: true };
    const data = { tipo: 'RETAIL', sesso: 'M', nome: 'LUIGI', cognome: 'ROSSI', note: undefined, attivo: true };
    expect(updateBody(data, original, fields, formUi)).toEqual({ nome: 'LUIGI', note: null, version: 7 });
  });

  it("leaves the server's parts of nested rows (a vehicle's registry data) out of the body, however stale the form's copy", () => {
    const schema: JsonSchema = { type: 'object', properties: { veicoli_storici: { type: 'array', items: { type: 'object', properties: {
      id: { type: 'string' }, targa: { type: 'string' }, json: { type: ['object', 'null'], readOnly: true }, alert: { type: ['string', 'null'], readOnly: true },
    } } } } };
    const loaded = { version: 3, veicoli_storici: [{ id: 'a', targa: 'ZD111AA', json: { result: 0 }, alert: 'vecchio' }, { id: 'b', targa: '' }] };
    const typed = { veicoli_storici: [loaded.veicoli_storici[0], { id: 'b', targa: 'ZE222BB', json: null }] };
    const rows = [{ id: 'a', targa: 'ZD111AA' }, { id: 'b', targa: 'ZE222BB' }];
    expect(updateBody(typed, loaded, ['veicoli_storici'], {}, schema)).toEqual({ veicoli_storici: rows, version: 3 });
    expect(createBody(typed, ['veicoli_storici'], {}, schema)).toEqual({ veicoli_storici: rows });
  });

  it('maps Laravel-style errors (with nested paths) to rjsf error schemas', () => {
    expect(toErrorSchema({ cf: ['Codice fiscale non valido'], 'responsabile.cf': ['X'] })).toEqual({
      cf: { __errors: ['Codice fiscale non valido'] },
      responsabile: { cf: { __errors: ['X'] } },
    });
    expect(withoutErrorsOf(toErrorSchema({ cf: ['a'], email: ['b'] }), ['cf'])).toEqual({ email: { __errors: ['b'] } });
    expect(withoutErrorsOf(toErrorSchema({ cf: ['a'] }), ['cf'])).toBeUndefined();
  });

  it('reads values the way a person does', () => {
    expect(displayValue(schema.properties!.sesso, 'A')).toBe('Azienda');
    expect(displayValue(schema.properties!.dataNascita, '1980-01-31')).toBe('31/01/1980');
    expect(displayValue({ type: 'boolean' }, false)).toBe('No');
    expect(displayValue({ type: 'string' }, '')).toBe('(vuoto)');
  });
});

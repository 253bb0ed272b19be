// The quotation screen's pure rules on the real definitions: daily-use rows, the two form subsets, the action buttons per role.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { prepareForm } from '../../src/client/renderer/formSchema.ts';
import { hiddenFields } from '../../src/client/renderer/layout.ts';
import { readListState, writeListState } from '../../src/client/renderer/listParams.ts';
import { formValidator } from '../../src/client/renderer/validator.ts';
import { precompile } from './support/formValidators.ts';
import { DRAWER_FIELDS, calcErrorsForPanel, mainFieldNames, quotazioneForms, resizeModerni, subsetSchema } from '../../src/client/pages/quotazione/useQuotazione.ts';
import { actionEvents, confirmTextOf, serverAvailable } from '../../src/client/pages/quotazione/useRecordWorkflow.ts';
import type { AvailableEvent } from '../../src/client/pages/quotazione/useRecordWorkflow.ts';
import { Workflow, type WorkflowDefinition } from '../../src/shared/workflow/machine.ts';
import { registerFeatures } from '../../src/client/features.ts';

// The quotation's widgets are registered by its feature module at start, as main.tsx does.
registerFeatures();
import type { FormUi, JsonSchema } from '../../src/client/types.ts';
import { QUOTAZIONE_GUARDS } from '../../src/shared/domains/quotazione/guards.ts';

let schema: JsonSchema;
let form: FormUi;
const root = path.resolve(import.meta.dirname, '..', '..');
const workflow = new Workflow(JSON.parse(readFileSync(path.join(root, 'workflows', 'quotazione_auto_storica.json'), 'utf8')) as WorkflowDefinition, QUOTAZIONE_GUARDS);
const ruoli = JSON.parse(readFileSync(path.join(root, 'schemas', '_reference', 'ruoli.json'), 'utf8')) as { roles: Array<{ name: string; permissions: string[] }> };
const as = (role: string) => ({ permissions: ruoli.roles.find((r) => r.name === role)!.permissions, roles: [role], kind: 'staff' as const });

beforeAll(async () => {
  const quotazione = (await loadDefinitions(path.resolve('schemas'))).resources.get('quotazione')!;
  schema = quotazione.schema;
  form = quotazione.form as FormUi;
  const { main, drawer } = quotazioneForms(schema, form);
  await precompile(main.schema, drawer.schema, prepareForm(subsetSchema(schema, DRAWER_FIELDS, false), {}).schema);
});

describe('daily-use vehicles follow the declared count', () => {
  it('adds blank rows and removes rows at the end, within 1 to 10', () => {
    const rows = [{ marca: 'Fiat' }, { marca: 'VW' }];
    expect(resizeModerni(rows, 3)).toEqual([{ marca: 'Fiat' }, { marca: 'VW' }, {}]);
    expect(resizeModerni(rows, 1)).toEqual([{ marca: 'Fiat' }]);
    expect(resizeModerni(undefined, 2)).toEqual([{}, {}]);
    // Nothing to do, or a count the form will refuse anyway.
    expect(resizeModerni(rows, 2)).toBeUndefined();
    expect(resizeModerni(rows, 0)).toBeUndefined();
    expect(resizeModerni(rows, 11)).toBeUndefined();
    expect(resizeModerni(rows, '')).toBeUndefined();
  });
});

describe('the two forms of the screen', () => {
  it("splits the layout's fields between 'Raccolta dati' and the drawer", () => {
    const main = mainFieldNames(form);
    expect(main).toContain('veicoli_storici');
    expect(main).toContain('quotidiano');
    for (const f of DRAWER_FIELDS) expect(main).not.toContain(f);
    const prepared = prepareForm(subsetSchema(schema, main, true), form);
    expect((prepared.uiSchema.veicoli_storici as Record<string, unknown>)['ui:widget']).toBe('veicoli_storici');
  });

  it('keeps the persona rules: a legal person needs company name and VAT number, no personal or birth data', () => {
    const prepared = prepareForm(subsetSchema(schema, mainFieldNames(form), true), form);
    const errors = (data: Record<string, unknown>) =>
      formValidator.validateFormData(data, prepared.schema, undefined, undefined, prepared.uiSchema).errors.map((e) => String(e.property).replace(/^\./, ''));
    expect(errors({ persona: 'g' })).toEqual(['rsoc', 'piva']);
    expect(errors({ persona: 'f' })).toEqual(['nome', 'cognome']);
    expect([...hiddenFields(form, { persona: 'g' })]).toEqual(
      expect.arrayContaining(['sesso', 'nome', 'cognome', 'dataNascita', 'nazione_nascita_id', 'provincia_nascita_codice', 'comune_nascita_id']),
    );
  });

  it("checks the drawer's fields on their own (no rule about fields it does not hold)", () => {
    const drawer = prepareForm(subsetSchema(schema, DRAWER_FIELDS, false), {});
    expect([...drawer.fields].sort()).toEqual([...DRAWER_FIELDS].sort());
    expect(formValidator.validateFormData({ competenze: 20 }, drawer.schema).errors).toEqual([]);
    expect(formValidator.validateFormData({ competenze: -1 }, drawer.schema).errors.map((e) => String(e.property).replace(/^\./, ''))).toEqual(['competenze']);
  });
});

describe('action buttons are the events the machine allows, by label', () => {
  const labels = (status: number, role: string, record: Record<string, unknown>) =>
    actionEvents(workflow.available(status, as(role), record) as AvailableEvent[]).map((e) => e.meta.label);
  const giallo = { colore: 'g', preventivi: [{ premio_totale: 100 }] };

  it('per status and role', () => {
    expect(labels(1, 'collaboratore', { preventivi: [] })).toEqual([]);
    expect(labels(1, 'collaboratore', giallo)).toEqual(['Conferma']);
    expect(labels(2, 'collaboratore', giallo)).toEqual([]);
    expect(labels(2, 'approvatore', giallo)).toEqual(['Approva', 'Rifiuta']);
    expect(labels(3, 'collaboratore', giallo)).toEqual(['Conferma', 'Conferma per emissione diretta']);
    expect(labels(12, 'collaboratore', giallo)).toEqual(['Passa in attesa di emissione']);
    expect(labels(7, 'collaboratore', giallo)).toEqual(['Richiedi emissione']);
    // Issue, renewal and reversal come later: no button until they exist.
    expect(labels(7, 'staff', giallo)).toEqual([]);
  });

  it("leaves a panel's own event (the link box's 'Invia di nuovo') out of the bar", () => {
    const events = workflow.available(4, as('collaboratore'), giallo) as AvailableEvent[];
    expect(events.map((e) => e.type)).toContain('REINVIA_LINK');
    expect(actionEvents(events).map((e) => e.type)).not.toContain('REINVIA_LINK');
  });
});

describe("a refused calculation's errors: under their fields, the rest in the premium panel", () => {
  it('keeps in the panel only what no field of the forms shows, named by row and column', () => {
    const { main, drawer } = quotazioneForms(schema, form);
    const fields = [...main.fields, ...drawer.fields];
    expect(calcErrorsForPanel({ provincia_codice: ['Campo Obbligatorio.'], 'veicoli_moderni.0.targa': ['Campo Obbligatorio.'] }, schema, form, fields)).toEqual([]);
    expect(calcErrorsForPanel({ veicoli_storici: ['Inserisci almeno un veicolo storico.'] }, schema, form, fields)).toEqual([]);
    // The historic vehicles' table is one widget: its rows' messages are said in the panel.
    expect(calcErrorsForPanel({ 'veicoli_storici.1.targa': ['Campo Obbligatorio.'], colore: ['Non calcolabile.'] }, schema, form, fields))
      .toEqual(['Veicoli storici 2, Targa: Campo Obbligatorio.', 'Colore: Non calcolabile.']);
  });
});

describe('the confirm text of an event comes from the status it leads to', () => {
  const conferma = (events: AvailableEvent[]) => events.find((e) => e.type === 'CONFERMA')!;
  it('takes the server\'s target when the colour is hidden from the user (a yellow quotation needs a derogation)', () => {
    const hidden = { colore: null, preventivi: [{ premio_totale: 100 }] };
    // The client's own guards, blind to the hidden yellow, lead CONFERMA elsewhere: the plain confirm text.
    const local = conferma(workflow.available(1, as('collaboratore'), hidden) as AvailableEvent[]);
    expect(local.target?.key).not.toBe('in_attesa_di_deroga');
    expect(confirmTextOf(local)).not.toContain('Deroga');
    // GET …/workflow judged the stored yellow: its target picks the derogation text.
    const fromServer = conferma(serverAvailable(workflow, { version: 3, eventi: [{ type: 'CONFERMA', target: { key: 'in_attesa_di_deroga' } as never }] }));
    expect(fromServer.target?.key).toBe('in_attesa_di_deroga');
    expect(fromServer.meta.label).toBe('Conferma');
    expect(confirmTextOf(fromServer)).toBe('Attenzione! Deroga necessaria. Vuoi inviare la quotazione in deroga?');
  });
});

describe('list filters that are no column', () => {
  it('are read from and written to the URL like column filters', () => {
    const list = {
      columns: [{ field: 'cognome', headerName: 'Cognome', filter: 'text' as const }],
      filters: [
        { field: 'targa', headerName: 'Targa', filter: 'text' as const },
        { field: 'scade_il_mese_prossimo', headerName: 'Scade il mese prossimo', filter: 'boolean' as const },
      ],
    };
    const state = readListState(new URLSearchParams('filter[targa]=AB1&filter[scade_il_mese_prossimo]=true&filter[ignoto]=x'), list);
    expect(state.filters).toEqual({ targa: 'AB1', scade_il_mese_prossimo: 'true' });
    expect(writeListState(state, list).toString()).toBe('filter%5Bscade_il_mese_prossimo%5D=true&filter%5Btarga%5D=AB1');
  });
});

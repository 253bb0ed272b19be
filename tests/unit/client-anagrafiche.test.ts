// Master-data screens, pure parts: the per-row save queue, threshold chips, conditional fields and titles, fixed rows, look-up paths.
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDefinitions } from '../../src/server/definitions.ts';
import { RowSaves } from '../../src/client/pages/anagrafiche/rowSaves.ts';
import type { Patch, RowId } from '../../src/client/pages/anagrafiche/rowSaves.ts';
import { percentError } from '../../src/client/pages/anagrafiche/CellInputs.tsx';
import { conditionalTitle, hiddenFields, isHiddenBy } from '../../src/client/renderer/layout.ts';
import { createBody } from '../../src/client/renderer/formBody.ts';
import { prepareForm } from '../../src/client/renderer/formSchema.ts';
import { thresholdVariant } from '../../src/client/widgets/cells.tsx';
import { lookupPath } from '../../src/client/widgets/endpointLookup.tsx';
import { normaliseRows } from '../../src/client/widgets/fixedRows.tsx';
import type { FormUi, ListColumn, ResourceDef } from '../../src/client/types.ts';

type Sent = { id: RowId; patch: Patch; version: number | undefined };

/** A fake server: every save merges into the stored row, raises its version by one, answers after `latency` ms, and may refuse. */
function fakeServer(latency = 10, refuse?: (sent: Sent) => Error | undefined) {
  const sent: Sent[] = [];
  const stored = new Map<RowId, Record<string, unknown>>();
  const send = (id: RowId, patch: Patch, version: number | undefined) => {
    sent.push({ id, patch, version });
    return new Promise<{ record: Record<string, unknown> }>((resolve, reject) =>
      setTimeout(() => {
        const error = refuse?.({ id, patch, version });
        if (error) return reject(error);
        const before = stored.get(id) ?? { id, version: 1 };
        const record = { ...before, ...patch, version: (before.version as number) + 1 };
        stored.set(id, record);
        resolve({ record });
      }, latency),
    );
  };
  return { sent, send };
}

describe('RowSaves', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('merges typing into one save after the pause, with the row version', async () => {
    const server = fakeServer();
    const saves = new RowSaves({ delay: 1000, send: server.send });
    saves.setVersion(7, 1);
    saves.edit(7, { percentuale_provvigione_attiva: 1 });
    await vi.advanceTimersByTimeAsync(600);
    saves.edit(7, { percentuale_provvigione_attiva: 12.5 });
    await vi.advanceTimersByTimeAsync(999);
    expect(server.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 10);
    expect(server.sent).toEqual([{ id: 7, patch: { percentuale_provvigione_attiva: 12.5 }, version: 1 }]);
  });

  it('sends a toggle at once, after the pending edit and with the version that edit produced', async () => {
    const server = fakeServer();
    const saved: Patch[] = [];
    const saves = new RowSaves({ delay: 1000, send: server.send, onSaved: (_id, _record, patch) => saved.push(patch) });
    saves.setVersion(3, 1);
    saves.edit(3, { percentuale_provvigione_attiva: 20 });
    saves.edit(3, { mandato_attivo: false }, { immediate: true });
    expect(server.sent).toEqual([{ id: 3, patch: { percentuale_provvigione_attiva: 20 }, version: 1 }]);
    await vi.advanceTimersByTimeAsync(10);
    expect(server.sent[1]).toEqual({ id: 3, patch: { mandato_attivo: false }, version: 2 });
    await vi.advanceTimersByTimeAsync(10);
    expect(saved).toEqual([{ percentuale_provvigione_attiva: 20 }, { mandato_attivo: false }]);
    expect(saves.hasPending()).toBe(false);
  });

  it('lays the values typed since over the answer to an older save', async () => {
    const server = fakeServer();
    const shown: Array<Record<string, unknown>> = [];
    const saves = new RowSaves({ delay: 1000, send: server.send, onSaved: (_id, record) => shown.push(record) });
    saves.setVersion(3, 1);
    saves.edit(3, { percentuale_provvigione_attiva: 20 }, { immediate: true });
    // The row is switched off while the commission is on its way: its answer must not switch it on again.
    saves.edit(3, { mandato_attivo: false }, { immediate: true });
    saves.edit(3, { data_inizio_mandato: '2024-01-01' });
    await vi.advanceTimersByTimeAsync(10);
    expect(shown[0]).toMatchObject({ percentuale_provvigione_attiva: 20, mandato_attivo: false, data_inizio_mandato: '2024-01-01', version: 2 });
    await vi.advanceTimersByTimeAsync(1100);
    expect(shown.at(-1)).toMatchObject({ mandato_attivo: false, data_inizio_mandato: '2024-01-01', version: 4 });
  });

  it('on unload sends what waits at once, each patch with the version it will meet', async () => {
    const server = fakeServer(50);
    const saves = new RowSaves({ delay: 1000, send: server.send });
    saves.setVersion(1, 4);
    saves.setVersion(2, 9);
    saves.edit(1, { percentuale_provvigione_attiva: 5 });
    saves.edit(1, { mandato_attivo: false }, { immediate: true }); // in flight with 4, toggle queued
    saves.edit(2, { data_inizio_mandato: '2024-01-01' }); // waiting for the pause
    saves.flushAll({ unloading: true });
    expect(server.sent).toEqual([
      { id: 1, patch: { percentuale_provvigione_attiva: 5 }, version: 4 },
      { id: 1, patch: { mandato_attivo: false }, version: 5 },
      { id: 2, patch: { data_inizio_mandato: '2024-01-01' }, version: 9 },
    ]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.sent).toHaveLength(3);
  });

  it('after a conflict drops the row’s later saves; after a refused value keeps them', async () => {
    const conflict = Object.assign(new Error('conflitto'), { status: 409 });
    const refused = Object.assign(new Error('non valido'), { status: 422 });
    const server = fakeServer(10, (s) => (s.patch.x === 'conflitto' ? conflict : s.patch.x === 'rifiutato' ? refused : undefined));
    const errors: unknown[] = [];
    const saves = new RowSaves({
      delay: 1000,
      send: server.send,
      onError: (_id, error) => errors.push(error),
      keepsVersion: (error) => (error as { status?: number }).status === 422,
    });
    saves.setVersion(1, 1);
    saves.edit(1, { x: 'conflitto' }, { immediate: true });
    saves.edit(1, { y: 1 }, { immediate: true });
    await vi.advanceTimersByTimeAsync(100);
    expect(server.sent.map((s) => s.patch)).toEqual([{ x: 'conflitto' }]);
    saves.edit(1, { x: 'rifiutato' }, { immediate: true });
    saves.edit(1, { y: 2 }, { immediate: true });
    await vi.advanceTimersByTimeAsync(100);
    expect(server.sent.map((s) => s.patch)).toEqual([{ x: 'conflitto' }, { x: 'rifiutato' }, { y: 2 }]);
    expect(errors).toEqual([conflict, refused]);
  });

  it('cancels what waits for a deleted row', async () => {
    const server = fakeServer();
    const saves = new RowSaves({ delay: 1000, send: server.send });
    saves.edit(5, { nome: 'x' });
    saves.cancel(5);
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.sent).toEqual([]);
  });
});

describe('commission chips (spec 000 §9)', () => {
  let column: ListColumn;
  beforeAll(async () => {
    const definitions = await loadDefinitions(path.resolve('schemas'));
    column = definitions.resources.get('collaboratore')!.list.columns.find((c) => c.field === 'provvigioni_settori')!;
  });

  it.each([
    ['RCA', 70, 'success'],
    ['RCA', 69, 'warning'],
    ['RCA', 30, 'warning'],
    ['RCA', 29.99, 'danger'],
    ['DANNI', 25, 'success'],
    ['DANNI', 24, 'warning'],
    ['DANNI', 10, 'warning'],
    ['DANNI', 9, 'danger'],
    ['VITA', 5, 'success'],
    ['VITA', 4, 'warning'],
    ['VITA', 2, 'warning'],
    ['VITA', 1, 'danger'],
    ['VITA', 0, 'danger'],
  ])('%s at %s is %s', (sector, value, variant) => {
    expect(column.itemKey).toBe('nome');
    expect(column.itemValue).toBe('perc_provvigione');
    expect(thresholdVariant(column.thresholds![sector], value)).toBe(variant);
  });

  it('gives no colour to a missing value', () => {
    expect(thresholdVariant([70, 30], null)).toBeUndefined();
    expect(thresholdVariant([70, 30], 'molto')).toBeUndefined();
    expect(thresholdVariant(undefined, 50)).toBeUndefined();
  });
});

describe('collaborator form of a company (sesso A)', () => {
  let def: Pick<ResourceDef, 'schema' | 'form'>;
  beforeAll(async () => {
    const definitions = await loadDefinitions(path.resolve('schemas'));
    const collaboratore = definitions.resources.get('collaboratore')!;
    def = { schema: collaboratore.schema, form: collaboratore.form as FormUi };
  });

  it('hides surname, birth and document fields and shows the Responsabile Intermediazione only for A', () => {
    const azienda = hiddenFields(def.form, { sesso: 'A' });
    for (const field of ['cognome', 'dataNascita', 'comuneNascita', 'comune_nascita_id', 'provinciaNascita', 'documentoTipo', 'documentoNumero', 'documentoScadenza', 'documentoRilasciatoDa']) {
      expect(azienda.has(field), field).toBe(true);
    }
    expect(azienda.has('responsabileIntermediazione')).toBe(false);
    expect(hiddenFields(def.form, { sesso: 'M' }).has('responsabileIntermediazione')).toBe(true);
    // Not chosen yet: a person's fields show, the company's section does not.
    expect(hiddenFields(def.form, {}).has('responsabileIntermediazione')).toBe(true);
    expect(hiddenFields(def.form, {}).has('cognome')).toBe(false);
  });

  it('calls the name Ragione Sociale for a company only', () => {
    const nome = def.form.nome as Record<string, unknown>;
    expect(conditionalTitle(nome, { sesso: 'A' })).toBe('Ragione Sociale');
    expect(conditionalTitle(nome, { sesso: 'F' })).toBeUndefined();
    expect(conditionalTitle(undefined, { sesso: 'A' })).toBeUndefined();
  });

  it('does not send what a company hides', () => {
    const prepared = prepareForm(def.schema, def.form, 'active');
    const body = createBody({ sesso: 'A', nome: 'ALFA SRL', cognome: 'RESTO', responsabileIntermediazione: { nome: 'ANNA' } }, prepared.fields, def.form);
    expect(body).toEqual({ sesso: 'A', nome: 'ALFA SRL', responsabileIntermediazione: { nome: 'ANNA' } });
    const person = createBody({ sesso: 'M', nome: 'MARIO', cognome: 'ROSSI', responsabileIntermediazione: { nome: 'ANNA' } }, prepared.fields, def.form);
    expect(person).toEqual({ sesso: 'M', nome: 'MARIO', cognome: 'ROSSI' });
  });

  it('shows the three sectors in order with defaults, keeping saved values', () => {
    const options = (def.form.provvigioni_settori as { 'ui:options': Parameters<typeof normaliseRows>[1] })['ui:options'];
    expect(normaliseRows(undefined, options)).toEqual([
      { id: 1, nome: 'DANNI', perc_provvigione: 0, tipo_provvigione: 'PERC_IMPONIBILE' },
      { id: 2, nome: 'RCA', perc_provvigione: 0, tipo_provvigione: 'PERC_IMPONIBILE' },
      { id: 3, nome: 'VITA', perc_provvigione: 0, tipo_provvigione: 'PERC_IMPONIBILE' },
    ]);
    const saved = [{ id: 2, nome: 'RCA', perc_provvigione: 75, tipo_provvigione: 'PERC_RETROCESSIONE' }];
    expect(normaliseRows(saved, options)[1]).toEqual(saved[0]);
    expect(normaliseRows(saved, options).map((r) => r.nome)).toEqual(['DANNI', 'RCA', 'VITA']);
  });

  it('asks the superior look-up about the record being edited, or about any record while adding', () => {
    const template = String(((def.form.punto_vendita_superiore_id as Record<string, unknown>)['ui:options'] as { path: string }).path);
    expect(lookupPath(template, '12')).toBe('/api/autocomplete/punto_vendita_superiore/12');
    expect(lookupPath(template, undefined)).toBe('/api/autocomplete/punto_vendita_superiore');
  });
});

describe('ui:showWhen', () => {
  it('shows a field only while every listed field holds a listed value', () => {
    const ui = { 'ui:showWhen': { sesso: 'A', tipo: ['BROKER', 'AGENTE'] } };
    expect(isHiddenBy(ui, { sesso: 'A', tipo: 'BROKER' })).toBe(false);
    expect(isHiddenBy(ui, { sesso: 'A', tipo: 'COLLABORATORE' })).toBe(true);
    expect(isHiddenBy(ui, undefined)).toBe(true);
  });
});

describe('percentage cells (spec 000 §5: 0 to 100)', () => {
  it.each([
    ['0', null],
    ['12,5', null],
    ['100', null],
    ['100,5', 'Il valore massimo è 100'],
    ['abc', 'Inserisci un numero'],
    ['', 'Campo Obbligatorio.'],
  ])('%s → %s', (text, message) => {
    expect(percentError(text)).toBe(message);
  });

  it('lets an optional cell be empty', () => {
    expect(percentError('', true)).toBeNull();
  });
});

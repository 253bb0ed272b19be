// Bare enum codes read as words in forms, lists and exports; oneOf titles win when given.
import { describe, expect, it } from 'vitest';
import { enumTitle, optionTitles } from '../../src/shared/enumTitle.ts';
import { prepareForm } from '../../src/client/renderer/formSchema.ts';
import { neutralise } from '../../src/server/resources/export.ts';

describe('enum titles', () => {
  it('turns codes into words and leaves ordinary values alone', () => {
    expect(enumTitle('DIPENDENTE_TEMPO_INDETERMINATO')).toBe('Dipendente tempo indeterminato');
    expect(enumTitle('auto_storica_itas')).toBe('Auto storica itas');
    expect(enumTitle('RETAIL')).toBe('Retail');
    expect(enumTitle('M')).toBe('M');
    expect(enumTitle('Fiat 500')).toBe('Fiat 500');
  });

  it('prefers oneOf titles, and covers arrays of options', () => {
    expect(optionTitles({ oneOf: [{ const: 'f', title: 'Fisica' }] })?.get('f')).toBe('Fisica');
    expect(optionTitles({ enum: ['LAVORATORE_AUTONOMO'] })?.get('LAVORATORE_AUTONOMO')).toBe('Lavoratore autonomo');
    expect(optionTitles({ items: { enum: ['ALTRO'] } })?.get('ALTRO')).toBe('Altro');
    expect(optionTitles({})).toBeUndefined();
  });

  it('gives a form select the readable names', () => {
    const prepared = prepareForm({ type: 'object', properties: { attivita: { type: 'string', enum: ['DIPENDENTE_TEMPO_DETERMINATO', 'ALTRO'] } } }, {});
    expect((prepared.uiSchema.attivita as Record<string, unknown>)['ui:enumNames']).toEqual(['Dipendente tempo determinato', 'Altro']);
  });
});

describe('CSV injection', () => {
  it('neutralises what a spreadsheet would run', () => {
    for (const text of ['=1+1', '+39 333', '-2', '@SUM(A1)', '\tx', '\rx']) expect(neutralise(text)).toBe(`'${text}`);
    expect(neutralise('ROSSI')).toBe('ROSSI');
  });
});

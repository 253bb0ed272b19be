// The studio writes what the Analyst guide describes by hand: a property, required, x-renamed-from, the form's layout, a column.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readDefinitionFiles } from '../../src/server/definitions.ts';
import { lintFiles } from '../../src/server/definizioni/piano.ts';
import { domains } from '../../src/server/domains/index.ts';
import { campiOf, fileDelCampo } from '../../src/shared/definitions/studio/campi.ts';

const files = await readDefinitionFiles(path.resolve('schemas')) as Record<string, any>;
const entity = 'schemas/cliente/entity.schema.json';

describe('studio fields', () => {
  it('reads the fields an analyst edits, with their types and values', () => {
    const campi = campiOf(files[entity], files['schemas/cliente/list.json']);
    expect(campi.find((c) => c.nome === 'tipo')).toMatchObject({ titolo: 'Tipo Cliente', tipo: 'testo', obbligatorio: true, in_lista: true, valori: expect.arrayContaining([{ valore: 'RETAIL', etichetta: 'Retail' }]) });
    expect(campi.some((c) => c.nome === 'id' || c.nome === 'created_at')).toBe(false);
  });

  it('a new field: its property, the last form section and a list column; the lint accepts it', async () => {
    const changed = fileDelCampo(files, 'cliente', { nome: 'note_studio', titolo: 'Note dello studio', tipo: 'testo', obbligatorio: true, predefinito: 'N/D', lunghezza_massima: 200, in_lista: true });
    expect(Object.keys(changed).sort()).toEqual(['schemas/cliente/entity.schema.json', 'schemas/cliente/form.ui.json', 'schemas/cliente/list.json']);
    expect(changed[entity]!.properties.note_studio).toEqual({ type: 'string', title: 'Note dello studio', maxLength: 200, default: 'N/D' });
    expect(changed[entity]!.required).toContain('note_studio');
    expect(changed['schemas/cliente/form.ui.json']!['ui:layout'].at(-1).fields.at(-1)).toBe('note_studio');
    expect(changed['schemas/cliente/list.json']!.columns.at(-1)).toEqual({ field: 'note_studio', headerName: 'Note dello studio', sortable: true });
    await expect(lintFiles({ ...files, ...changed }, domains)).resolves.toBeDefined();
  });

  it('a rename keeps its place, its other settings and says where the data comes from; a type change keeps formats out', () => {
    const referente = campiOf(files[entity]).find((c) => c.nome === 'referente')!;
    const changed = fileDelCampo(files, 'cliente', { ...referente, nome: 'persona_di_riferimento' }, 'referente');
    const names = Object.keys(changed[entity]!.properties);
    expect(names.indexOf('persona_di_riferimento')).toBe(Object.keys(files[entity].properties).indexOf('referente'));
    expect(changed[entity]!.properties.persona_di_riferimento).toMatchObject({ type: 'string', title: 'Referente', maxLength: 100, 'x-renamed-from': 'referente' });
    expect(JSON.stringify(changed['schemas/cliente/form.ui.json'])).toContain('persona_di_riferimento');
    const asInteger = fileDelCampo(files, 'cliente', { ...referente, tipo: 'intero', lunghezza_massima: undefined }, 'referente');
    expect(asInteger[entity]!.properties.referente).toEqual({ type: 'integer', title: 'Referente' });
  });
});

describe('studio list, form and resource editors', () => {
  it('round-trip every file unchanged, keep what they do not show, and write what the guide documents', async () => {
    const { listaDati, listaFile, moduloDati, moduloFile, risorsaDati, risorsaFile } = await import('../../src/shared/definitions/studio/editori.ts');
    for (const resource of ['cliente', 'titolo', 'polizza', 'quotazione']) {
      const [list, form, res] = ['list', 'form.ui', 'resource'].map((f) => files[`schemas/${resource}/${f}.json`]);
      expect(listaFile(list, listaDati(list))).toEqual(list);
      expect(moduloFile(form, moduloDati(form))).toEqual(form);
      expect(risorsaFile(res, risorsaDati(res))).toEqual(res);
    }
    const list = files['schemas/titolo/list.json'];
    const dati = listaDati(list);
    dati.colonne = [dati.colonne.at(-1), ...dati.colonne.slice(0, -1)];
    dati.righe_per_pagina = 25;
    const next = listaFile(list, dati);
    expect(next.columns[0]).toEqual(list.columns.at(-1));
    expect(next.columns.find((c: { field: string }) => c.field === 'stato').chips).toEqual(list.columns.find((c: { field: string }) => c.field === 'stato').chips);
    expect(next.perPage).toBe(25);
    const res = risorsaFile(files['schemas/cliente/resource.json'], { ...risorsaDati(files['schemas/cliente/resource.json']), menu_titolo: 'Anagrafica clienti', delete: 'super_admin' });
    expect(res.menu).toEqual({ title: 'Anagrafica clienti', order: 50 });
    expect(res.permissions.delete).toBe('super_admin');
    await expect(lintFiles({ ...files, 'schemas/titolo/list.json': next, 'schemas/cliente/resource.json': res }, domains)).resolves.toBeDefined();
  });
});

// The studio writes what the Analyst guide describes by hand: a property, required, x-renamed-from, the form's layout, a column.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readDefinitionFiles } from '../../src/server/definitions.ts';
import { lintFiles } from '../../src/server/definizioni/piano.ts';
import { domains } from '../../src/server/domains/index.ts';
import { campiOf, fileDelCampo, problemaDelCampo } from '../../src/shared/definitions/studio/campi.ts';

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

describe('studio field values', () => {
  it('a row added and not filled writes no value; a value or default no number of a numeric field is named in Italian', () => {
    const occupazione = campiOf(files[entity]).find((c) => c.nome === 'occupazione')!;
    const added = fileDelCampo(files, 'cliente', { ...occupazione, valori: [...occupazione.valori!, {} as never] }, 'occupazione');
    expect(added[entity]).toBeUndefined();
    expect(problemaDelCampo({ ...occupazione, tipo: 'intero' })).toMatch(/^Valori ammessi non validi per un campo numero intero: DIPENDENTE_PUBBLICO/);
    expect(problemaDelCampo({ nome: 'n', titolo: 'N', tipo: 'importo', obbligatorio: true, predefinito: 'dieci' })).toBe('Valore predefinito non valido per un campo importo in euro: dieci.');
    expect(problemaDelCampo({ nome: 'n', titolo: 'N', tipo: 'numero', obbligatorio: true, predefinito: '2,5', valori: [{ valore: '1', etichetta: 'Uno' }] })).toBeUndefined();
    expect(problemaDelCampo({ ...occupazione })).toBeUndefined();
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

  it('the form: a field\'s width and widget from the registry names, written as ui:width and ui:widget; the lint refuses an unknown width', async () => {
    const { moduloDati, moduloFile, moduloSchema } = await import('../../src/shared/definitions/studio/editori.ts');
    const form = files['schemas/cliente/form.ui.json'];
    expect(moduloSchema([{ const: 'note', title: 'Note' }], ['text', 'textarea']).properties.aspetto.items.properties.widget.oneOf).toEqual([{ const: 'text', title: 'text' }, { const: 'textarea', title: 'textarea' }]);
    const dati = moduloDati(form);
    expect(dati.aspetto).toContainEqual({ campo: 'note', larghezza: undefined, widget: 'textarea' });
    dati.aspetto = [...dati.aspetto.filter((a: { campo: string }) => a.campo !== 'note'), { campo: 'note', larghezza: 'full', widget: 'textarea' }, { campo: 'referente', larghezza: 'half' }];
    const next = moduloFile(form, dati);
    expect(next.note).toEqual({ 'ui:widget': 'textarea', 'ui:options': { rows: 4 }, 'ui:width': 'full' });
    expect(next.referente).toEqual({ 'ui:width': 'half' });
    await expect(lintFiles({ ...files, 'schemas/cliente/form.ui.json': next }, domains)).resolves.toBeDefined();
    // Taken out of the list: the field loses its width and widget, keeps its other options.
    const senza = moduloFile(next, { ...dati, aspetto: dati.aspetto.filter((a: { campo: string }) => a.campo !== 'note') });
    expect(senza.note).toEqual({ 'ui:options': { rows: 4 } });
    await expect(lintFiles({ ...files, 'schemas/cliente/form.ui.json': { ...next, referente: { 'ui:width': 'wide' } } }, domains)).rejects.toThrow(/ui:width/);
  });

  it('the resource: row scope and autocomplete label as the guide writes them, the network kept while the field stays', async () => {
    const { risorsaDati, risorsaFile } = await import('../../src/shared/definitions/studio/editori.ts');
    const quotazione = files['schemas/quotazione/resource.json'];
    const dati = risorsaDati(quotazione);
    expect(dati).toMatchObject({ ambito_campo: 'collaboratore_id', ambito_tranne: 'show_tutte_quotazioni' });
    expect(risorsaFile(quotazione, { ...dati, ambito_tranne: 'super_admin' }).rowScope).toEqual({ ...quotazione.rowScope, unless: 'super_admin' });
    expect(risorsaFile(quotazione, { ...dati, ambito_campo: undefined }).rowScope).toBeUndefined();
    const compagnia = files['schemas/compagnia_contrattuale/resource.json'];
    expect(risorsaFile(compagnia, { ...risorsaDati(compagnia), etichetta: [] }).autocomplete).toBeUndefined();
    const cliente = files['schemas/cliente/resource.json'];
    const scoped = risorsaFile(cliente, { ...risorsaDati(cliente), ambito_tranne: undefined, etichetta: ['nome', 'cognome'] });
    expect(scoped.rowScope).toEqual({ field: 'collaboratore_id', user: 'collaboratore_id' });
    expect(scoped.autocomplete).toEqual({ path: '/api/autocomplete/cliente', label: ['nome', 'cognome'] });
    await expect(lintFiles({ ...files, 'schemas/cliente/resource.json': scoped }, domains)).resolves.toBeDefined();
    // A resource without an autocomplete gets one under its own name.
    const senza = Object.entries(files).find(([f, r]) => f.endsWith('/resource.json') && !r.autocomplete && !r.view)!;
    expect(risorsaFile(senza[1], { ...risorsaDati(senza[1]), etichetta: ['id'] }).autocomplete).toEqual({ path: `/api/autocomplete/${senza[1].name}`, label: ['id'] });
  });

  it('a copy of a resource: its files under the new name, title, screens and menu; what is bound to the original left out; the lint accepts it', async () => {
    const { fileCopiaRisorsa } = await import('../../src/shared/definitions/studio/struttura.ts');
    const copia = fileCopiaRisorsa(files, 'cliente', { nome: 'cliente_estero', titolo: 'Clienti esteri', singolare: 'Cliente estero', menu_ordine: 95 });
    if (typeof copia === 'string') throw new Error(copia);
    expect(Object.keys(copia).sort()).toEqual(['entity.schema.json', 'form.ui.json', 'list.json', 'resource.json'].map((f) => `schemas/cliente_estero/${f}`));
    const res = copia['schemas/cliente_estero/resource.json']!;
    expect(res).toMatchObject({ name: 'cliente_estero', title: 'Clienti esteri', singular: 'Cliente estero', api: { path: '/api/cliente_estero' }, menu: { title: 'Clienti esteri', order: 95 } });
    expect(res.routes.edit).toEqual({ name: 'cliente_estero_edit', path: '/modifica/cliente-estero/:id' });
    expect(res.autocomplete.path).toBe('/api/autocomplete/cliente_estero');
    expect(res.cerca).toBeUndefined();
    expect(res.related).toBeUndefined();
    expect(copia['schemas/cliente_estero/entity.schema.json']).toEqual(files['schemas/cliente/entity.schema.json']);
    await expect(lintFiles({ ...files, ...copia }, domains)).resolves.toBeDefined();
  });
});

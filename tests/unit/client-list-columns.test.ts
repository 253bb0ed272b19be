// One derivation of a list's columns (listColumns) for AG Grid and for the plain first-page table: values, formats,
// sort, saved order and visibility, pinning; and the plain table drawn from it.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { arrangeColumns, cellValue, listColumns, pinnedOrder } from '../../src/client/renderer/listColumns.ts';
import { FirstPageTable } from '../../src/client/renderer/FirstPageTable.tsx';
import type { ResourceGridProps } from '../../src/client/renderer/listColumns.ts';
import type { JsonSchema, ListColumn } from '../../src/client/types.ts';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    tipo: { type: 'string', oneOf: [{ const: 'RETAIL', title: 'Retail' }, { const: 'CORPORATE', title: 'Azienda' }] },
    collaboratore_id: { type: 'integer', 'x-ref': 'collaboratore' },
    nascita: { type: 'string', format: 'date' },
    premio: { type: 'number' },
    attivo: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', enum: ['RETAIL', 'CORPORATE'] } },
  },
} as JsonSchema;

const columns: ListColumn[] = [
  { field: 'id', headerName: 'Id', width: 90, sortable: true },
  { field: 'tipo', headerName: 'Tipo', important: true },
  { field: 'collaboratore_id', headerName: 'Collaboratore' },
  { field: 'nascita', headerName: 'Nascita', format: 'date', sortable: true },
  { field: 'premio', headerName: 'Premio', format: 'money', important: true },
  { field: 'attivo', headerName: 'Attivo', format: 'boolean', hide: true },
];

const row = { id: 7, tipo: 'RETAIL', collaboratore_id: 3, collaboratore_id__label: 'Rossi Mario', nascita: '1980-01-31', premio: 1234.5, attivo: true };

describe('listColumns', () => {
  it('gives each column its value, text or cell renderer as the grid shows them', () => {
    const views = listColumns(columns, schema, '-id');
    const by = (field: string) => views.find((v) => v.column.field === field)!;
    // Enum values read as their titles, references as their record's label.
    expect(by('tipo').text!(cellValue(by('tipo'), row))).toBe('Retail');
    expect(cellValue(by('collaboratore_id'), row)).toBe('Rossi Mario');
    expect(cellValue(by('collaboratore_id'), { collaboratore_id: 3 })).toBe(3);
    // Formatted columns render through the widget registry's cell, with the column and titles beside the value.
    expect(by('premio').cell).toBeTypeOf('function');
    expect(by('premio').text).toBeUndefined();
    expect(by('premio').cellParams?.column.field).toBe('premio');
    // The URL's sort: a lone key has no index.
    expect(by('id')).toMatchObject({ sort: 'desc', sortIndex: null });
    expect(by('nascita')).toMatchObject({ sort: null, sortIndex: null });
    const multi = listColumns(columns, schema, 'nascita,-id');
    expect(multi.find((v) => v.column.field === 'nascita')).toMatchObject({ sort: 'asc', sortIndex: 0 });
    expect(multi.find((v) => v.column.field === 'id')).toMatchObject({ sort: 'desc', sortIndex: 1 });
  });

  it('joins arrays of enum values by their titles (a bare enum titled from its value)', () => {
    const [tags] = listColumns([{ field: 'tags', headerName: 'Tag' }], schema, '');
    expect(tags.text!(['CORPORATE', 'RETAIL'])).toBe('Corporate, Retail');
    expect(tags.text!(null)).toBe('');
  });

  it('names the field when a format has no cell renderer', () => {
    expect(() => listColumns([{ field: 'premio', headerName: 'Premio', format: 'nonesiste' }], schema, '')).toThrow(/nonesiste.*premio/);
  });
});

describe('arrangeColumns and pinnedOrder', () => {
  const views = listColumns(columns, schema, '');
  const fields = (list: Array<{ column: ListColumn }>) => list.map((v) => v.column.field);

  it('follows the saved order and widths, drops hidden columns, puts columns unknown to the saved order last', () => {
    const saved = [
      { colId: 'premio', width: 200 },
      { colId: 'id' },
      { colId: 'gone', width: 10 },
      { colId: 'tipo', hide: true },
    ];
    const arranged = arrangeColumns(views, saved, new Set(['tipo', 'attivo']));
    expect(fields(arranged)).toEqual(['premio', 'id', 'collaboratore_id', 'nascita']);
    expect(arranged.map((v) => v.width)).toEqual([200, 90, undefined, undefined]);
    expect(fields(arrangeColumns(views, undefined, new Set()))).toEqual(columns.map((c) => c.field));
  });

  it('puts the important columns first only when the list is wider than the screen, list.json pins always', () => {
    const pinned = listColumns([...columns, { field: 'id2', headerName: 'Fine', pinned: 'right' }, { field: 'id3', headerName: 'Inizio', pinned: 'left' }], schema, '');
    expect(fields(pinnedOrder(pinned, false))).toEqual(['id3', 'id', 'tipo', 'collaboratore_id', 'nascita', 'premio', 'attivo', 'id2']);
    expect(fields(pinnedOrder(pinned, true))).toEqual(['tipo', 'premio', 'id3', 'id', 'collaboratore_id', 'nascita', 'attivo', 'id2']);
  });
});

describe('FirstPageTable', () => {
  const props = (over: Partial<ResourceGridProps> = {}): ResourceGridProps & { hidden: Set<string> } => ({
    columns,
    schema,
    rows: [row],
    loading: false,
    sort: '-id',
    emptyText: 'nessun elemento trovato',
    actions: { describe: (r) => `Cliente ${String(r.id)}`, edit: () => undefined },
    label: 'Clienti',
    onSortChange: () => undefined,
    onColumnsChange: () => undefined,
    hidden: new Set(['attivo']),
    ...over,
  });

  it('draws the page with the grid headers, its formats and the row actions', () => {
    const html = renderToStaticMarkup(createElement(FirstPageTable, props())).replace(/\u00a0/g, ' ');
    expect(html).toContain('aria-label="Clienti"');
    expect([...html.matchAll(/<th [^>]*>([^<]*)/g)].map((m) => m[1])).toEqual(['Azioni', 'Id', 'Tipo', 'Collaboratore', 'Nascita', 'Premio']);
    expect(html).toMatch(/<th scope="col"[^>]*aria-sort="descending"[^>]*>Id/);
    for (const text of ['>Retail<', '>Rossi Mario<', '>31/01/1980<', '1.234,50 €', 'aria-label="Modifica Cliente 7"']) expect(html).toContain(text);
    // Hidden by the page (the user's choice or list.json), as the grid hides it.
    expect(html).not.toContain('Attivo');
    expect(html).not.toContain('Elimina');
  });

  it('says the list is empty, or loading, across the whole width', () => {
    expect(renderToStaticMarkup(createElement(FirstPageTable, props({ rows: [] })))).toContain('colSpan="6">nessun elemento trovato<');
    expect(renderToStaticMarkup(createElement(FirstPageTable, props({ rows: [], loading: true })))).toContain('Caricamento…');
  });
});

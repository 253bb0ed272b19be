// The one derivation of a list's columns from list.json and the schema, read by both AG Grid and the plain first-page
// table, so headers, values and formatting cannot drift apart. No AG Grid import here: the plain table must not load it.
import type { ComponentType, ReactNode } from 'react';
import type { ColumnState, GridApi } from 'ag-grid-community';
import { cellRenderer } from '../widgets/registry.ts';
import type { CellProps } from '../widgets/cells.tsx';
import type { JsonSchema, ListColumn, RecordData } from '../types.ts';
import { parseSort } from './listParams.ts';
import { optionTitles } from '../../shared/enumTitle.ts';

export type SavedColumn = Pick<ColumnState, 'colId' | 'width' | 'hide'>;
/** The column id of the row actions. */
export const ACTIONS = '__azioni';
export const ACTIONS_HEADER = 'Azioni';
export const ACTIONS_WIDTH = 100;
/** No column narrower than this. */
export const COLUMN_MIN_WIDTH = 60;

export interface RowActions {
  edit?: (row: RecordData) => void;
  remove?: (row: RecordData) => void;
  describe: (row: RecordData) => string;
  /** Per row: whether this row offers the action (a status may forbid deleting). */
  allows?: (row: RecordData, action: 'edit' | 'remove') => boolean;
  /** The edit button's word when a row opens another screen ('Apri'). */
  editLabel?: string;
  /** A desk's own buttons for the row, after edit and delete. */
  extra?: (row: RecordData) => ReactNode;
  /** Width of the actions column when the row has more buttons. */
  width?: number;
}

/** Whether a list shows the actions column at all. */
export const hasRowActions = (actions: RowActions) => Boolean(actions.edit || actions.remove || actions.extra);

/** Whether this row offers the action: the list offers it and the row (its status) allows it. */
export const offers = (actions: RowActions, row: RecordData, action: 'edit' | 'remove') =>
  Boolean(actions[action]) && actions.allows?.(row, action) !== false;

/** What the list grid (AG Grid) and its plain stand-in both receive from the list page. */
export interface ResourceGridProps {
  columns: ListColumn[];
  schema: JsonSchema;
  rows: RecordData[];
  loading: boolean;
  sort: string;
  emptyText: string;
  actions: RowActions;
  savedColumns?: SavedColumn[];
  label: string;
  onSortChange: (sort: string) => void;
  onColumnsChange: (state: SavedColumn[]) => void;
  onGridApi?: (api: GridApi | undefined) => void;
}

export interface ListColumnView {
  column: ListColumn;
  /** The cell renderer of column.format, from the widget registry, with what it receives beside the value. */
  cell?: ComponentType<CellProps>;
  cellParams?: { column: ListColumn; titles?: Map<unknown, string>; prop?: JsonSchema; schema?: JsonSchema };
  /** The value the cell shows: a reference reads as its record's label, which the server sends as <field>__label. */
  value?: (row: RecordData) => unknown;
  /** The text of a column without a format (enum titles, arrays joined). */
  text?: (value: unknown) => string;
  sort: 'asc' | 'desc' | null;
  /** Position among several sort keys, only when there are several. */
  sortIndex: number | null;
}

/** Enum values (and arrays of them) as their option titles (RETAIL → Retail), objects as JSON. */
export function displayValue(value: unknown, titles: Map<unknown, string> | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => displayValue(v, titles)).join(', ');
  return titles?.get(value) ?? (typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** Each list.json column as the list shows it, with the sort state of the URL's sort. */
export function listColumns(columns: ListColumn[], schema: JsonSchema, sort: string): ListColumnView[] {
  const sorted = parseSort(sort);
  return columns.map((column) => {
    const prop = schema.properties?.[column.field];
    const titles = optionTitles(prop as Parameters<typeof optionTitles>[0]);
    const position = sorted.findIndex((s) => s.field === column.field);
    const field = column.field;
    return {
      column,
      cell: column.format ? cellRenderer(column.format, field) : undefined,
      cellParams: column.format ? { column, titles, prop, schema } : undefined,
      value: prop?.['x-ref'] ? (row: RecordData) => row[`${field}__label`] ?? row[field] : undefined,
      text: column.format ? undefined : (value: unknown) => displayValue(value, titles),
      sort: position >= 0 ? sorted[position].dir : null,
      sortIndex: position >= 0 && sorted.length > 1 ? position : null,
    };
  });
}

/** What a row's cell holds before formatting. */
export function cellValue(view: ListColumnView, row: RecordData): unknown {
  return view.value ? view.value(row) : row[view.column.field];
}

/**
 * The visible columns in the order the user saved (else list.json's), with the widths they set: what the grid applies
 * once it is ready, so the plain table draws the same columns. Columns not in the saved order (added to list.json
 * since) come after, as the grid places them.
 */
export function arrangeColumns<T extends { column: ListColumn }>(views: T[], saved: SavedColumn[] | undefined, hidden: Set<string>): Array<T & { width?: number }> {
  const byField = new Map(views.map((v) => [v.column.field, v]));
  const kept = (saved ?? []).filter((c) => byField.has(c.colId));
  const savedIds = new Set(kept.map((c) => c.colId));
  const ordered = [
    ...kept.map((c) => ({ ...byField.get(c.colId)!, width: c.width ?? byField.get(c.colId)!.column.width })),
    ...views.filter((v) => !savedIds.has(v.column.field)).map((v) => ({ ...v, width: v.column.width })),
  ];
  return ordered.filter((v) => !hidden.has(v.column.field));
}

/**
 * The displayed order of pinned columns, as AG Grid shows them: pinned left first (list.json's pin, and the important
 * columns while the list is wider than the screen), then the others, then those pinned right.
 */
export function pinnedOrder<T extends { column: ListColumn }>(views: T[], pinImportant: boolean): T[] {
  const side = ({ column }: T) => column.pinned ?? (pinImportant && column.important ? 'left' : null);
  return [...views.filter((v) => side(v) === 'left'), ...views.filter((v) => !side(v)), ...views.filter((v) => side(v) === 'right')];
}

/** The columns a user widened or narrowed by hand: only their width is kept, the others follow their content. */
const userSized = new WeakMap<GridApi, Set<string>>();

export function markUserSized(api: GridApi, colIds: Iterable<string>): void {
  const sized = userSized.get(api) ?? new Set<string>();
  for (const id of colIds) sized.add(id);
  userSized.set(api, sized);
}

export function setUserSized(api: GridApi, colIds: Iterable<string>): void {
  userSized.set(api, new Set(colIds));
}

/** What is kept per user: order (array order), the widths they set and visibility; sort belongs to the URL. */
export function savedColumnsOf(api: GridApi): SavedColumn[] {
  const sized = userSized.get(api);
  return api
    .getColumnState()
    .filter((c) => c.colId !== ACTIONS)
    .map((c) => ({ colId: c.colId, width: sized?.has(c.colId) ? c.width : undefined, hide: c.hide }));
}

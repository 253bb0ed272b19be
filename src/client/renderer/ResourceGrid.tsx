// AG Grid showing one server page: columns from list.json, cells from the widget registry, sort/columns reported up.
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { CellStyleModule, ClientSideRowModelModule, ColumnApiModule, LocaleModule, ModuleRegistry, RowApiModule, themeQuartz } from 'ag-grid-community';
import type { CellKeyDownEvent, ColDef, ColumnState, GridApi, SortChangedEvent, SuppressKeyboardEventParams } from 'ag-grid-community';
import { RowActions as RowActionButtons } from '../lib/RowActions.tsx';
import { cellRenderer } from '../widgets/registry.ts';
import type { JsonSchema, ListColumn, RecordData } from '../types.ts';
import { formatSort, parseSort } from './listParams.ts';

// Only what a server-paged list needs: no client filtering, no pagination module.
ModuleRegistry.registerModules([ClientSideRowModelModule, ColumnApiModule, RowApiModule, CellStyleModule, LocaleModule]);

const theme = themeQuartz.withParams({ fontFamily: 'inherit', headerFontWeight: 600, wrapperBorderRadius: 6 });

export type SavedColumn = Pick<ColumnState, 'colId' | 'width' | 'hide'>;
const ACTIONS = '__azioni';

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

function ActionsCell({ data, context }: CustomCellRendererProps<RecordData, unknown, RowActions>) {
  if (!data) return null;
  const offers = (action: 'edit' | 'remove') => Boolean(context[action]) && context.allows?.(data, action) !== false;
  return (
    <RowActionButtons
      name={context.describe(data)}
      className="d-flex gap-1 align-items-center h-100"
      onEdit={offers('edit') ? () => context.edit!(data) : undefined}
      onDelete={offers('remove') ? () => context.remove!(data) : undefined}
      editLabel={context.editLabel}
    >
      {context.extra?.(data)}
    </RowActionButtons>
  );
}

/** What is kept per user: order (array order), width and visibility; sort belongs to the URL. */
export function savedColumnsOf(api: GridApi): SavedColumn[] {
  return api
    .getColumnState()
    .filter((c) => c.colId !== ACTIONS)
    .map((c) => ({ colId: c.colId, width: c.width, hide: c.hide }));
}

/** Tab walks through the buttons of the actions cell before the grid moves to the next cell. */
function tabThroughButtons({ event }: SuppressKeyboardEventParams): boolean {
  if (event.key !== 'Tab' || event.type !== 'keydown') return false;
  const cell = (event.target as HTMLElement).closest('.ag-cell') as HTMLElement | null;
  if (!cell) return false;
  const buttons = Array.from(cell.querySelectorAll<HTMLElement>('button:not([disabled])'));
  if (!buttons.length) return false;
  const index = buttons.indexOf(document.activeElement as HTMLElement);
  let target: HTMLElement | undefined;
  if (!event.shiftKey) target = index === -1 ? buttons[0] : buttons[index + 1];
  else if (index > 0) target = buttons[index - 1];
  else if (index === 0) target = cell;
  if (!target) return false;
  event.preventDefault();
  target.focus();
  return true;
}

/** Enum columns (and arrays of enums) show option titles (RETAIL → Retail) unless a format is given. */
function titleMap(prop: JsonSchema | undefined): Map<unknown, string> | undefined {
  const options = (prop?.oneOf ?? prop?.items?.oneOf) as Array<{ const?: unknown; title?: string }> | undefined;
  if (!Array.isArray(options) || !options.every((o) => 'const' in o)) return undefined;
  return new Map(options.map((o) => [o.const, o.title ?? String(o.const)]));
}

function display(value: unknown, titles: Map<unknown, string> | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => display(v, titles)).join(', ');
  return titles?.get(value) ?? (typeof value === 'object' ? JSON.stringify(value) : String(value));
}

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

export function ResourceGrid(props: ResourceGridProps) {
  const { columns, schema, rows, loading, sort, emptyText, actions, savedColumns, label, onSortChange, onColumnsChange, onGridApi } = props;
  const apiRef = useRef<GridApi | undefined>(undefined);
  const applied = useRef(false);

  const columnDefs = useMemo<ColDef<RecordData>[]>(() => {
    const sorted = parseSort(sort);
    const defs: ColDef<RecordData>[] = columns.map((column) => {
      const titles = titleMap(schema.properties?.[column.field]);
      const position = sorted.findIndex((s) => s.field === column.field);
      return {
        colId: column.field,
        field: column.field,
        headerName: column.headerName,
        sortable: Boolean(column.sortable),
        // The server sorts; the grid keeps the order it receives.
        comparator: () => 0,
        sort: position >= 0 ? sorted[position].dir : null,
        sortIndex: position >= 0 && sorted.length > 1 ? position : null,
        initialWidth: column.width,
        initialFlex: column.width ? undefined : 1,
        initialHide: column.hide,
        // Wide enough for the header text; the grid scrolls sideways rather than truncating headers.
        minWidth: Math.max(90, Math.round(36 + 8.5 * column.headerName.length)),
        cellRenderer: column.format ? cellRenderer(column.format, column.field) : undefined,
        cellRendererParams: column.format ? { column, titles, prop: schema.properties?.[column.field] } : undefined,
        valueFormatter: column.format ? undefined : (p) => display(p.value, titles),
      };
    });
    if (actions.edit || actions.remove || actions.extra) {
      defs.unshift({
        colId: ACTIONS,
        headerName: 'Azioni',
        cellRenderer: ActionsCell,
        sortable: false,
        resizable: false,
        suppressMovable: true,
        lockPosition: 'left',
        lockVisible: true,
        width: actions.width ?? 100,
        suppressKeyboardEvent: tabThroughButtons,
      });
    }
    return defs;
  }, [columns, schema, sort, actions.edit, actions.remove, actions.extra, actions.width]);

  const applySaved = useCallback(() => {
    const api = apiRef.current;
    if (!api || !savedColumns?.length || applied.current) return;
    applied.current = true;
    const known = new Set(columns.map((c) => c.field));
    const state = savedColumns
      .filter((c) => known.has(c.colId))
      .map((c) => ({ colId: c.colId, width: c.width ?? undefined, hide: c.hide ?? undefined, flex: c.width ? null : undefined }));
    api.applyColumnState({ state: [{ colId: ACTIONS }, ...state], applyOrder: true });
  }, [savedColumns, columns]);
  useEffect(applySaved, [applySaved]);

  const reportColumns = () => apiRef.current && onColumnsChange(savedColumnsOf(apiRef.current));

  const onSortChanged = (event: SortChangedEvent) => {
    if (event.source !== 'uiColumnSorted') return;
    const state = event.api
      .getColumnState()
      .filter((c) => c.sort)
      .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0));
    onSortChange(formatSort(state.map((c) => ({ field: c.colId, dir: c.sort as 'asc' | 'desc' }))));
  };

  const onCellKeyDown = (event: CellKeyDownEvent<RecordData>) => {
    const key = (event.event as KeyboardEvent | undefined)?.key;
    // Enter on a data cell opens the record, like a double click.
    if (key === 'Enter' && event.colDef.colId !== ACTIONS && event.data && actions.edit) actions.edit(event.data);
  };

  return (
    <div aria-label={label} role="region">
      <AgGridReact<RecordData>
        theme={theme}
        rowData={rows}
        columnDefs={columnDefs}
        context={actions}
        loading={loading}
        domLayout="autoHeight"
        getRowId={(p) => String(p.data.id)}
        ensureDomOrder
        suppressDragLeaveHidesColumns
        maintainColumnOrder
        localeText={{ noRowsToShow: emptyText, loadingOoo: 'Caricamento…' }}
        onGridReady={(event) => {
          apiRef.current = event.api;
          onGridApi?.(event.api);
          applySaved();
        }}
        onGridPreDestroyed={() => {
          apiRef.current = undefined;
          onGridApi?.(undefined);
        }}
        onSortChanged={onSortChanged}
        onColumnMoved={(e) => e.finished && e.source === 'uiColumnMoved' && reportColumns()}
        onColumnResized={(e) => e.finished && e.source === 'uiColumnResized' && reportColumns()}
        onCellKeyDown={onCellKeyDown}
        onRowDoubleClicked={(e) => e.data && actions.edit?.(e.data)}
      />
    </div>
  );
}

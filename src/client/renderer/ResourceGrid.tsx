// AG Grid showing one server page: columns from list.json, cells from the widget registry, sort/columns reported up.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { ClientSideRowModelModule, ColumnApiModule, ColumnAutoSizeModule, LocaleModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';
import type { AutoSizeStrategy, CellKeyDownEvent, ColDef, ColumnState, GridApi, SortChangedEvent, SuppressKeyboardEventParams } from 'ag-grid-community';
import { RowActions as RowActionButtons } from '../lib/RowActions.tsx';
import { cellRenderer } from '../widgets/registry.ts';
import type { JsonSchema, ListColumn, RecordData } from '../types.ts';
import { formatSort, parseSort } from './listParams.ts';
import { optionTitles } from '../../shared/enumTitle.ts';

// Only what a server-paged list uses: rows as given (no client filtering or pagination), the column state API (saved
// columns, pins), localeText and columns sized to their content. No row API, no cellClass/cellStyle: nothing calls them.
ModuleRegistry.registerModules([ClientSideRowModelModule, ColumnApiModule, LocaleModule, ColumnAutoSizeModule]);

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

/** The columns a user widened or narrowed by hand: only their width is kept, the others follow their content. */
const userSized = new WeakMap<GridApi, Set<string>>();

/** What is kept per user: order (array order), the widths they set and visibility; sort belongs to the URL. */
export function savedColumnsOf(api: GridApi): SavedColumn[] {
  const sized = userSized.get(api);
  return api
    .getColumnState()
    .filter((c) => c.colId !== ACTIONS)
    .map((c) => ({ colId: c.colId, width: sized?.has(c.colId) ? c.width : undefined, hide: c.hide }));
}

/** Every column as wide as its content (header included), the spare room shared out; re-run as data and columns change. */
const AUTO_SIZE: AutoSizeStrategy = { type: 'fitCellContents', continuous: true, scaleUpToFitGridWidth: true };

/** Whether the displayed columns are wider than the grid: then the important ones are pinned at the left. */
function overflows(api: GridApi, host: HTMLElement | null): boolean {
  if (!host || api.isDestroyed()) return false;
  const total = api.getAllDisplayedColumns().reduce((sum, c) => sum + c.getActualWidth(), 0);
  return total > host.clientWidth;
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
  return optionTitles(prop as Parameters<typeof optionTitles>[0]);
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
  const hostRef = useRef<HTMLDivElement>(null);
  const [pinImportant, setPinImportant] = useState(false);
  const hasImportant = columns.some((c) => c.important && !c.pinned);
  // Once pinned, the columns stay so until the grid has room for all of them (measured unpinned widths are kept).
  const checkOverflow = (api: GridApi) => {
    if (!hasImportant) return;
    const over = overflows(api, hostRef.current);
    if (over && !pinImportant) setPinImportant(true);
    else if (!over && pinImportant) setPinImportant(false);
  };
  const applied = useRef(false);

  const columnDefs = useMemo<ColDef<RecordData>[]>(() => {
    const sorted = parseSort(sort);
    const defs: ColDef<RecordData>[] = columns.map((column) => {
      const titles = titleMap(schema.properties?.[column.field]);
      const isRef = Boolean(schema.properties?.[column.field]?.['x-ref']);
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
        // list.json's width holds; other columns follow their content (AUTO_SIZE).
        initialWidth: column.width,
        suppressAutoSize: Boolean(column.width),
        suppressSizeToFit: Boolean(column.width),
        // list.json's pin; columns marked important join the left pin while the grid is wider than the screen.
        pinned: column.pinned ?? (pinImportant && column.important ? 'left' : null),
        initialHide: column.hide,
        minWidth: 60,
        cellRenderer: column.format ? cellRenderer(column.format, column.field) : undefined,
        cellRendererParams: column.format ? { column, titles, prop: schema.properties?.[column.field] } : undefined,
        // A reference reads as its record's label, which the server sends beside it (<field>__label).
        valueGetter: isRef ? (p) => p.data?.[`${column.field}__label`] ?? p.data?.[column.field] : undefined,
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
        pinned: pinImportant ? 'left' : null,
        lockVisible: true,
        width: actions.width ?? 100,
        suppressAutoSize: true,
        suppressSizeToFit: true,
        suppressKeyboardEvent: tabThroughButtons,
      });
    }
    return defs;
  }, [columns, schema, sort, actions.edit, actions.remove, actions.extra, actions.width, pinImportant]);

  // The column definitions carry the pin; the state is applied too, so columns with a fixed width follow at once.
  useEffect(() => {
    const api = apiRef.current;
    if (!api || api.isDestroyed() || !hasImportant) return;
    const pinnedNow = new Set([ACTIONS, ...columns.filter((c) => c.important && !c.pinned).map((c) => c.field)]);
    api.applyColumnState({ state: [...pinnedNow].map((colId) => ({ colId, pinned: pinImportant ? 'left' : null })) });
  }, [pinImportant, hasImportant, columns]);

  const applySaved = useCallback(() => {
    const api = apiRef.current;
    if (!api || !savedColumns?.length || applied.current) return;
    applied.current = true;
    const known = new Set(columns.map((c) => c.field));
    const state = savedColumns
      .filter((c) => known.has(c.colId))
      .map((c) => ({ colId: c.colId, width: c.width ?? undefined, hide: c.hide ?? undefined }));
    userSized.set(api, new Set(state.filter((c) => c.width).map((c) => c.colId)));
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
    <div aria-label={label} role="region" ref={hostRef}>
      <AgGridReact<RecordData>
        theme={theme}
        autoSizeStrategy={AUTO_SIZE}
        // Every column is rendered, so each is measured (a list has a handful of columns).
        suppressColumnVirtualisation
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
        onColumnResized={(e) => {
          if (!e.finished) return;
          if (e.source === 'uiColumnResized') {
            const sized = userSized.get(e.api) ?? new Set<string>();
            for (const column of e.columns ?? []) sized.add(column.getColId());
            userSized.set(e.api, sized);
            reportColumns();
          } else checkOverflow(e.api);
        }}
        onGridSizeChanged={(e) => checkOverflow(e.api)}
        onCellKeyDown={onCellKeyDown}
        onRowDoubleClicked={(e) => e.data && actions.edit?.(e.data)}
      />
    </div>
  );
}

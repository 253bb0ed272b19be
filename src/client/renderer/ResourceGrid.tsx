// AG Grid showing one server page: columns from list.json (listColumns), cells from the widget registry, sort/columns
// reported up. Loaded lazily by the list page (the plain first-page table stands in until it arrives).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { ClientSideRowModelModule, ColumnApiModule, ColumnAutoSizeModule, LocaleModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';
import type { AutoSizeStrategy, CellKeyDownEvent, ColDef, GridApi, SortChangedEvent, SuppressKeyboardEventParams } from 'ag-grid-community';
import { RowActions as RowActionButtons } from '../lib/RowActions.tsx';
import type { RecordData } from '../types.ts';
import { formatSort } from './listParams.ts';
import { ACTIONS, ACTIONS_HEADER, ACTIONS_WIDTH, COLUMN_MIN_WIDTH, listColumns, offers, markUserSized, savedColumnsOf, setUserSized } from './listColumns.ts';
import type { ResourceGridProps, RowActions } from './listColumns.ts';

// Only what a server-paged list uses: rows as given (no client filtering or pagination), the column state API (saved
// columns, pins), localeText and columns sized to their content. No row API, no cellClass/cellStyle: nothing calls them.
ModuleRegistry.registerModules([ClientSideRowModelModule, ColumnApiModule, LocaleModule, ColumnAutoSizeModule]);

const theme = themeQuartz.withParams({ fontFamily: 'inherit', headerFontWeight: 600, wrapperBorderRadius: 6 });

function ActionsCell({ data, context }: CustomCellRendererProps<RecordData, unknown, RowActions>) {
  if (!data) return null;
  return (
    <RowActionButtons
      name={context.describe(data)}
      className="d-flex gap-1 align-items-center h-100"
      onEdit={offers(context, data, 'edit') ? () => context.edit!(data) : undefined}
      onDelete={offers(context, data, 'remove') ? () => context.remove!(data) : undefined}
      editLabel={context.editLabel}
    >
      {context.extra?.(data)}
    </RowActionButtons>
  );
}

/** Every column as wide as its content (header included), the spare room shared out; re-run as data and columns change. */
const AUTO_SIZE: AutoSizeStrategy = { type: 'fitCellContents', continuous: true, scaleUpToFitGridWidth: true };

/** Whether the displayed columns are wider than the grid: then the important ones are pinned at the left. */
function overflows(api: GridApi, host: HTMLElement | null): boolean {
  if (!host || api.isDestroyed()) return false;
  const total = api.getAllDisplayedColumns().reduce((sum, c) => sum + c.getActualWidth(), 0);
  return total > host.clientWidth;
}

const IN_CELL_CONTROLS = '.ag-cell button:not([disabled]), .ag-cell a[href], .ag-cell input, .ag-cell select';

/**
 * The grid is one Tab stop (WAI-ARIA grid): Tab enters it, the arrows move inside, the next Tab leaves it. The buttons
 * in its cells leave the page's Tab order; Tab on a cell reaches them (tabThroughButtons).
 */
function keepControlsOutOfTabOrder(host: HTMLElement): () => void {
  const apply = () => host.querySelectorAll<HTMLElement>(IN_CELL_CONTROLS).forEach((el) => el.tabIndex !== -1 && (el.tabIndex = -1));
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(host, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** Tab walks through the buttons of a cell (the row's actions, a detail toggle) before focus leaves the grid. */
function tabThroughButtons({ event }: SuppressKeyboardEventParams): boolean {
  if (event.key !== 'Tab' || event.type !== 'keydown') return false;
  const cell = (event.target as HTMLElement).closest('.ag-cell') as HTMLElement | null;
  if (!cell) return false;
  const buttons = Array.from(cell.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select'));
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

export default function ResourceGrid(props: ResourceGridProps) {
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
    const defs: ColDef<RecordData>[] = listColumns(columns, schema, sort).map(({ column, cell, cellParams, value, text, sort: dir, sortIndex }) => ({
      colId: column.field,
      field: column.field,
      headerName: column.headerName,
      sortable: Boolean(column.sortable),
      // The server sorts; the grid keeps the order it receives.
      comparator: () => 0,
      sort: dir,
      sortIndex,
      // list.json's width holds; other columns follow their content (AUTO_SIZE).
      initialWidth: column.width,
      suppressAutoSize: Boolean(column.width),
      suppressSizeToFit: Boolean(column.width),
      // list.json's pin; columns marked important join the left pin while the grid is wider than the screen.
      pinned: column.pinned ?? (pinImportant && column.important ? 'left' : null),
      initialHide: column.hide,
      minWidth: COLUMN_MIN_WIDTH,
      cellRenderer: cell,
      cellRendererParams: cellParams,
      suppressKeyboardEvent: tabThroughButtons,
      valueGetter: value ? (p) => (p.data ? value(p.data) : undefined) : undefined,
      valueFormatter: text ? (p) => text(p.value) : undefined,
    }));
    if (actions.edit || actions.remove || actions.extra) {
      defs.unshift({
        colId: ACTIONS,
        headerName: ACTIONS_HEADER,
        cellRenderer: ActionsCell,
        sortable: false,
        resizable: false,
        suppressMovable: true,
        lockPosition: 'left',
        pinned: pinImportant ? 'left' : null,
        lockVisible: true,
        width: actions.width ?? ACTIONS_WIDTH,
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
    setUserSized(api, state.filter((c) => c.width).map((c) => c.colId));
    api.applyColumnState({ state: [{ colId: ACTIONS }, ...state], applyOrder: true });
  }, [savedColumns, columns]);
  useEffect(applySaved, [applySaved]);

  useEffect(() => (hostRef.current ? keepControlsOutOfTabOrder(hostRef.current) : undefined), []);

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
            markUserSized(e.api, (e.columns ?? []).map((column) => column.getColId()));
            reportColumns();
          } else checkOverflow(e.api);
        }}
        onGridSizeChanged={(e) => checkOverflow(e.api)}
        onCellKeyDown={onCellKeyDown}
        // Tab leaves the grid from any cell or header (the browser's own Tab order), arrows move inside it.
        tabToNextCell={() => false}
        tabToNextHeader={() => false}
        onRowDoubleClicked={(e) => e.data && actions.edit?.(e.data)}
      />
    </div>
  );
}

// The list's page as a plain read-only HTML table, shown while AG Grid's chunk loads: the same columns, cells and row
// actions as the grid (listColumns), the same rows and the same height, so the grid takes over without a jump.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { RowActions as RowActionButtons } from '../lib/RowActions.tsx';
import type { RecordData } from '../types.ts';
import { ACTIONS_HEADER, ACTIONS_WIDTH, COLUMN_MIN_WIDTH, arrangeColumns, cellValue, hasRowActions, listColumns, offers, pinnedOrder } from './listColumns.ts';
import type { ListColumnView, ResourceGridProps } from './listColumns.ts';

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

function Cell({ view, row }: { view: ListColumnView; row: RecordData }) {
  const value = cellValue(view, row);
  if (view.cell) {
    const Renderer = view.cell;
    return <Renderer value={value} data={row} {...view.cellParams} />;
  }
  return <>{view.text!(value)}</>;
}

/** hidden: the columns the list page hides (the user's choices, else list.json's), as the column chooser shows them. */
export function FirstPageTable(props: ResourceGridProps & { hidden: Set<string> }) {
  const { columns, schema, rows, loading, sort, emptyText, actions, savedColumns, label, hidden } = props;
  const hostRef = useRef<HTMLDivElement>(null);
  // Wider than the screen: the important columns come first, where the grid pins them.
  const [pinImportant, setPinImportant] = useState(false);
  useLayoutEffect(() => {
    const host = hostRef.current;
    if (host && !pinImportant && host.scrollWidth > host.clientWidth) setPinImportant(true);
  }, [pinImportant, rows, columns]);
  const views = useMemo(
    () => pinnedOrder(arrangeColumns(listColumns(columns, schema, sort), savedColumns, hidden), pinImportant),
    [columns, schema, sort, savedColumns, hidden, pinImportant],
  );
  const withActions = hasRowActions(actions);
  return (
    <div aria-label={label} role="region" className="list-table" aria-busy={loading || undefined} ref={hostRef}>
      <table>
        <thead>
          <tr>
            {withActions && (
              <th scope="col" style={{ width: actions.width ?? ACTIONS_WIDTH, minWidth: actions.width ?? ACTIONS_WIDTH }}>
                {ACTIONS_HEADER}
              </th>
            )}
            {views.map((view) => (
              <th key={view.column.field} scope="col" style={{ width: view.width, minWidth: view.width ?? COLUMN_MIN_WIDTH }} aria-sort={view.sort ? ARIA_SORT[view.sort] : undefined}>
                {view.column.headerName}
                {view.sort && <span aria-hidden="true"> {view.sort === 'asc' ? '↑' : '↓'}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={String(row.id)}>
              {withActions && (
                <td>
                  <RowActionButtons
                    name={actions.describe(row)}
                    onEdit={offers(actions, row, 'edit') ? () => actions.edit!(row) : undefined}
                    onDelete={offers(actions, row, 'remove') ? () => actions.remove!(row) : undefined}
                    editLabel={actions.editLabel}
                  >
                    {actions.extra?.(row)}
                  </RowActionButtons>
                </td>
              )}
              {views.map((view) => (
                <td key={view.column.field}>
                  <Cell view={view} row={row} />
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr className="list-table-empty">
              <td colSpan={views.length + (withActions ? 1 : 0)}>{loading ? 'Caricamento…' : emptyText}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

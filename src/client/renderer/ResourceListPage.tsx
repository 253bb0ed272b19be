// Generic list screen for any resource: toolbar (and named actions), filters, AG Grid page (lazy, a plain table first), pager,
// delete confirmation, form dialog.
import { Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { lazyScreen as lazy, loadChunk } from '../lib/lazyScreen.ts';
import { generatePath, useNavigate } from 'react-router-dom';
import type { GridApi } from 'ag-grid-community';
import Button from 'react-bootstrap/Button';
import { ApiError } from '../api/dataProvider.ts';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { fillTemplate } from '../lib/format.ts';
import { Icon } from '../lib/Icon.tsx';
import { can, useWorkflows } from '../lib/access.ts';
import { useConfirmDelete } from '../lib/useConfirmDelete.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { ColumnChooser, FilterPanel, Pager, SearchBox } from './ListControls.tsx';
import { FirstPageTable } from './FirstPageTable.tsx';
import { savedColumnsOf } from './listColumns.ts';
import type { ResourceGridProps, RowActions, SavedColumn } from './listColumns.ts';
import { useColumnPreferences, useResourceList } from './useResourceList.ts';
import { extraFilters } from './listParams.ts';
import { StatusChips, statusFilterField, withStatusTitles } from './StatusChips.tsx';
import { usePages } from './pages.tsx';
import { ExportButton, SavedFilters } from './ListTools.tsx';

// AG Grid is most of a list's JavaScript: the page draws its rows at once in a plain table and the grid takes over when
// its chunk arrives. The download starts as this module loads, not when the rows are there.
const gridChunk = loadChunk(() => import('./ResourceGrid.tsx'));
// A failed early download is retried (and then reported) by the lazy component, not left unhandled.
gridChunk.catch(() => undefined);
const ResourceGrid = lazy(() => gridChunk.catch(() => import('./ResourceGrid.tsx')));

/** The grid, with the plain table standing in until it is loaded. */
export function ListGrid({ hidden, ...props }: ResourceGridProps & { hidden: Set<string> }) {
  return (
    <Suspense fallback={<FirstPageTable {...props} hidden={hidden} />}>
      <ResourceGrid {...props} />
    </Suspense>
  );
}

// Loaded only when a resource edits in a dialog ("ui:dialog" in form.ui.json), so plain lists stay without rjsf.
const ResourceFormDialog = lazy(() => import('./ResourceFormDialog.tsx').then((m) => ({ default: m.ResourceFormDialog })));

/** A named toolbar action of form.ui.json "ui:listActions" (e.g. an import), from the custom pages registry. */
function ListAction({ name, def, onChanged }: { name: string; def: ResourceDef; onChanged: () => void }) {
  const Action = usePages()(name);
  if (!Action) throw new Error(`Configurazione non valida: azione "${name}" sconosciuta in ${def.name}/form.ui.json#/ui:listActions.`);
  return (
    <Suspense fallback={null}>
      <Action def={def} onChanged={onChanged} />
    </Suspense>
  );
}

export interface ResourceListPageProps {
  def: ResourceDef;
  /** A desk's own buttons for each row (e.g. confirm documents, download), beside edit and delete. */
  rowActions?: (row: RecordData) => ReactNode;
  /** Width of the actions column for those buttons. */
  actionsWidth?: number;
}

export default function ResourceListPage({ def, rowActions, actionsWidth }: ResourceListPageProps) {
  const { resource, list } = def;
  // Row actions ask the record's status.
  useWorkflows(def);
  // Workflow statuses show by name in cells and filters.
  const schema = useMemo(() => withStatusTitles(def), [def]);
  const statusField = statusFilterField(def);
  const filterColumns = useMemo(() => [...list.columns, ...extraFilters(list)], [list]);
  usePageMeta({ title: resource.title, icon: resource.icon });
  const navigate = useNavigate();
  const ctl = useResourceList(def);
  const prefs = useColumnPreferences<SavedColumn[]>(`list.${def.name}`);
  const [gridApi, setGridApi] = useState<GridApi | undefined>();
  const [hidden, setHidden] = useState<Set<string> | undefined>();
  const [showFilters, setShowFilters] = useState(() => Object.keys(ctl.state.filters).length > 0);
  const listActions = list.actions ?? ['add', 'edit', 'delete'];
  const editPath = resource.routes?.edit?.path;
  // list.json "rowLink": a row opens another screen (the supplier's products tab, the quotation's appendix tab).
  const rowLink = list.rowLink;
  const newPath = resource.routes?.new?.path;
  const inDialog = def.form['ui:dialog'] === true;
  const toolbar = Array.isArray(def.form['ui:listActions']) ? (def.form['ui:listActions'] as string[]) : [];
  // The record open in the form dialog: {} adds one.
  const [dialog, setDialog] = useState<{ id?: string } | null>(null);

  const describe = useCallback(
    (row: RecordData) => fillTemplate(resource.recordTitle ?? '', row) || `${resource.singular ?? resource.title} ${String(row.id)}`,
    [resource],
  );
  const remover = useConfirmDelete<RecordData>(resource, (row) => row.id as number, {
    done: 'Elemento eliminato',
    question: (row) => `${list.deleteConfirm ?? msg.confirmDeleteText} (${describe(row)})`,
  });
  const ask = remover.ask;
  const actions = useMemo<RowActions>(
    () => ({
      describe,
      edit: rowLink
        ? (row) => navigate(fillTemplate(rowLink, row))
        : list.actions?.includes('edit') !== false && (inDialog || editPath) && can(def, 'read')
          ? (row) => (inDialog ? setDialog({ id: String(row.id) }) : navigate(generatePath(editPath!, { id: String(row.id) })))
          : undefined,
      editLabel: rowLink ? 'Apri' : undefined,
      extra: rowActions,
      width: actionsWidth,
      remove: list.actions?.includes('delete') !== false && can(def, 'delete') ? (row) => ask(row) : undefined,
      // Per row, what the record's status allows (the machine's update/delete events), as the server decides; a row
      // whose link has nothing to fill (no owner screen) offers no 'Apri'.
      allows: (row, action) =>
        can(def, action === 'remove' ? 'delete' : 'read', row) && (!rowLink || action !== 'edit' || fillTemplate(rowLink, row) !== ''),
    }),
    [def, describe, list.actions, inDialog, editPath, rowLink, navigate, ask, rowActions, actionsWidth],
  );

  // Until the user toggles a column: what the preferences say, else what list.json hides.
  const hiddenColumns =
    hidden ?? new Set(prefs.value ? prefs.value.filter((c) => c.hide).map((c) => c.colId) : list.columns.filter((c) => c.hide).map((c) => c.field));

  // The user's choices reach the grid, also those made while it was still loading (the plain table shows them at once).
  const saveColumns = prefs.save;
  useEffect(() => {
    if (!gridApi || !hidden) return;
    gridApi.setColumnsVisible(list.columns.filter((c) => !hidden.has(c.field)).map((c) => c.field), true);
    gridApi.setColumnsVisible([...hidden], false);
    saveColumns(savedColumnsOf(gridApi));
  }, [gridApi, hidden, list.columns, saveColumns]);

  const errorText = ctl.error instanceof ApiError || ctl.error instanceof Error ? ctl.error.message : undefined;
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        {list.search !== false && (
          <div className="flex-grow-1" style={{ maxWidth: 420 }}>
            <SearchBox value={ctl.state.search} onSearch={ctl.setSearch} label={`Cerca in ${resource.title}`} />
          </div>
        )}
        {filterColumns.some((c) => c.filter) && (
          <Button variant="outline-secondary" size="sm" onClick={() => setShowFilters((v) => !v)} aria-expanded={showFilters} aria-controls="list-filters">
            <Icon name="filter" size={16} /> Filtri
          </Button>
        )}
        <ColumnChooser
          columns={list.columns}
          hidden={hiddenColumns}
          onToggle={(field, visible) => {
            const next = new Set(hiddenColumns);
            if (visible) next.delete(field);
            else next.add(field);
            setHidden(next);
          }}
        />
        <SavedFilters listKey={def.name} state={ctl.state} onApply={ctl.applyFilters} predefined={def.list.savedFilters} defaultSort={def.list.defaultSort} />
        <ExportButton
          resource={resource}
          state={ctl.state}
          columns={() => gridApi?.getAllDisplayedColumns().map((c) => c.getColId()).filter((c) => !c.startsWith('__')) ?? list.columns.filter((c) => !c.hide).map((c) => c.field)}
        />
        <div className="ms-auto d-flex flex-wrap gap-2">
          {toolbar.map((name) => (
            <ListAction key={name} name={name} def={def} onChanged={() => void ctl.refresh()} />
          ))}
          {listActions.includes('add') && can(def, 'create') && (inDialog || newPath) && (
            <Button variant="primary" onClick={() => (inDialog ? setDialog({}) : navigate(newPath!))}>
              <Icon name="plus" size={16} /> {resource.feminine ? 'Nuova' : 'Nuovo'} {resource.singular ?? ''}
            </Button>
          )}
        </div>
      </div>
      {showFilters && (
        <div id="list-filters">
          <FilterPanel columns={filterColumns} schema={schema} filters={ctl.state.filters} onChange={ctl.setFilter} onClear={ctl.clearFilters} />
        </div>
      )}
      {statusField && (
        <StatusChips def={def} value={ctl.state.filters[statusField]} stamp={ctl.rows} onSelect={(value) => ctl.setFilter(statusField, value)} />
      )}
      {errorText && (
        <Notice variant="danger" role="alert">
          <span className="me-3">{errorText}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void ctl.refresh()}>
            Riprova
          </Button>
        </Notice>
      )}
      {/* A page that failed to load is not an empty list: no 'nessun elemento trovato', no '0 elementi'. */}
      {prefs.loaded && !errorText && (
        <ListGrid
          columns={list.columns}
          schema={schema}
          rows={ctl.rows}
          loading={ctl.loading}
          sort={ctl.state.sort}
          emptyText={list.emptyText ?? msg.emptyList}
          actions={actions}
          savedColumns={prefs.value}
          label={resource.title}
          onSortChange={ctl.setSort}
          onColumnsChange={prefs.save}
          onGridApi={setGridApi}
          hidden={hiddenColumns}
        />
      )}
      {!errorText && <Pager page={ctl.state.page} lastPage={ctl.lastPage} total={ctl.total} totalIsEstimate={ctl.totalIsEstimate} perPage={ctl.state.perPage} onPage={ctl.setPage} onPerPage={ctl.setPerPage} />}
      <ConfirmDialog {...remover.dialog} />
      {dialog && (
        <Suspense fallback={null}>
          <ResourceFormDialog
            key={dialog.id ?? 'nuovo'}
            def={def}
            id={dialog.id}
            size="lg"
            onClose={() => setDialog(null)}
            onSaved={() => {
              setDialog(null);
              void ctl.refresh();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

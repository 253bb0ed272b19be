// Generic list screen for any resource: toolbar, filters, AG Grid page, pager, delete confirmation.
import { useMemo, useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import type { GridApi } from 'ag-grid-community';
import Button from 'react-bootstrap/Button';
import { ApiError } from '../api/dataProvider.ts';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { fillTemplate } from '../lib/format.ts';
import { Icon } from '../lib/Icon.tsx';
import { useNotify } from '../lib/notify.tsx';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { ColumnChooser, FilterPanel, Pager, SearchBox } from './ListControls.tsx';
import { ResourceGrid, savedColumnsOf } from './ResourceGrid.tsx';
import type { RowActions, SavedColumn } from './ResourceGrid.tsx';
import { useColumnPreferences, useResourceList } from './useResourceList.ts';

export default function ResourceListPage({ def }: { def: ResourceDef }) {
  const { resource, list, can, schema } = def;
  usePageMeta({ title: resource.title, icon: resource.icon });
  const navigate = useNavigate();
  const notify = useNotify();
  const ctl = useResourceList(def);
  const prefs = useColumnPreferences<SavedColumn[]>(`list.${def.name}`);
  const [gridApi, setGridApi] = useState<GridApi | undefined>();
  const [hidden, setHidden] = useState<Set<string> | undefined>();
  const [toDelete, setToDelete] = useState<RecordData | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [showFilters, setShowFilters] = useState(() => Object.keys(ctl.state.filters).length > 0);
  const listActions = list.actions ?? ['add', 'edit', 'delete'];
  const editPath = resource.routes?.edit?.path;
  const newPath = resource.routes?.new?.path;

  const actions = useMemo<RowActions>(
    () => ({
      describe: (row) => fillTemplate(resource.recordTitle ?? '', row) || `${resource.singular ?? resource.title} ${String(row.id)}`,
      edit:
        list.actions?.includes('edit') !== false && editPath && (can.update || can.read)
          ? (row) => navigate(generatePath(editPath, { id: String(row.id) }))
          : undefined,
      remove: list.actions?.includes('delete') !== false && can.delete ? (row) => setToDelete(row) : undefined,
    }),
    [resource, list.actions, editPath, can.update, can.read, can.delete, navigate],
  );

  // Until the user toggles a column: what the preferences say, else what list.json hides.
  const hiddenColumns =
    hidden ?? new Set(prefs.value ? prefs.value.filter((c) => c.hide).map((c) => c.colId) : list.columns.filter((c) => c.hide).map((c) => c.field));

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      const result = await ctl.removeRow(toDelete);
      notify('success', result.message || 'Elemento eliminato');
      setToDelete(null);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setDeleting(false);
    }
  };

  const errorText = ctl.error instanceof ApiError || ctl.error instanceof Error ? ctl.error.message : undefined;
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <div className="flex-grow-1" style={{ maxWidth: 420 }}>
          <SearchBox value={ctl.state.search} onSearch={ctl.setSearch} label={`Cerca in ${resource.title}`} />
        </div>
        {list.columns.some((c) => c.filter) && (
          <Button variant="outline-secondary" size="sm" onClick={() => setShowFilters((v) => !v)} aria-expanded={showFilters} aria-controls="list-filters">
            <Icon name="filter" size={16} /> Filtri
          </Button>
        )}
        <ColumnChooser
          columns={list.columns}
          hidden={hiddenColumns}
          onToggle={(field, visible) => {
            gridApi?.setColumnsVisible([field], visible);
            const next = new Set(hiddenColumns);
            if (visible) next.delete(field);
            else next.add(field);
            setHidden(next);
            if (gridApi) prefs.save(savedColumnsOf(gridApi));
          }}
        />
        <div className="ms-auto">
          {listActions.includes('add') && can.create && newPath && (
            <Button variant="primary" onClick={() => navigate(newPath)}>
              <Icon name="plus" size={16} /> {resource.feminine ? 'Nuova' : 'Nuovo'} {resource.singular ?? ''}
            </Button>
          )}
        </div>
      </div>
      {showFilters && (
        <div id="list-filters">
          <FilterPanel columns={list.columns} schema={schema} filters={ctl.state.filters} onChange={ctl.setFilter} onClear={ctl.clearFilters} />
        </div>
      )}
      {errorText && (
        <Notice variant="danger" role="alert">
          {errorText}
        </Notice>
      )}
      {prefs.loaded && (
        <ResourceGrid
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
        />
      )}
      <Pager page={ctl.state.page} lastPage={ctl.lastPage} total={ctl.total} perPage={ctl.state.perPage} onPage={ctl.setPage} onPerPage={ctl.setPerPage} />
      <ConfirmDialog
        show={toDelete !== null}
        title={msg.confirmDelete}
        text={toDelete ? `${msg.confirmDeleteText} (${actions.describe(toDelete)})` : ''}
        confirmLabel="Elimina"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </>
  );
}

// The tabs of related rows a resource declares (resource.json "related", e.g. the customer card): other resources'
// generic lists narrowed to the record, the record's change history, a route's rows. The server applies permissions
// and row scope to every request; a tab whose resource the user may not list is not offered at all.
import { useMemo, useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import { callRoute } from '../api/dataProvider.ts';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { useNotify } from '../lib/notify.tsx';
import { useRoute } from '../api/hooks.ts';
import { can, useWorkflows } from '../lib/access.ts';
import { fillTemplate, formatDateTime } from '../lib/format.ts';
import { Notice, Spinner } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { JsonSchema, ListColumn, RecordData, ResourceDef } from '../types.ts';
import type { RelatedTab } from '../../shared/definitions/types.ts';
import { FirstPageTable } from './FirstPageTable.tsx';
import { modificaTesto, storicoRoutes, titoloVoce, useStoricoLabels, type StoricoModifica } from './storicoTesto.ts';
import { enumTitle } from '../../shared/enumTitle.ts';
import { Pager, SearchBox } from './ListControls.tsx';
import { ListGrid } from './ResourceListPage.tsx';
import type { RowActions } from './listColumns.ts';
import { useResourceList } from './useResourceList.ts';
import { withStatusTitles } from './StatusChips.tsx';

export default function RelatedTabPane({ tab, target, def, record, onRecord }: {
  tab: RelatedTab; target?: ResourceDef; def: ResourceDef; record: RecordData;
  /** Shows a record the tab wrote (a restore) in the form. */
  onRecord?: (record: RecordData) => void;
}) {
  const kind = tab.kind ?? 'list';
  if (kind === 'storico') return <StoricoTab def={def} record={record} title={tab.title} onRecord={onRecord} />;
  if (kind === 'tabella') return <RouteTable tab={tab} id={record.id!} />;
  return <RelatedList tab={tab} def={target!} record={record} />;
}

/** The record's value of each narrowing filter; null when one is empty (then there are no related rows to ask for). */
function fixedFilters(tab: RelatedTab, record: RecordData): Record<string, string> | null {
  const pairs = tab.field ? [[tab.field, 'id'] as const] : Object.entries(tab.match ?? {});
  const filters: Record<string, string> = {};
  for (const [theirs, ours] of pairs) {
    const value = record[ours];
    if (value === undefined || value === null || value === '') return null;
    filters[theirs] = String(value);
  }
  return filters;
}

function RelatedList({ tab, def, record }: { tab: RelatedTab; def: ResourceDef; record: RecordData }) {
  useWorkflows(def);
  const navigate = useNavigate();
  const schema = useMemo(() => withStatusTitles(def), [def]);
  const filters = fixedFilters(tab, record);
  const ctl = useResourceList(def, { embedded: { filters, sort: tab.sort } });
  // The column that names this record says nothing here.
  const columns = useMemo(() => def.list.columns.filter((c) => c.field !== tab.field), [def.list.columns, tab.field]);
  const hidden = useMemo(() => new Set(columns.filter((c) => c.hide).map((c) => c.field)), [columns]);
  const editPath = def.resource.routes?.edit?.path;
  const rowLink = def.list.rowLink;
  const actions = useMemo<RowActions>(
    () => ({
      describe: (row) => fillTemplate(def.resource.recordTitle ?? '', row) || `${def.resource.singular ?? def.resource.title} ${String(row.id)}`,
      edit: rowLink ? (row) => navigate(fillTemplate(rowLink, row)) : editPath && can(def, 'read') ? (row) => navigate(generatePath(editPath, { id: String(row.id) })) : undefined,
      editLabel: 'Apri',
      allows: (row, action) => action === 'edit' && (!rowLink || fillTemplate(rowLink, row) !== ''),
    }),
    [def, editPath, rowLink, navigate],
  );
  const errorText = ctl.error instanceof Error ? ctl.error.message : undefined;
  return (
    <section aria-label={tab.title} data-testid={`related-${def.name}`}>
      <div className="mb-2" style={{ maxWidth: 420 }}>
        <SearchBox value={ctl.state.search} onSearch={ctl.setSearch} label={`Cerca in ${tab.title}`} />
      </div>
      {errorText && (
        <Notice variant="danger" role="alert">
          {errorText}
        </Notice>
      )}
      <ListGrid
        columns={columns}
        schema={schema}
        rows={filters ? ctl.rows : []}
        loading={filters ? ctl.loading : false}
        sort={ctl.state.sort}
        emptyText={def.list.emptyText ?? msg.emptyList}
        actions={actions}
        label={tab.title}
        onSortChange={ctl.setSort}
        onColumnsChange={() => undefined}
        hidden={hidden}
      />
      {filters && <Pager page={ctl.state.page} lastPage={ctl.lastPage} total={ctl.total} totalIsEstimate={ctl.totalIsEstimate} perPage={ctl.state.perPage} onPage={ctl.setPage} onPerPage={ctl.setPerPage} />}
    </section>
  );
}

/** A route's answer still on its way, or refused: said the same way in every tab. */
function Pending({ error }: { error: unknown }) {
  if (!error) return <Spinner label={msg.loading} />;
  return (
    <Notice variant="danger" role="alert">
      {error instanceof Error ? error.message : msg.genericError}
    </Notice>
  );
}

const NO_SCHEMA: JsonSchema = { type: 'object', properties: {} };
const NO_ACTIONS: RowActions = { describe: (row) => String(row.id) };

/** A route's rows under the record (the customer's consents), with the declared columns. */
function RouteTable({ tab, id }: { tab: RelatedTab; id: string | number }) {
  const { data, error } = useRoute<{ data: RecordData[] }>(tab.path!, { id });
  if (error || !data) return <Pending error={error} />;
  return (
    <section aria-label={tab.title}>
      <FirstPageTable
        columns={tab.columns as ListColumn[]}
        schema={NO_SCHEMA}
        rows={data.data}
        loading={false}
        sort=""
        emptyText={msg.emptyList}
        actions={NO_ACTIONS}
        label={tab.title}
        onSortChange={() => undefined}
        onColumnsChange={() => undefined}
        hidden={new Set()}
      />
    </section>
  );
}

interface StoricoEntry {
  id: number | string;
  at: string;
  utente: { id: number; name: string } | null;
  origine?: string | null;
  azione?: string | null;
  evento?: string | null;
  modifiche: StoricoModifica[];
}

interface StoricoPage {
  data: StoricoEntry[];
  current_page: number;
  last_page: number;
  total: number;
}

const PER_PAGE = 20;
/** Changes a restore can undo: edits and earlier restores (a transition is undone by the machine, not by history). */
const RESTORABLE = new Set(['modifica', 'ripristino']);

/**
 * The record's change history (GET {api.path}/{id}/storico) as a timeline: who, when, and 'Campo: prima → dopo' with the
 * values as the form shows them; 'Ripristina' writes back the values before a change (the server's rules apply).
 */
export function StoricoTab({ def, record, title, onRecord }: { def: ResourceDef; record: RecordData; title: string; onRecord?: (record: RecordData) => void }) {
  const id = record.id!;
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [restoring, setRestoring] = useState<StoricoEntry | null>(null);
  const [busy, setBusy] = useState(false);
  const routes = storicoRoutes(def);
  const path = routes.timeline;
  const { data, error } = useRoute<StoricoPage>(path, { id, page, version: record.version }, {}, { query: { page, per_page: PER_PAGE } });
  const labels = useStoricoLabels(def, data?.data);
  // An event (a transition, or one the server records like a registry lookup) by its workflow label.
  const eventTitle = (type: string) => def.workflow?.meta.events[type]?.label ?? enumTitle(type);
  const mayRestore = Boolean(onRecord) && can(def, 'update', record);
  const restore = async () => {
    if (!restoring) return;
    setBusy(true);
    try {
      const answer = await callRoute<{ message: string; data: { model: RecordData } }>('POST', routes.ripristina, { id, entryId: restoring.id }, {
        body: { version: record.version },
      });
      notify('success', answer.message);
      // The record's new version is part of the timeline's key: showing it reads the timeline again.
      onRecord?.(answer.data.model);
      setPage(1);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(false);
      setRestoring(null);
    }
  };
  if (error || !data) return <Pending error={error} />;
  return (
    <section aria-label={title}>
      {data.data.length === 0 && <p className="text-body-secondary">Nessuna modifica registrata.</p>}
      <ol className="list-unstyled border-start ps-3" data-testid="storico">
        {data.data.map((entry) => (
          <li key={String(entry.id)} className="mb-3">
            <div className="small text-body-secondary">
              {formatDateTime(entry.at)} · {entry.utente?.name ?? (entry.origine === 'cliente' ? 'Cliente' : 'Sistema')}
              {entry.origine ? ` · ${titoloVoce('origine', entry.origine)}` : ''}
            </div>
            <div className="fw-semibold">{entry.evento ? eventTitle(entry.evento) : titoloVoce('azione', entry.azione) || 'Modifica'}</div>
            {entry.modifiche.length > 0 && (
              <ul className="mb-1">
                {entry.modifiche.map((m, i) => (
                  <li key={i}>{modificaTesto(def, m, labels)}</li>
                ))}
              </ul>
            )}
            {mayRestore && RESTORABLE.has(String(entry.azione)) && entry.modifiche.length > 0 && (
              <Button size="sm" variant="outline-secondary" onClick={() => setRestoring(entry)}>
                Ripristina
              </Button>
            )}
          </li>
        ))}
      </ol>
      {data.last_page > 1 && (
        <div className="d-flex gap-2 align-items-center">
          <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Più recenti
          </Button>
          <span className="small">
            Pagina {data.current_page} di {data.last_page}
          </span>
          <Button size="sm" variant="outline-secondary" disabled={page >= data.last_page} onClick={() => setPage(page + 1)}>
            Meno recenti
          </Button>
        </div>
      )}
      <ConfirmDialog
        show={restoring !== null}
        title="Ripristina"
        text={`Ripristinare i valori precedenti alla modifica del ${restoring ? formatDateTime(restoring.at) : ''}?`}
        confirmLabel="Ripristina"
        variant="warning"
        busy={busy}
        onConfirm={() => void restore()}
        onCancel={() => setRestoring(null)}
      />
    </section>
  );
}

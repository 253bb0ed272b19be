// 'collaboratore-clienti' page, the Clienti tab of a collaborator (spec 000 §2.6): its customers, with the passive commission edited in place.
import { useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { isApiError, getOne } from '../../api/dataProvider.ts';
import type { ListParams } from '../../api/dataProvider.ts';
import { useGetList } from '../../api/hooks.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { can } from '../../lib/access.ts';
import { fillTemplate } from '../../lib/format.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { Icon } from '../../lib/Icon.tsx';
import { useNotify } from '../../lib/notify.tsx';
import { RowActions } from '../../lib/RowActions.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { useConfirmDelete } from '../../lib/useConfirmDelete.ts';
import { msg } from '../../messages.ts';
import { Pager, SearchBox } from '../../renderer/ListControls.tsx';
import type { Page, RecordData } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';
import { PercentInput } from './CellInputs.tsx';
import { putPatch, useRowSaves } from './useRowSaves.ts';

const PER_PAGE = 15;
/** Typing in a commission waits this long before saving, as the mandate rows do. */
const SAVE_DELAY_MS = 1000;

export default function ClientiCollaboratore({ id }: CustomPageProps) {
  const { definitions } = useDefinitions();
  const navigate = useNavigate();
  const notify = useNotify();
  const clienti = findResource(definitions, 'cliente');
  const [params, setParams] = useState<ListParams>({ page: 1, perPage: PER_PAGE, sort: 'cognome,nome', search: '' });
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const list = useGetList(clienti?.resource, id ? { ...params, filters: { collaboratore_id: id } } : null, {
    keepPreviousData: true,
    // Rows of a (re)loaded page save from the version the server holds.
    onSuccess: (loaded) => {
      for (const row of loaded.data) saves.setVersion(row.id as number, row.version);
    },
  });
  const page = list.data;
  const error = list.error instanceof Error ? list.error.message : list.error ? msg.genericError : undefined;
  /** The cached page with one row replaced, without asking the server again. */
  const replaceRow = (rowId: unknown, next: (row: RecordData) => RecordData) =>
    void list.mutate((current: Page | undefined) => current && { ...current, data: current.data.map((row) => (row.id === rowId ? next(row) : row)) }, { revalidate: false });

  const saves = useRowSaves({
    delay: SAVE_DELAY_MS,
    send: (rowId, patch, version) => putPatch(clienti!.resource)(rowId, patch, version),
    onSaved: (rowId, saved) => {
      replaceRow(rowId, (row) => ({ ...row, ...saved }));
      setRowErrors(({ [String(rowId)]: _, ...rest }) => rest);
    },
    onError: (rowId, err) => {
      const message = isApiError(err, 'VALIDATION') ? (err.errors.perc_provvigione_passiva?.[0] ?? err.message) : err instanceof Error ? err.message : msg.genericError;
      setRowErrors((all) => ({ ...all, [String(rowId)]: message }));
      notify('danger', message);
      // After a conflict the row shows what the server holds, with its new version.
      if (isApiError(err, 'STALE_VERSION') && clienti) {
        getOne(clienti.resource, rowId)
          .then((fresh) => {
            saves.setVersion(rowId, fresh.version, { force: true });
            replaceRow(rowId, () => fresh);
          })
          .catch(() => undefined);
      }
    },
  });

  const describe = (row: RecordData) => fillTemplate(clienti?.resource.recordTitle ?? '{id}', row) || `Cliente ${String(row.id)}`;
  const remover = useConfirmDelete<RecordData>(clienti?.resource, (row) => row.id as number, {
    done: 'Cliente eliminato',
    question: (row) => `${msg.confirmDeleteText} (${describe(row)})`,
    before: (row) => saves.cancel(row.id as number),
  });

  const changeParams = (next: ListParams) => {
    // Rows of the page being left are saved before the next page shows.
    saves.flushAll();
    setParams(next);
  };

  if (!clienti) {
    return (
      <Notice variant="secondary" role="status">
        {msg.noPermission}
      </Notice>
    );
  }
  const editPath = clienti.resource.routes?.edit?.path;
  const newPath = clienti.resource.routes?.new?.path;


  return (
    <section aria-labelledby="clienti-collaboratore-title">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 id="clienti-collaboratore-title" className="h5 mb-0 me-auto">
          Clienti del collaboratore
        </h2>
        {can(clienti, 'create') && newPath && (
          <Button variant="primary" onClick={() => navigate(newPath)}>
            <Icon name="plus" size={16} /> Nuovo Cliente
          </Button>
        )}
      </div>
      <p className="small text-body-secondary" id="nota-provvigione-passiva">
        La percentuale di provvigione passiva è una sola per cliente: il valore inserito vale per tutti i collaboratori del cliente.
      </p>
      <div className="mb-2" style={{ maxWidth: 420 }}>
        <SearchBox value={params.search ?? ''} onSearch={(search) => changeParams({ ...params, search, page: 1 })} label="Cerca tra i clienti del collaboratore" />
      </div>
      {error && (
        <Notice variant="danger" role="alert">
          {error}
        </Notice>
      )}
      {!page ? (
        !error && <Spinner label={msg.loading} />
      ) : (
        <>
          <div className="table-responsive">
            <Table size="sm" hover className="align-middle" aria-labelledby="clienti-collaboratore-title">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Azioni</span>
                  </th>
                  <th scope="col">Cliente</th>
                  <th scope="col">Codice Fiscale / P. IVA</th>
                  <th scope="col">Email</th>
                  <th scope="col">% Provvigione passiva</th>
                </tr>
              </thead>
              <tbody>
                {page.data.length === 0 && (
                  <tr>
                    <td colSpan={5} className="text-center text-body-secondary py-3">
                      {msg.emptyList}
                    </td>
                  </tr>
                )}
                {page.data.map((row) => {
                  const name = describe(row);
                  return (
                    <tr key={String(row.id)} data-testid="cliente-row">
                      <td className="text-nowrap" style={{ width: 90 }}>
                        <RowActions
                          name={name}
                          onEdit={editPath && can(clienti, 'read', row) ? () => navigate(generatePath(editPath, { id: String(row.id) })) : undefined}
                          onDelete={can(clienti, 'delete', row) ? () => remover.ask(row) : undefined}
                        />
                      </td>
                      <th scope="row" className="fw-normal">
                        {name}
                      </th>
                      <td>{String(row.cf ?? row.piva ?? '')}</td>
                      <td>{String(row.email ?? '')}</td>
                      <td style={{ width: 180 }}>
                        <PercentInput
                          id={`passiva-${String(row.id)}`}
                          label={`% Provvigione passiva ${name}`}
                          value={row.perc_provvigione_passiva}
                          optional
                          disabled={!can(clienti, 'update', row)}
                          serverError={rowErrors[String(row.id)]}
                          onValue={(value) => saves.edit(row.id as number, { perc_provvigione_passiva: value })}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          </div>
          <Pager
            page={params.page}
            lastPage={page.last_page}
            total={page.total}
            totalIsEstimate={page.total_is_estimate === true}
            perPage={params.perPage}
            onPage={(n) => changeParams({ ...params, page: n })}
            onPerPage={(n) => changeParams({ ...params, perPage: n, page: 1 })}
          />
        </>
      )}
      <ConfirmDialog {...remover.dialog} />
    </section>
  );
}

// 'prodotti-mandato' page, the Prodotti tab of a supplier (spec 000 §2.7-§2.8): mandate rows per contractual company, edited in place.
import { Fragment, useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useSearchParams } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Table from 'react-bootstrap/Table';
import { isApiError, create, getOne, savedRecord } from '../../api/dataProvider.ts';
import { useGetList, useRoute } from '../../api/hooks.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { can } from '../../lib/access.ts';
import { RowActions } from '../../lib/RowActions.tsx';
import { useConfirmDelete } from '../../lib/useConfirmDelete.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { Icon } from '../../lib/Icon.tsx';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import { ResourceFormDialog } from '../../renderer/ResourceFormDialog.tsx';
import type { RecordData } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';
import { DateInput, PercentInput } from './CellInputs.tsx';
import type { Patch, RowId } from './rowSaves.ts';
import { putPatch, useRowSaves } from './useRowSaves.ts';

/** Mandate-row edits wait this long after the last keystroke (spec 000 §7). */
export const MANDATE_SAVE_DELAY_MS = 1000;
const COMPANY_PARAM = 'compagnia_contrattuale';

interface Option {
  id: number;
  label: string;
  settore_id?: number;
}

type Filters = { nome: string; ramo: string; settore: string; attivo: string };
const NO_FILTERS: Filters = { nome: '', ramo: '', settore: '', attivo: '' };

/** Server messages of a row, by field, until the user edits that field again. */
type RowErrors = Record<string, string>;

/** A picker of one of the options by id ('' when none), the first entry saying what none means. */
function OptionSelect({ label, none, options, value, onChange, disabled, style }: {
  label: string; none: string; options: Option[]; value: string; onChange: (value: string) => void; disabled?: boolean; style?: CSSProperties;
}) {
  return (
    <Form.Select size="sm" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled} style={style}>
      <option value="">{none}</option>
      {options.map((o) => (
        <option key={o.id} value={String(o.id)}>
          {o.label}
        </option>
      ))}
    </Form.Select>
  );
}

const idText = (id: unknown) => (id === null || id === undefined ? '' : String(id));

const OPTION_ROUTES = { settori: '/api/autocomplete/settore', rami: '/api/autocomplete/ramo' } as const;

function useOptions(path: string): Option[] {
  return useRoute<{ data: Option[] }>(path, {}).data?.data ?? [];
}

export default function ProdottiMandato({ id, record }: CustomPageProps) {
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const prodotti = findResource(definitions, 'categoria_prodotto');
  const contrattuali = findResource(definitions, 'compagnia_contrattuale');
  const [query, setQuery] = useSearchParams();
  const companyId = query.get(COMPANY_PARAM) ?? '';
  const [rows, setRows] = useState<RecordData[]>();
  const [errors, setErrors] = useState<Record<string, RowErrors>>({});
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [expanded, setExpanded] = useState<Set<RowId>>(new Set());
  const [newName, setNewName] = useState('');
  const [newError, setNewError] = useState<string>();
  const [adding, setAdding] = useState(false);
  const [addCompany, setAddCompany] = useState(false);
  const settori = useOptions(OPTION_ROUTES.settori);
  const rami = useOptions(OPTION_ROUTES.rami);
  const canEdit = can(prodotti, 'update');
  const companiesAnswer = useGetList(contrattuali?.resource, { page: 1, perPage: -1, sort: 'nome' });
  const companies = companiesAnswer.data?.data;
  const rowsAnswer = useGetList(
    prodotti?.resource,
    id && companyId ? { page: 1, perPage: -1, sort: 'nome', filters: { compagnia_fornitore_id: id, compagnia_contrattuale_id: companyId } } : null,
  );
  const failure = companiesAnswer.error ?? rowsAnswer.error;
  const loadError = failure ? (failure instanceof Error ? failure.message : msg.genericError) : undefined;

  const saves = useRowSaves({
    delay: MANDATE_SAVE_DELAY_MS,
    send: (rowId, patch, version) => putPatch(prodotti!.resource)(rowId, patch, version),
    onSaved: (rowId, saved, patch) => {
      setRows((list) => list?.map((row) => (row.id === rowId ? { ...row, ...saved } : row)));
      setErrors((all) => ({ ...all, [rowId]: Object.fromEntries(Object.entries(all[rowId] ?? {}).filter(([field]) => !(field in patch))) }));
    },
    onError: (rowId, error) => {
      if (isApiError(error, 'VALIDATION')) {
        setErrors((all) => ({ ...all, [rowId]: { ...all[rowId], ...Object.fromEntries(Object.entries(error.errors).map(([f, m]) => [f, m[0]])) } }));
        notify('danger', error.message);
        return;
      }
      notify('danger', error instanceof Error ? error.message : msg.genericError);
      // After a conflict or a failure the screen shows what the server holds.
      if (prodotti) {
        getOne(prodotti.resource, rowId)
          .then((fresh) => {
            saves.setVersion(rowId, fresh.version, { force: true });
            setRows((list) => list?.map((row) => (row.id === rowId ? fresh : row)));
          })
          .catch(() => undefined);
      }
    },
  });

  // Choosing a company clears the category being typed and the filters (spec 000 §2.8); rows of the company being left
  // are saved before the next ones show.
  useEffect(() => {
    setNewName('');
    setNewError(undefined);
    setFilters(NO_FILTERS);
    setRows(undefined);
    return () => saves.flushAll();
  }, [id, companyId, saves]);

  // The rows are edited in place: each answer of the server (SWR keeps the same object while nothing changed) replaces
  // them, with the versions the next saves send.
  const fresh = rowsAnswer.data?.data;
  useEffect(() => {
    if (!fresh) return;
    for (const row of fresh) saves.setVersion(row.id as number, row.version);
    setRows(fresh);
  }, [fresh, saves]);

  const chooseCompany = (value: string) => {
    const next = new URLSearchParams(query);
    if (value) next.set(COMPANY_PARAM, value);
    else next.delete(COMPANY_PARAM);
    setQuery(next, { replace: true });
  };

  const edit = (row: RecordData, patch: Patch, immediate = false) => {
    const rowId = row.id as number;
    setRows((list) => list?.map((r) => (r.id === rowId ? { ...r, ...patch } : r)));
    setErrors((all) => ({ ...all, [rowId]: Object.fromEntries(Object.entries(all[rowId] ?? {}).filter(([field]) => !(field in patch))) }));
    saves.edit(rowId, patch, { immediate });
  };

  const addCategory = async () => {
    const nome = newName.trim();
    if (!nome || !prodotti || !id || !companyId) return;
    setAdding(true);
    setNewError(undefined);
    try {
      // The server starts the row at commission 0 and today's date (spec 000 §2.8).
      const saved = savedRecord(await create(prodotti.resource, { nome, compagnia_fornitore_id: Number(id), compagnia_contrattuale_id: Number(companyId) }));
      saves.setVersion(saved.id as number, saved.version);
      setRows((list) => [...(list ?? []), saved].sort((a, b) => String(a.nome).localeCompare(String(b.nome), 'it')));
      setNewName('');
      notify('success', `Categoria «${nome}» aggiunta`);
    } catch (err) {
      if (isApiError(err, 'VALIDATION')) setNewError(Object.values(err.errors)[0]?.[0] ?? err.message);
      else notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setAdding(false);
    }
  };

  const remover = useConfirmDelete<RecordData>(prodotti?.resource, (row) => row.id as number, {
    done: 'Prodotto eliminato',
    question: (row) => `Eliminare il prodotto a mandato «${String(row.nome)}»? L’operazione non si può annullare.`,
    before: (row) => saves.cancel(row.id as number),
    after: (row) => setRows((list) => list?.filter((r) => r.id !== row.id)),
  });

  const visibleRows = useMemo(
    () =>
      (rows ?? []).filter(
        (row) =>
          (!filters.nome || String(row.nome ?? '').toLowerCase().includes(filters.nome.trim().toLowerCase())) &&
          (!filters.ramo || String(row.ramo_id ?? '') === filters.ramo) &&
          (!filters.settore || String(row.settore_id ?? '') === filters.settore) &&
          (!filters.attivo || String(row.mandato_attivo === true) === filters.attivo),
      ),
    [rows, filters],
  );

  if (!prodotti || !contrattuali) {
    return (
      <Notice variant="secondary" role="status">
        {msg.noPermission}
      </Notice>
    );
  }
  if (!id) return null;

  const selected = companies?.find((c) => String(c.id) === companyId);
  const ramoLabel = (ramoId: unknown) => rami.find((r) => r.id === ramoId)?.label ?? '';

  return (
    <section aria-labelledby="prodotti-mandato-title">
      <h2 id="prodotti-mandato-title" className="h5 mb-3">
        Prodotti a mandato
      </h2>
      {loadError && (
        <Notice variant="danger" role="alert">
          {loadError}
        </Notice>
      )}
      <div className="row g-3 align-items-end mb-3">
        <Form.Group className="col-12 col-md-4" controlId="prodotti-fornitore">
          <Form.Label>Fornitore</Form.Label>
          <Form.Control value={String(record?.ragioneSociale ?? '')} disabled />
        </Form.Group>
        <Form.Group className="col-12 col-md-8" controlId="prodotti-compagnia">
          <Form.Label>Compagnia Contrattuale</Form.Label>
          <InputGroup>
            <Form.Select value={companyId} onChange={(e) => chooseCompany(e.target.value)} disabled={!companies}>
              <option value="">{companies ? 'Seleziona una compagnia contrattuale…' : msg.loading}</option>
              {(companies ?? []).map((c) => (
                <option key={String(c.id)} value={String(c.id)}>
                  {String(c.nome)}
                  {c.attivo === false ? ' (non attiva)' : ''}
                </option>
              ))}
            </Form.Select>
            {can(contrattuali, 'create') && (
              <Button variant="outline-primary" onClick={() => setAddCompany(true)}>
                <Icon name="plus" size={16} /> Aggiungi Nuova Compagnia Contrattuale
              </Button>
            )}
          </InputGroup>
        </Form.Group>
      </div>

      {!companyId ? (
        <Notice variant="secondary" role="status" testId="prodotti-empty">
          Seleziona una compagnia contrattuale per vedere e gestire i prodotti a mandato.
        </Notice>
      ) : (
        <>
          {can(prodotti, 'create') && (
            <fieldset className="border rounded p-3 mb-3">
              <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">Aggiungi categoria / prodotto a {String(selected?.nome ?? '')}</legend>
              <Form
                className="d-flex flex-wrap gap-2 align-items-start mt-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  void addCategory();
                }}
              >
                <div className="flex-grow-1" style={{ maxWidth: 480 }}>
                  <Form.Label htmlFor="nuova-categoria" className="visually-hidden">
                    Nome della nuova categoria
                  </Form.Label>
                  <Form.Control
                    id="nuova-categoria"
                    placeholder="Nome della nuova categoria"
                    value={newName}
                    maxLength={255}
                    isInvalid={Boolean(newError)}
                    aria-describedby={newError ? 'nuova-categoria__error' : undefined}
                    onChange={(e) => {
                      setNewName(e.target.value);
                      setNewError(undefined);
                    }}
                  />
                  {newError && (
                    <div id="nuova-categoria__error" className="invalid-feedback d-block">
                      {newError}
                    </div>
                  )}
                </div>
                <Button type="submit" variant="primary" disabled={!newName.trim() || adding}>
                  <Icon name="plus" size={16} /> Aggiungi categoria
                </Button>
              </Form>
            </fieldset>
          )}

          {!rows ? (
            <Spinner label={msg.loading} />
          ) : (
            <div className="table-responsive">
              <Table size="sm" className="align-middle mandate-table" aria-label={`Prodotti a mandato di ${String(selected?.nome ?? '')}`}>
                <thead>
                  <tr>
                    <th scope="col" style={{ width: 40 }}>
                      <span className="visually-hidden">Dettagli</span>
                    </th>
                    <th scope="col">Categoria / Prodotto</th>
                    <th scope="col">% Provvigione</th>
                    <th scope="col">Ramo</th>
                    <th scope="col">Settore</th>
                    <th scope="col">Inizio Mandato</th>
                    <th scope="col">Attivo</th>
                    <th scope="col">
                      <span className="visually-hidden">Azioni</span>
                    </th>
                  </tr>
                  <tr className="filters">
                    <td />
                    <td>
                      <Form.Control
                        size="sm"
                        aria-label="Filtra per categoria"
                        placeholder="Filtra…"
                        value={filters.nome}
                        onChange={(e) => setFilters({ ...filters, nome: e.target.value })}
                      />
                    </td>
                    <td />
                    <td>
                      <OptionSelect label="Filtra per ramo" none="Tutti" options={rami} value={filters.ramo} onChange={(ramo) => setFilters({ ...filters, ramo })} />
                    </td>
                    <td>
                      <OptionSelect label="Filtra per settore" none="Tutti" options={settori} value={filters.settore} onChange={(settore) => setFilters({ ...filters, settore })} />
                    </td>
                    <td />
                    <td>
                      <Form.Select size="sm" aria-label="Filtra per stato" value={filters.attivo} onChange={(e) => setFilters({ ...filters, attivo: e.target.value })}>
                        <option value="">Tutti</option>
                        <option value="true">Attivi</option>
                        <option value="false">Non attivi</option>
                      </Form.Select>
                    </td>
                    <td />
                  </tr>
                </thead>
                <tbody>
                  {visibleRows.length === 0 && (
                    <tr>
                      <td colSpan={8} className="text-center text-body-secondary py-3">
                        {rows.length ? 'Nessun prodotto corrisponde ai filtri.' : msg.emptyList}
                      </td>
                    </tr>
                  )}
                  {visibleRows.map((row) => {
                    const rowId = row.id as number;
                    const name = String(row.nome ?? '');
                    const active = row.mandato_attivo === true;
                    const rowErrors = errors[rowId] ?? {};
                    const open = expanded.has(rowId);
                    const rowRami = rami.filter((r) => !row.settore_id || r.settore_id === row.settore_id);
                    return (
                      <Fragment key={rowId}>
                        <tr data-testid="mandate-row" data-row-id={rowId}>
                          <td>
                            <Button
                              size="sm"
                              variant="link"
                              className="p-0"
                              aria-expanded={open}
                              aria-controls={`dettagli-${rowId}`}
                              aria-label={`${open ? 'Chiudi' : 'Apri'} i dettagli di ${name}`}
                              onClick={() => {
                                const next = new Set(expanded);
                                if (open) next.delete(rowId);
                                else next.add(rowId);
                                setExpanded(next);
                              }}
                            >
                              <span aria-hidden="true">{open ? '▾' : '▸'}</span>
                            </Button>
                          </td>
                          <th scope="row" className="fw-normal" style={{ minWidth: 160 }}>
                            {name}
                          </th>
                          <td>
                            <PercentInput
                              id={`perc-${rowId}`}
                              label={`% Provvigione ${name}`}
                              value={row.percentuale_provvigione_attiva}
                              disabled={!canEdit || !active}
                              serverError={rowErrors.percentuale_provvigione_attiva}
                              onValue={(value) => edit(row, { percentuale_provvigione_attiva: value })}
                            />
                          </td>
                          <td>
                            <OptionSelect
                              label={`Ramo ${name}`}
                              none="—"
                              disabled={!canEdit}
                              style={{ maxWidth: 260 }}
                              // A branch outside the chosen sector stays listed while it is the row's value.
                              options={[...rowRami, ...rami.filter((r) => r.id === row.ramo_id && !rowRami.includes(r))]}
                              value={idText(row.ramo_id)}
                              onChange={(ramo) => edit(row, { ramo_id: ramo ? Number(ramo) : null }, true)}
                            />
                            {rowErrors.ramo_id && <div className="invalid-feedback d-block">{rowErrors.ramo_id}</div>}
                          </td>
                          <td>
                            <OptionSelect
                              label={`Settore ${name}`}
                              none="—"
                              disabled={!canEdit}
                              style={{ minWidth: 110 }}
                              options={settori}
                              value={idText(row.settore_id)}
                              onChange={(value) => {
                                const settore = value ? Number(value) : null;
                                const patch: Patch = { settore_id: settore };
                                // A branch of another sector no longer fits the row.
                                const ramo = rami.find((r) => r.id === row.ramo_id);
                                if (settore && ramo && ramo.settore_id !== settore) patch.ramo_id = null;
                                edit(row, patch, true);
                              }}
                            />
                          </td>
                          <td>
                            <DateInput
                              id={`inizio-${rowId}`}
                              label={`Inizio Mandato ${name}`}
                              value={row.data_inizio_mandato}
                              disabled={!canEdit || !active}
                              serverError={rowErrors.data_inizio_mandato}
                              onValue={(value) => edit(row, { data_inizio_mandato: value })}
                            />
                          </td>
                          <td>
                            <Form.Check
                              type="switch"
                              id={`attivo-${rowId}`}
                              aria-label={`Mandato attivo ${name}`}
                              checked={active}
                              disabled={!canEdit}
                              onChange={(e) => edit(row, { mandato_attivo: e.target.checked }, true)}
                            />
                          </td>
                          <td>
                            <RowActions name={name} onDelete={can(prodotti, 'delete', row) ? () => remover.ask(row) : undefined} />
                          </td>
                        </tr>
                        {open && (
                          <tr id={`dettagli-${rowId}`} className="table-light">
                            <td />
                            <td colSpan={7}>
                              <div className="d-flex flex-wrap gap-4 align-items-center py-1">
                                <Form.Group controlId={`tipo-${rowId}`} className="d-flex align-items-center gap-2">
                                  <Form.Label className="mb-0 small">Tipo Prodotto</Form.Label>
                                  <Form.Control
                                    size="sm"
                                    defaultValue={String(row.mandatabile_type ?? '')}
                                    maxLength={100}
                                    disabled={!canEdit}
                                    onChange={(e) => edit(row, { mandatabile_type: e.target.value.trim() || null })}
                                    style={{ width: 220 }}
                                  />
                                </Form.Group>
                                <Form.Check
                                  type="switch"
                                  id={`prodotto-attivo-${rowId}`}
                                  label="Prodotto attivo"
                                  checked={row.attivo === true}
                                  disabled={!canEdit}
                                  onChange={(e) => edit(row, { attivo: e.target.checked }, true)}
                                />
                                <span className="small text-body-secondary">
                                  Ramo: {ramoLabel(row.ramo_id) || '—'} · Id {rowId}
                                </span>
                              </div>
                            </td>
                          </tr>
                        )}
                      </Fragment>
                    );
                  })}
                </tbody>
              </Table>
            </div>
          )}
        </>
      )}

      {addCompany && (
        <ResourceFormDialog
          def={contrattuali}
          maxWidth={590}
          onClose={() => setAddCompany(false)}
          onSaved={(saved) => {
            setAddCompany(false);
            void companiesAnswer.mutate().then(() => chooseCompany(String(saved.id)));
          }}
        />
      )}
      <ConfirmDialog {...remover.dialog} />
    </section>
  );
}

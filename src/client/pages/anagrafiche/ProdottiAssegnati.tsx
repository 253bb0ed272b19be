// 'collaboratore-prodotti' page, the Prodotti Assegnati tab: the mandate products assigned to a collaborator, named through their mandate rows.
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useGetList, useGetMany, useInvalidate } from '../../api/hooks.ts';
import { can } from '../../lib/access.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { Icon } from '../../lib/Icon.tsx';
import { RowActions } from '../../lib/RowActions.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { useConfirmDelete } from '../../lib/useConfirmDelete.ts';
import { msg } from '../../messages.ts';
import { ResourceFormDialog } from '../../renderer/ResourceFormDialog.tsx';
import type { RecordData, ResourceDef } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';

const percent = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });

interface Line {
  assegnato: RecordData;
  prodotto?: RecordData;
  fornitore?: RecordData;
  contrattuale?: RecordData;
}

/** The resource to read names from, only when the user may list it (otherwise the rows show ids). */
const listable = (def: ResourceDef | undefined) => (can(def, 'list') ? def!.resource : undefined);

export default function ProdottiAssegnati({ id }: CustomPageProps) {
  const { definitions } = useDefinitions();
  const assegnati = findResource(definitions, 'prodotto_assegnato');
  const prodotti = findResource(definitions, 'categoria_prodotto');
  const fornitori = findResource(definitions, 'compagnia');
  const contrattuali = findResource(definitions, 'compagnia_contrattuale');
  const [dialog, setDialog] = useState<{ id?: string } | null>(null);
  const invalidate = useInvalidate();

  const list = useGetList(assegnati?.resource, id ? { page: 1, perPage: -1, sort: 'id', filters: { collaboratore_id: id } } : null);
  const prodottiById = useGetMany(listable(prodotti), list.data?.data.map((r) => r.categoria_prodotto_id));
  const products = prodottiById.data ? [...prodottiById.data.values()] : undefined;
  const fornitoriById = useGetMany(listable(fornitori), products?.map((r) => r.compagnia_fornitore_id));
  const contrattualiById = useGetMany(listable(contrattuali), products?.map((r) => r.compagnia_contrattuale_id));
  const failure = list.error ?? prodottiById.error ?? fornitoriById.error ?? contrattualiById.error;
  const error = failure instanceof Error ? failure.message : failure ? msg.genericError : undefined;
  // The table shows once the names it needs are in (or cannot be read by this user).
  const settled = (reader: { data?: unknown; error?: unknown }, wanted: unknown) => !wanted || reader.data !== undefined || reader.error !== undefined;
  const ready =
    list.data !== undefined &&
    settled(prodottiById, listable(prodotti)) &&
    (!products?.length || (settled(fornitoriById, listable(fornitori)) && settled(contrattualiById, listable(contrattuali))));
  const lines = useMemo<Line[] | undefined>(
    () =>
      ready
        ? list.data!.data.map((assegnato) => {
            const prodotto = prodottiById.data?.get(assegnato.categoria_prodotto_id);
            return {
              assegnato,
              prodotto,
              fornitore: prodotto && fornitoriById.data?.get(prodotto.compagnia_fornitore_id),
              contrattuale: prodotto && contrattualiById.data?.get(prodotto.compagnia_contrattuale_id),
            };
          })
        : undefined,
    [ready, list.data, prodottiById.data, fornitoriById.data, contrattualiById.data],
  );

  const productName = (line: Line) => (line.prodotto ? String(line.prodotto.nome) : `Prodotto n. ${String(line.assegnato.categoria_prodotto_id)}`);
  const remover = useConfirmDelete<Line>(assegnati?.resource, (line) => line.assegnato.id as number, {
    done: 'Assegnazione eliminata',
    question: (line) => `Togliere al collaboratore il prodotto «${productName(line)}»?`,
  });

  if (!assegnati) {
    return (
      <Notice variant="secondary" role="status">
        {msg.noPermission}
      </Notice>
    );
  }
  const settori = new Map(
    (((prodotti?.schema.properties?.settore_id?.oneOf ?? []) as Array<{ const: unknown; title?: string }>) ?? []).map((o) => [o.const, o.title ?? String(o.const)]),
  );

  return (
    <section aria-labelledby="prodotti-assegnati-title">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 id="prodotti-assegnati-title" className="h5 mb-0 me-auto">
          Prodotti assegnati al collaboratore
        </h2>
        {can(assegnati, 'create') && (
          <Button variant="primary" onClick={() => setDialog({})}>
            <Icon name="plus" size={16} /> Assegna prodotto
          </Button>
        )}
      </div>
      {error && (
        <Notice variant="danger" role="alert">
          {error}
        </Notice>
      )}
      {!lines ? (
        !error && <Spinner label={msg.loading} />
      ) : lines.length === 0 ? (
        <Notice variant="secondary" role="status">
          Nessun prodotto a mandato assegnato a questo collaboratore.
        </Notice>
      ) : (
        <div className="table-responsive">
          <Table size="sm" hover className="align-middle" aria-labelledby="prodotti-assegnati-title">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Azioni</span>
                </th>
                <th scope="col">Prodotto</th>
                <th scope="col">Fornitore</th>
                <th scope="col">Compagnia Contrattuale</th>
                <th scope="col">Settore</th>
                <th scope="col">% Provvigione</th>
                <th scope="col">Attivo</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => {
                const name = productName(line);
                return (
                  <tr key={String(line.assegnato.id)} data-testid="prodotto-assegnato">
                    <td className="text-nowrap" style={{ width: 90 }}>
                      <RowActions
                        name={name}
                        onEdit={can(assegnati, 'read', line.assegnato) ? () => setDialog({ id: String(line.assegnato.id) }) : undefined}
                        onDelete={can(assegnati, 'delete', line.assegnato) ? () => remover.ask(line) : undefined}
                      />
                    </td>
                    <th scope="row" className="fw-normal">
                      {name}
                    </th>
                    <td>{line.fornitore ? String(line.fornitore.ragioneSociale) : ''}</td>
                    <td>{line.contrattuale ? String(line.contrattuale.nome) : ''}</td>
                    <td>{line.prodotto ? (settori.get(line.prodotto.settore_id) ?? '') : ''}</td>
                    <td>{line.assegnato.perc_provvigione === null || line.assegnato.perc_provvigione === undefined ? '' : `${percent.format(Number(line.assegnato.perc_provvigione))}%`}</td>
                    <td>{line.assegnato.attivo === true ? 'Sì' : 'No'}</td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </div>
      )}
      {dialog && (
        <ResourceFormDialog
          key={dialog.id ?? 'nuovo'}
          def={assegnati}
          id={dialog.id}
          preset={{ collaboratore_id: Number(id) }}
          maxWidth={590}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void invalidate(assegnati.resource);
          }}
        />
      )}
      <ConfirmDialog {...remover.dialog} />
    </section>
  );
}

// 'collaboratore-prodotti' page, the Prodotti Assegnati tab: the mandate products assigned to a collaborator, named through their mandate rows.
import { useCallback, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { getList } from '../../api/dataProvider.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { Icon } from '../../lib/Icon.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import { ResourceFormDialog } from '../../renderer/ResourceFormDialog.tsx';
import type { RecordData, ResourceDef } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';
import { useConfirmedDelete } from './useConfirmedDelete.ts';

const percent = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 });

/** Records of a resource by id, in one call (filter[id]=1,2,3); nothing when the user may not list it. */
async function byIds(def: ResourceDef | undefined, ids: unknown[]): Promise<Map<unknown, RecordData>> {
  const wanted = [...new Set(ids.filter((v) => v !== null && v !== undefined))];
  if (!def?.can.list || !wanted.length) return new Map();
  const page = await getList(def.resource, { page: 1, perPage: -1, filters: { id: wanted.join(',') } });
  return new Map(page.data.map((row) => [row.id, row]));
}

interface Line {
  assegnato: RecordData;
  prodotto?: RecordData;
  fornitore?: RecordData;
  contrattuale?: RecordData;
}

export default function ProdottiAssegnati({ id }: CustomPageProps) {
  const { definitions } = useDefinitions();
  const assegnati = findResource(definitions, 'prodotto_assegnato');
  const prodotti = findResource(definitions, 'categoria_prodotto');
  const fornitori = findResource(definitions, 'compagnia');
  const contrattuali = findResource(definitions, 'compagnia_contrattuale');
  const [lines, setLines] = useState<Line[]>();
  const [error, setError] = useState<string>();
  const [dialog, setDialog] = useState<{ id?: string } | null>(null);

  const load = useCallback(async () => {
    if (!assegnati || !id) return;
    const page = await getList(assegnati.resource, { page: 1, perPage: -1, sort: 'id', filters: { collaboratore_id: id } });
    const prodottiById = await byIds(prodotti, page.data.map((r) => r.categoria_prodotto_id));
    const rows = [...prodottiById.values()];
    const [fornitoriById, contrattualiById] = await Promise.all([
      byIds(fornitori, rows.map((r) => r.compagnia_fornitore_id)),
      byIds(contrattuali, rows.map((r) => r.compagnia_contrattuale_id)),
    ]);
    setLines(
      page.data.map((assegnato) => {
        const prodotto = prodottiById.get(assegnato.categoria_prodotto_id);
        return {
          assegnato,
          prodotto,
          fornitore: prodotto && fornitoriById.get(prodotto.compagnia_fornitore_id),
          contrattuale: prodotto && contrattualiById.get(prodotto.compagnia_contrattuale_id),
        };
      }),
    );
    setError(undefined);
  }, [assegnati, prodotti, fornitori, contrattuali, id]);

  useEffect(() => {
    load().catch((err: unknown) => setError(err instanceof Error ? err.message : msg.genericError));
  }, [load]);

  const { toDelete, setToDelete, deleting, confirmDelete } = useConfirmedDelete<Line>(
    assegnati?.resource, (line) => line.assegnato.id as number, 'Assegnazione eliminata', load);

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
  const productName = (line: Line) => (line.prodotto ? String(line.prodotto.nome) : `Prodotto n. ${String(line.assegnato.categoria_prodotto_id)}`);


  return (
    <section aria-labelledby="prodotti-assegnati-title">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 id="prodotti-assegnati-title" className="h5 mb-0 me-auto">
          Prodotti assegnati al collaboratore
        </h2>
        {assegnati.can.create && (
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
                      {(assegnati.can.update || assegnati.can.read) && (
                        <Button
                          size="sm"
                          variant="outline-primary"
                          className="py-0 px-1 me-1"
                          aria-label={`Modifica ${name}`}
                          title="Modifica"
                          onClick={() => setDialog({ id: String(line.assegnato.id) })}
                        >
                          <Icon name="edit" size={16} />
                        </Button>
                      )}
                      {assegnati.can.delete && (
                        <Button size="sm" variant="outline-danger" className="py-0 px-1" aria-label={`Elimina ${name}`} title="Elimina" onClick={() => setToDelete(line)}>
                          <Icon name="trash" size={16} />
                        </Button>
                      )}
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
            void load();
          }}
        />
      )}
      <ConfirmDialog
        show={toDelete !== null}
        title={msg.confirmDelete}
        text={toDelete ? `Togliere al collaboratore il prodotto «${productName(toDelete)}»?` : ''}
        confirmLabel="Elimina"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}

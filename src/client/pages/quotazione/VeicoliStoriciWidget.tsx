// Widget 'veicoli_storici': the historic vehicles of a quotation as a table, with the add-vehicle dialog and a delete confirmation.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { WidgetProps } from '@rjsf/utils';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { Icon } from '../../lib/Icon.tsx';
import './quotazione.css';
import { cellRenderer } from '../../widgets/registry.ts';
import type { JsonSchema, ListColumn } from '../../types.ts';
import { AddVehicleDialog } from './AddVehicleDialog.tsx';
import type { Vehicle } from './AddVehicleDialog.tsx';
import { COLOUR_COLUMN, COLOUR_TITLES, t } from './texts.ts';
import { AniaDialog, type VeicoloConRegistro } from './AniaDialog.tsx';

/** The page's server refresh of one vehicle's registry data (saved first), passed through the form context. */
type AggiornaDatiAnia = (vehicleId: string, targa: string, tipologia: string) => void;

const ChipCell = cellRenderer('chip', 'veicoli_storici.colore');
const MoneyCell = cellRenderer('money', 'veicoli_storici.valore');
const BooleanCell = cellRenderer('boolean', 'veicoli_storici.furto');

/** Option titles of an enum property of the vehicle (A → Autovettura). */
export function optionTitle(prop: JsonSchema | undefined, value: unknown): string {
  const options = prop?.oneOf as Array<{ const?: unknown; title?: string }> | undefined;
  const found = Array.isArray(options) ? options.find((o) => o.const === value) : undefined;
  return found?.title ?? (value === undefined || value === null ? '' : String(value));
}

export default function VeicoliStoriciWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, schema, registry } = props;
  const aggiornaDatiAnia = (registry.formContext as { actions?: { aggiornaDatiAnia?: AggiornaDatiAnia } } | undefined)?.actions?.aggiornaDatiAnia;
  const [ania, setAnia] = useState<VeicoloConRegistro | null>(null);
  const vehicles: Vehicle[] = Array.isArray(value) ? (value as Vehicle[]) : [];
  const item = (schema.items ?? {}) as JsonSchema;
  const fields = item.properties ?? {};
  const title = (name: string, fallback: string) => (fields[name]?.title as string | undefined) ?? fallback;
  const editable = !disabled && !readonly;
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<number | null>(null);
  const colourColumn: ListColumn = COLOUR_COLUMN;
  const colourTitles = new Map([...COLOUR_TITLES, ...((fields.colore?.oneOf as Array<{ const: unknown; title: string }> | undefined) ?? []).map((o) => [o.const, o.title] as const)]);

  return (
    <div id={id} className="veicoli-storici">
      {/* The wide table scrolls sideways: the scrolling region takes focus so the keyboard can scroll it too. */}
      <div className="table-responsive" tabIndex={0} role="region" aria-label={(schema.title as string | undefined) ?? 'Veicoli storici'}>
        <Table size="sm" hover className="align-middle mb-2 small">
          <caption className="visually-hidden">{(schema.title as string | undefined) ?? 'Veicoli storici'}</caption>
          <thead>
            <tr>
              {editable && <th scope="col">{t.veicoli.azioni}</th>}
              <th scope="col">{title('colore', 'Colore')}</th>
              <th scope="col">{t.veicoli.operazione}</th>
              <th scope="col">{title('marca', 'Marca')}</th>
              <th scope="col">{title('modello', 'Modello')}</th>
              <th scope="col">{title('cilindrata', 'Cilindrata')}</th>
              <th scope="col">{title('anno', 'Anno')}</th>
              <th scope="col">{title('valore', 'Valore')}</th>
              <th scope="col">{title('furto', 'Furto')}</th>
              <th scope="col">{title('targa', 'Targa')}</th>
              <th scope="col">{title('tipologia_ania', 'Tipologia Veicolo')}</th>
              <th scope="col">{t.veicoli.codiceFiscale}</th>
              <th scope="col" className="colonna-ania">{t.veicoli.datiAnia}</th>
              <th scope="col">{t.veicoli.dettagli}</th>
            </tr>
          </thead>
          <tbody>
            {vehicles.length === 0 && (
              <tr>
                <td colSpan={editable ? 14 : 13} className="text-body-secondary">
                  {t.veicoli.nessuno}
                </td>
              </tr>
            )}
            {vehicles.map((v, i) => (
              <tr key={v.id ?? i} data-testid="veicolo-storico">
                {editable && (
                  <td>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      className="py-0 px-1"
                      aria-label={`${t.veicoli.elimina} ${v.marca ?? ''} ${v.modello ?? ''} ${v.targa ?? ''}`.replace(/\s+/g, ' ').trim()}
                      title={t.veicoli.elimina}
                      onClick={() => setToDelete(i)}
                    >
                      <Icon name="trash" size={16} />
                    </Button>
                  </td>
                )}
                <td>
                  <ChipCell value={v.colore} column={colourColumn} titles={colourTitles} />
                </td>
                <td>{optionTitle(fields.operazione, v.operazione)}</td>
                <td>{v.marca}</td>
                <td>{v.modello}</td>
                <td>{v.cilindrata ?? ''}</td>
                <td>{v.anno}</td>
                <td>
                  <MoneyCell value={v.valore} />
                </td>
                <td>
                  <BooleanCell value={v.furto} />
                </td>
                <td className="font-monospace">{v.targa}</td>
                <td>{optionTitle(fields.tipologia_ania, v.tipologia_ania)}</td>
                <td className="font-monospace">{v.cfisc ?? ''}</td>
                <td className="text-nowrap colonna-ania">
                  <DatiAniaCell
                    veicolo={v}
                    onShow={() => setAnia(v as VeicoloConRegistro)}
                    onRefresh={editable && aggiornaDatiAnia && v.id ? () => aggiornaDatiAnia(String(v.id), String(v.targa ?? ''), String(v.tipologia_ania ?? 'A')) : undefined}
                  />
                </td>
                <td className="small">{(v as VeicoloConRegistro).alert ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      {editable && (
        <Button variant="outline-primary" size="sm" onClick={() => setAdding(true)}>
          <Icon name="plus" size={16} /> {t.veicoli.aggiungi}
        </Button>
      )}
      <AddVehicleDialog
        show={adding}
        item={item}
        onCancel={() => setAdding(false)}
        onAdd={(vehicle) => {
          setAdding(false);
          onChange([...vehicles, vehicle]);
        }}
      />
      <AniaDialog veicolo={ania} onClose={() => setAnia(null)} />
      <ConfirmDialog
        show={toDelete !== null}
        title={t.veicoli.eliminaTitolo}
        text={t.veicoli.eliminaTesto}
        confirmLabel="Elimina"
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          const index = toDelete;
          setToDelete(null);
          if (index !== null) onChange(vehicles.filter((_, j) => j !== index));
        }}
      />
    </div>
  );
}

/** Registry data of one vehicle: 'Errore Verti' chip, the dialog, and the refresh (a plate of more than 5 characters). */
function DatiAniaCell({ veicolo, onShow, onRefresh }: { veicolo: Vehicle; onShow: () => void; onRefresh?: () => void }) {
  const dati = veicolo as VeicoloConRegistro;
  const targaCompleta = String(veicolo.targa ?? '').trim().length > 5;
  const hintId = `ania-hint-${veicolo.id ?? ''}`;
  return (
    <>
      {dati.errore_registro && <span className="badge text-bg-danger me-1" title={dati.errore_registro}>{t.veicoli.erroreVerti}: {dati.errore_registro}</span>}
      {dati.json && (
        <Button size="sm" variant="outline-secondary" className="py-0 px-1 me-1" onClick={onShow} aria-label={`${t.veicoli.datiAnia} ${veicolo.targa ?? ''}`}>
          <Icon name="eye" size={16} /> {t.veicoli.datiAnia}
        </Button>
      )}
      {onRefresh && (
        <>
          <Button size="sm" variant="outline-primary" className="py-0 px-1" disabled={!targaCompleta} onClick={onRefresh}
            aria-label={`${t.veicoli.aggiornaAnia} ${veicolo.targa ?? ''}`} aria-describedby={targaCompleta ? undefined : hintId}>
            <Icon name="refresh" size={16} /> {t.veicoli.aggiornaAnia}
          </Button>
          {!targaCompleta && <div id={hintId} className="form-text">{t.veicoli.targaPerAnia}</div>}
        </>
      )}
    </>
  );
}

// Totals of a finance desk's list as filtered (statement by remittance type and supplier, commissions by collaborator),
// in a dialog from the list's toolbar; the statement adds its PDF and CSV/XLSX exports.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { dataProvider } from '../../api/dataProvider.ts';
import { useSummary } from '../../api/hooks.ts';
import { Icon } from '../../lib/Icon.tsx';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import type { CustomPageProps } from '../registry.ts';
import { apriFile, useListaCorrente } from './useListaCorrente.ts';

interface Totale {
  conteggio: number;
  valori: Record<string, number>;
}
interface RiepilogoData {
  colonne: Array<{ campo: string; titolo: string }>;
  gruppi: Array<{ chiave: string; titolo: string; righe: Array<{ chiave: string; titolo: string } & Totale>; totale: Totale }>;
  totale: Totale;
}

function periodo(filters: Record<string, string>): string {
  const dal = filters.pagato_dal ? `dal ${formatDate(filters.pagato_dal)}` : '';
  const al = filters.pagato_al ? `al ${formatDate(filters.pagato_al)}` : '';
  return dal || al ? `Pagamenti ${dal} ${al}`.trim() : 'Tutti i pagamenti (imposta i filtri Pagato dal / Pagato al per un periodo)';
}

function Tabella({ data, gruppo }: { data: RiepilogoData; gruppo: string }) {
  const cells = (t: Totale) => [
    <td key="n" className="text-end">{t.conteggio}</td>,
    ...data.colonne.map((c) => <td key={c.campo} className="text-end text-nowrap">{formatMoney(t.valori[c.campo])}</td>),
  ];
  return (
    <Table size="sm" responsive className="align-middle">
      <thead>
        <tr>
          <th scope="col">{gruppo}</th>
          <th scope="col" className="text-end">Titoli</th>
          {data.colonne.map((c) => (
            <th key={c.campo} scope="col" className="text-end">{c.titolo}</th>
          ))}
        </tr>
      </thead>
      {data.gruppi.map((g) => (
        <tbody key={g.chiave} data-testid={`gruppo-${g.chiave}`}>
          <tr className="table-light">
            <th scope="rowgroup" colSpan={2 + data.colonne.length}>{g.titolo}</th>
          </tr>
          {g.righe.map((r) => (
            <tr key={r.chiave}>
              <td className="ps-3">{r.titolo}</td>
              {cells(r)}
            </tr>
          ))}
          <tr className="fw-semibold">
            <td className="ps-3">Totale {g.titolo}</td>
            {cells(g.totale)}
          </tr>
        </tbody>
      ))}
      <tfoot>
        <tr className="fw-bold table-secondary" data-testid="totale-generale">
          <td>Totale generale</td>
          {cells(data.totale)}
        </tr>
      </tfoot>
    </Table>
  );
}

function Riepilogo({ def, gruppo, stampe }: CustomPageProps & { gruppo: string; stampe: boolean }) {
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const params = useListaCorrente(def);
  const { data, error, isLoading } = useSummary<RiepilogoData>(def.resource, open ? params : null);
  const file = async (name: string, save: boolean, extra = {}) => {
    try {
      apriFile(await dataProvider.listFile(def.resource, name, params, extra), save);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    }
  };
  return (
    <>
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        <Icon name="receipt" size={16} /> Riepilogo
      </Button>
      <Modal show={open} onHide={() => setOpen(false)} size="xl" aria-labelledby="riepilogo-titolo">
        <Modal.Header closeButton closeLabel="Chiudi">
          <Modal.Title id="riepilogo-titolo">Riepilogo {def.resource.title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="text-muted small">{periodo(params.filters)}</p>
          {isLoading && <Spinner />}
          {error && <Notice variant="danger" role="alert">{(error as Error).message}</Notice>}
          {data && (data.gruppi.length ? <Tabella data={data} gruppo={gruppo} /> : <Notice variant="secondary">nessun elemento trovato</Notice>)}
        </Modal.Body>
        <Modal.Footer>
          {stampe && (
            <>
              <Button variant="outline-secondary" onClick={() => void file('pdf', false)}>
                <Icon name="document" size={16} /> Stampa PDF
              </Button>
              <Button variant="outline-secondary" onClick={() => void file('riepilogo/export', true, { formato: 'csv' })}>Esporta CSV</Button>
              <Button variant="outline-secondary" onClick={() => void file('riepilogo/export', true, { formato: 'xlsx' })}>Esporta XLSX</Button>
            </>
          )}
          <Button variant="secondary" onClick={() => setOpen(false)}>Chiudi</Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

export function RiepilogoEstrattoConto(props: CustomPageProps) {
  return <Riepilogo {...props} gruppo="Rimessa / Fornitore" stampe />;
}

export function RiepilogoProvvigionale(props: CustomPageProps) {
  return <Riepilogo {...props} gruppo="Collaboratore / Settore" stampe={false} />;
}

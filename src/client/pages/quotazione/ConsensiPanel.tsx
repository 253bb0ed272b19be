// The customer's consent records (GDPR art. 7(1)): every answer given on the public link, with text version, time, address and browser.
import Table from 'react-bootstrap/Table';
import { useRoute } from '../../api/hooks.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { formatDateTime } from '../../lib/format.ts';

interface ConsentRow {
  id: number;
  consenso: string;
  versione: string;
  testo: string;
  risposta: string;
  uuid: string;
  indirizzo: string | null;
  user_agent: string | null;
  registrato_il: string;
  /** The pre-contract notices shown with the answer (ids and versions), and the link's parameter1. */
  informative: Array<{ id: number; titolo: string; versione: string | null }>;
  origine: string | null;
}

export function ConsensiPanel({ id }: { id: string }) {
  const { data } = useRoute<{ data: ConsentRow[] }>(QUOTAZIONE_ROUTES.consensi, { id });
  const rows = data?.data;
  return (
    <section className="card mb-3" aria-labelledby="consensi-title">
      <div className="card-body">
        <h2 id="consensi-title" className="h6 card-title text-uppercase text-body-secondary mb-3">
          Consensi del cliente
        </h2>
        {rows && rows.length === 0 && <p className="text-body-secondary mb-0">Nessun consenso registrato.</p>}
        {rows && rows.length > 0 && (
          <div className="table-responsive">
            <Table size="sm" className="mb-0 align-middle" data-testid="consensi">
              <thead>
                <tr>
                  <th scope="col">Data</th>
                  <th scope="col">Consenso</th>
                  <th scope="col">Risposta</th>
                  <th scope="col">Versione</th>
                  <th scope="col">Indirizzo</th>
                  <th scope="col">Browser</th>
                  <th scope="col">Informative mostrate</th>
                  <th scope="col">Origine link</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="text-nowrap">{formatDateTime(row.registrato_il)}</td>
                    <td title={row.testo}>{row.testo}</td>
                    <td>{row.risposta === 'ok' ? 'Acconsento' : 'Non acconsento'}</td>
                    <td>{row.versione}</td>
                    <td>{row.indirizzo ?? ''}</td>
                    <td className="text-break small">{row.user_agent ?? ''}</td>
                    <td className="small">{(row.informative ?? []).map((n) => `${n.titolo} v. ${n.versione ?? '—'} (n. ${n.id})`).join('; ') || '—'}</td>
                    <td className="small">{row.origine ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        )}
      </div>
    </section>
  );
}

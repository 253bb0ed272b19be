// Status history of a quotation: who moved it, when, from which status to which, with which event and note.
import Table from 'react-bootstrap/Table';
import { formatDateTime } from '../../lib/format.ts';
import type { Workflow } from '../../../shared/workflow/machine.ts';
import type { HistoryRow } from './useQuotazione.ts';
import { t } from './texts.ts';

export function HistoryPanel({ rows, workflow }: { rows: HistoryRow[] | undefined; workflow: Workflow }) {
  const nome = (id: number | null) => (id === null ? '' : (workflow.statuses.find((s) => s.id === id)?.nome ?? String(id)));
  const label = (type: string) => workflow.definition.meta.events[type]?.label ?? type;
  return (
    <section className="card mb-3" aria-labelledby="storico-title">
      <div className="card-body">
        <h2 id="storico-title" className="h6 card-title text-uppercase text-body-secondary mb-3">
          {t.storico}
        </h2>
        {rows && rows.length === 0 && <p className="text-body-secondary mb-0">{t.storicoVuoto}</p>}
        {rows && rows.length > 0 && (
          <div className="table-responsive">
            <Table size="sm" className="mb-0 align-middle" data-testid="storico">
              <thead>
                <tr>
                  <th scope="col">{t.quando}</th>
                  <th scope="col">{t.chi}</th>
                  <th scope="col">{t.da}</th>
                  <th scope="col">{t.a}</th>
                  <th scope="col">{t.evento}</th>
                  <th scope="col">{t.nota}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="text-nowrap">{formatDateTime(row.at)}</td>
                    <td>{row.user_name ?? ''}</td>
                    <td>{nome(row.from_status)}</td>
                    <td>{nome(row.to_status)}</td>
                    <td>{label(row.event)}</td>
                    <td className="text-break">{row.note ?? ''}</td>
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

// QUIETANZE: the receipt's number with the button that opens its PDF (GET /api/quietanze/{id}/pdf, with the session's token).
import Button from 'react-bootstrap/Button';
import { dataProvider } from '../../api/dataProvider.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { useNotify } from '../../lib/notify.tsx';
import type { CellProps } from '../../widgets/cells.tsx';
import { apriFile } from './useListaCorrente.ts';

export function QuietanzaPdfCell({ value }: CellProps) {
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const quietanza = findResource(definitions, 'quietanza');
  if (value === null || value === undefined) return null;
  const open = async () => {
    try {
      apriFile(await dataProvider.recordFile(quietanza!.resource, String(value), 'pdf'), false);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    }
  };
  return (
    <span className="d-inline-flex align-items-center gap-2">
      <span>{String(value)}</span>
      {quietanza && (
        <Button size="sm" variant="outline-primary" className="py-0" onClick={() => void open()} aria-label={`Stampa la quietanza ${String(value)}`}>
          PDF
        </Button>
      )}
    </span>
  );
}

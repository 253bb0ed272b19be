// SCADENZIARIO: the renewal's state of a row, with 'Prepara rinnovo' on a policy that has none yet (POST
// /api/polizza/{id}/prepara-rinnovo); the new draft opens in the policy's form.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router-dom';
import { dataProvider } from '../../api/dataProvider.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { useNotify } from '../../lib/notify.tsx';
import type { CellProps } from '../../widgets/cells.tsx';

export function RinnovoCell({ value, data, titles }: CellProps) {
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const polizza = findResource(definitions, 'polizza');
  const label = titles?.get(value) ?? (value === null || value === undefined ? '' : String(value));
  const canPrepare = value === 'NESSUNO' && data?.tipo === 'POLIZZA' && !!polizza?.can?.create;
  const prepare = async () => {
    setBusy(true);
    try {
      const answer = await dataProvider.recordAction(polizza!.resource, String(data!.record_id), 'prepara-rinnovo');
      notify('success', answer.message ?? 'Rinnovo preparato.');
      const id = answer.data?.model?.id;
      const edit = polizza!.resource.routes?.edit?.path;
      if (id !== undefined && edit) navigate(edit.replace(':id', String(id)));
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="d-inline-flex align-items-center gap-2">
      <span>{label}</span>
      {canPrepare && (
        <Button size="sm" variant="outline-primary" className="py-0" disabled={busy} onClick={() => void prepare()} aria-label={`Prepara il rinnovo della polizza ${String(data?.riferimento ?? '')}`}>
          Prepara rinnovo
        </Button>
      )}
    </span>
  );
}

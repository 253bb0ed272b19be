// TRACK GESTIONE DOCUMENTI (issue 18): per quotation (and every record whose media declare required collections)
// what is missing, uploaded, under revision, confirmed, signed; drawn by the generic list over
// GET /api/track_gestione_documenti, with the workflow's confirm and revision events sent through the same routes
// as the record's own screen (the server decides; the row offers only what the machine allows).
import { useCallback, useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ApiError, dataProvider } from '../../api/dataProvider.ts';
import { useMutation } from '../../api/hooks.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { useNotify } from '../../lib/notify.tsx';
import { msg } from '../../messages.ts';
import ResourceListPage from '../../renderer/ResourceListPage.tsx';
import { PageSpinner } from '../../shell/guards.tsx';
import type { RecordData } from '../../types.ts';
import type { DeskPageProps } from '../registry.ts';
import { trackDef } from './deskDef.ts';

interface Azione {
  type: string;
  label: string;
  route: string;
  confirm: string | null;
  note: 'required' | 'optional' | null;
  noteField: string;
}

interface Riga {
  owner_resource: string;
  owner_id: number;
  riferimento: string;
  azioni: Azione[];
}

export const testiTrack = { nota: 'Nota per il cliente' };

export default function TrackGestioneDocumenti({ card }: DeskPageProps) {
  const uid = useId();
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const def = useMemo(() => (definitions ? trackDef(card, definitions.resources) : undefined), [card, definitions]);
  const { run, busy } = useMutation(def?.resource);
  const [pending, setPending] = useState<{ row: Riga; azione: Azione } | null>(null);
  const [nota, setNota] = useState('');
  const [notaError, setNotaError] = useState<string>();

  const rowActions = useCallback(
    (record: RecordData) => {
      const row = record as unknown as Riga;
      return row.azioni.map((azione) => (
        <Button
          key={azione.type}
          size="sm"
          variant={azione.note ? 'outline-secondary' : 'outline-success'}
          className="py-0 text-nowrap"
          aria-label={`${azione.label}: ${row.riferimento}`}
          onClick={() => {
            setNota('');
            setNotaError(undefined);
            setPending({ row, azione });
          }}
        >
          {azione.label}
        </Button>
      ));
    },
    [],
  );

  const confirm = async () => {
    if (!pending) return;
    const { row, azione } = pending;
    if (azione.note === 'required' && !nota.trim()) {
      setNotaError(msg.required);
      return;
    }
    const owner = findResource(definitions, row.owner_resource);
    if (!owner) return;
    try {
      const answer = await run(() => dataProvider.transition(owner.resource, azione.route, row.owner_id, azione.note ? { [azione.noteField]: nota.trim() } : {}));
      notify('success', answer.message ?? azione.label);
      setPending(null);
    } catch (error) {
      const fields = error instanceof ApiError ? Object.values(error.errors).flat() : [];
      setNotaError(fields[0] ?? (error instanceof Error ? error.message : msg.genericError));
    }
  };

  if (!def) return <PageSpinner />;
  return (
    <>
      <ResourceListPage def={def} rowActions={rowActions} actionsWidth={400} />
      <ConfirmDialog
        show={pending !== null}
        title={pending?.azione.label ?? ''}
        text={pending ? `${pending.azione.confirm ?? `${pending.azione.label}?`} (${pending.row.riferimento})` : ''}
        confirmLabel={pending?.azione.label ?? ''}
        variant={pending?.azione.note ? 'warning' : 'primary'}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      >
        {pending?.azione.note && (
          <Form.Group controlId={`${uid}-nota`} className="mt-3">
            <Form.Label>{testiTrack.nota}</Form.Label>
            <Form.Control as="textarea" rows={3} value={nota} isInvalid={Boolean(notaError)} onChange={(e) => setNota(e.target.value)} />
            <Form.Control.Feedback type="invalid">{notaError}</Form.Control.Feedback>
          </Form.Group>
        )}
        {!pending?.azione.note && notaError && (
          <p className="text-danger mt-3 mb-0" role="alert">
            {notaError}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}

// SCADENZIARIO: the renewal's state of a row, with 'Prepara rinnovo' on a policy that has none yet (POST
// /api/polizza/{id}/prepara-rinnovo); the new draft opens in the policy's form. 'Rinnovo perso' asks the reason (POST
// /api/scadenziario/{id}/rinnovo-perso, with the row's version: the policy's edit checks).
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useNavigate } from 'react-router-dom';
import { callRoute, dataProvider } from '../../api/dataProvider.ts';
import { SCADENZIARIO_ROUTES } from './routes.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { useNotify } from '../../lib/notify.tsx';
import type { CellProps } from '../../widgets/cells.tsx';

export function RinnovoCell({ value, data, titles }: CellProps) {
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [perso, setPerso] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const [motivo, setMotivo] = useState('');
  const polizza = findResource(definitions, 'polizza');
  const storica = findResource(definitions, 'polizza_auto_storica');
  const state = perso !== undefined ? 'PERSO' : value;
  const label = titles?.get(state) ?? (state === null || state === undefined ? '' : String(state));
  const canPrepare = state === 'NESSUNO' && data?.tipo === 'POLIZZA' && !!polizza?.can?.create;
  // The policy of the row's kind is what 'Perso' writes: its own edit permission decides (the server checks it again).
  const written = data?.tipo === 'POLIZZA' ? polizza : data?.tipo === 'POLIZZA_AUTO_STORICA' ? storica : undefined;
  const canLose = ['NESSUNO', 'PREPARATO', 'INVIATO'].includes(String(state)) && !!written?.can?.update;
  const reason = perso ?? (typeof data?.motivo_perso === 'string' ? data.motivo_perso : undefined);
  const lose = async () => {
    setBusy(true);
    try {
      const answer = await callRoute<{ message: string }>('POST', SCADENZIARIO_ROUTES.rinnovoPerso, { id: data!.id },
        { body: { motivo, ...(typeof data?.version === 'number' ? { version: data.version } : {}) } });
      notify('success', answer.message);
      setPerso(motivo.trim());
      setAsking(false);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    } finally {
      setBusy(false);
    }
  };
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
      <span title={state === 'PERSO' && reason ? `Motivo: ${reason}` : undefined}>{label}</span>
      {canPrepare && (
        <Button size="sm" variant="outline-primary" className="py-0" disabled={busy} onClick={() => void prepare()} aria-label={`Prepara il rinnovo della polizza ${String(data?.riferimento ?? '')}`}>
          Prepara rinnovo
        </Button>
      )}
      {canLose && (
        <Button size="sm" variant="outline-danger" className="py-0" disabled={busy} onClick={() => setAsking(true)} aria-label={`Rinnovo perso della polizza ${String(data?.riferimento ?? '')}`}>
          Perso…
        </Button>
      )}
      <Modal show={asking} onHide={() => setAsking(false)} aria-labelledby={`perso-${String(data?.id)}`}>
        <Modal.Header closeButton closeLabel="Chiudi">
          <Modal.Title id={`perso-${String(data?.id)}`}>Rinnovo perso: {String(data?.riferimento ?? '')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId={`perso-motivo-${String(data?.id)}`}>
            <Form.Label>Motivo</Form.Label>
            <Form.Control as="textarea" rows={3} maxLength={500} value={motivo} onChange={(e) => setMotivo(e.target.value)} />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setAsking(false)}>Annulla</Button>
          <Button variant="danger" disabled={busy || motivo.trim().length < 3} onClick={() => void lose()}>Segna come perso</Button>
        </Modal.Footer>
      </Modal>
    </span>
  );
}

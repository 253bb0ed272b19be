// A confirmation dialog (delete, leaving with unsaved changes); focus goes to the safe choice.
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface ConfirmDialogProps {
  show: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary' | 'warning';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ show, title, text, confirmLabel, cancelLabel = 'Annulla', variant = 'danger', busy, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal show={show} onHide={busy ? () => undefined : onCancel} centered aria-labelledby="confirm-title" style={{ ['--bs-modal-width' as string]: '590px' }}>
      <Modal.Header closeButton={!busy} closeLabel="Chiudi">
        <Modal.Title id="confirm-title" as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{text}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button variant={variant} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

// A confirmation dialog (delete, leaving with unsaved changes); focus goes to the safe choice.
import type { ReactNode } from 'react';
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
  /** Extra content under the question, e.g. a note the action needs. */
  children?: ReactNode;
}

export function ConfirmDialog({ show, title, text, confirmLabel, cancelLabel = 'Annulla', variant = 'danger', busy, onConfirm, onCancel, children }: ConfirmDialogProps) {
  return (
    <Modal show={show} onHide={busy ? () => undefined : onCancel} centered aria-labelledby="confirm-title" style={{ ['--bs-modal-width' as string]: '590px' }}>
      <Modal.Header closeButton={!busy} closeLabel="Chiudi">
        <Modal.Title id="confirm-title" as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {text}
        {children}
      </Modal.Body>
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

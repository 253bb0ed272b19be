// A confirmation dialog (delete, leaving with unsaved changes); focus goes to the safe choice.
import { useId } from 'react';
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
  /** While the action runs: nothing can be pressed and the dialog stays open. */
  busy?: boolean;
  /** The confirm button alone is off (e.g. until a choice is made); cancelling stays possible. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Extra content under the question, e.g. a note the action needs. */
  children?: ReactNode;
  /** False when the action's outcome takes the focus (a message): closing does not send it back to the opener. */
  restoreFocus?: boolean;
}

export function ConfirmDialog({ show, title, text, confirmLabel, cancelLabel = 'Annulla', variant = 'danger', busy, confirmDisabled, onConfirm, onCancel, children, restoreFocus = true }: ConfirmDialogProps) {
  // One id per dialog: a page can hold several (a row's delete over a form's unsaved-changes question).
  const titleId = useId();
  return (
    <Modal show={show} onHide={busy ? () => undefined : onCancel} restoreFocus={restoreFocus} centered aria-labelledby={titleId} style={{ ['--bs-modal-width' as string]: '590px' }}>
      <Modal.Header closeButton={!busy} closeLabel="Chiudi">
        <Modal.Title id={titleId} as="h2" className="h5">
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
        <Button variant={variant} onClick={onConfirm} disabled={busy || confirmDisabled}>
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

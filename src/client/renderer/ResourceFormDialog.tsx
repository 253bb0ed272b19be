// The generic form of a resource in a dialog (add/edit from a list, a quick add beside a selector): same controller, action bar and form as the page.
import { useMemo, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { Notice, Spinner } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { ResourceFormBody } from './ResourceFormBody.tsx';
import { resourceFormSchemas, useResourceForm } from './useResourceForm.ts';
import { WithFormValidators } from './WithFormValidators.tsx';
import './formDialog.css';

/** Up to this width (px) a dialog lays its fields one per row. */
const NARROW = 600;

export interface ResourceFormDialogProps {
  def: ResourceDef;
  /** Record to edit; without it the dialog adds one. */
  id?: string;
  /** Values a new record starts from. */
  preset?: RecordData;
  onClose: () => void;
  onSaved: (record: RecordData, mode: 'new' | 'edit') => void;
  size?: 'sm' | 'lg' | 'xl';
  /** Maximum width in pixels (spec 000 §9: dialogs 590). */
  maxWidth?: number;
}

/** Mount it when the dialog opens (and give it a key per record) so each opening starts from the record. */
export function ResourceFormDialog(props: ResourceFormDialogProps) {
  const schemas = useMemo(() => resourceFormSchemas(props.def), [props.def]);
  return (
    <WithFormValidators schemas={schemas}>
      <ResourceFormDialogBody {...props} />
    </WithFormValidators>
  );
}

function ResourceFormDialogBody({ def, id, preset, onClose, onSaved, size, maxWidth }: ResourceFormDialogProps) {
  const { resource } = def;
  const ctl = useResourceForm(def, id, { preset, onSaved });
  const [confirmLeave, setConfirmLeave] = useState(false);
  const formId = `dialog-form-${def.name}`;
  const titleId = `${formId}-title`;
  const title = ctl.mode === 'new' ? (resource.newTitle ?? ctl.title) : ctl.title;

  // Closing with changes asks first, as leaving a form page does.
  const close = () => {
    if (ctl.saving) return;
    if (ctl.dirtyRef.current) setConfirmLeave(true);
    else onClose();
  };

  return (
    <>
      <Modal
        show
        onHide={close}
        size={size}
        backdrop={ctl.saving ? 'static' : true}
        keyboard={!ctl.saving}
        aria-labelledby={titleId}
        dialogClassName={maxWidth && maxWidth <= NARROW ? 'form-dialog-narrow' : undefined}
        style={maxWidth ? { ['--bs-modal-width' as string]: `${maxWidth}px` } : undefined}
      >
        <Modal.Header closeButton={!ctl.saving} closeLabel="Chiudi">
          <Modal.Title id={titleId} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {ctl.loadError ? (
            <Notice variant="danger" role="alert">
              {ctl.loadError}
            </Notice>
          ) : ctl.loading ? (
            <Spinner label={msg.loading} />
          ) : (
            <ResourceFormBody def={def} id={id} formId={formId} ctl={ctl} onCancel={close} />
          )}
        </Modal.Body>
      </Modal>
      <ConfirmDialog
        show={confirmLeave}
        title={msg.unsavedTitle}
        text={msg.unsavedText}
        confirmLabel="Esci senza salvare"
        cancelLabel="Continua a modificare"
        variant="warning"
        onConfirm={() => {
          setConfirmLeave(false);
          onClose();
        }}
        onCancel={() => setConfirmLeave(false)}
      />
    </>
  );
}

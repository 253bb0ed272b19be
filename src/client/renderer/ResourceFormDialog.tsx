// The generic form of a resource in a dialog (add/edit from a list, a quick add beside a selector): same controller, action bar and form as the page.
import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { useDefinitions } from '../lib/definitions.ts';
import { Notice, Spinner } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { ConflictAlert, FormActionBar, SavingOverlay, TypedValuesPanel } from './FormParts.tsx';
import { SchemaForm } from './SchemaForm.tsx';
import { useResourceForm } from './useResourceForm.ts';
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
export function ResourceFormDialog({ def, id, preset, onClose, onSaved, size, maxWidth }: ResourceFormDialogProps) {
  const { resource, schema, form, can } = def;
  const { definitions } = useDefinitions();
  const ctl = useResourceForm(def, id, { preset, onSaved });
  const [confirmLeave, setConfirmLeave] = useState(false);
  const formId = `dialog-form-${def.name}`;
  const titleId = `${formId}-title`;
  const canSave = ctl.mode === 'new' ? can.create : can.update;
  const activeField = resource.activeField && schema.properties?.[resource.activeField] ? resource.activeField : undefined;
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
            <>
              <FormActionBar
                formId={formId}
                mode={ctl.mode}
                canSave={canSave}
                saving={ctl.saving}
                errors={ctl.errorCount}
                activeLabel={activeField ? ((schema.properties?.[activeField]?.title as string | undefined) ?? 'Attivo') : undefined}
                active={ctl.active}
                onActive={activeField ? ctl.setActive : undefined}
                onCancel={close}
              />
              {ctl.conflict && <ConflictAlert onReload={ctl.reloadLatest} />}
              {ctl.typed && <TypedValuesPanel typed={ctl.typed} onReapply={ctl.reapplyTyped} onDismiss={ctl.dismissTyped} />}
              <div className="position-relative" aria-busy={ctl.saving}>
                <SchemaForm
                  key={ctl.formKey}
                  id={formId}
                  formRef={ctl.formRef}
                  schema={schema}
                  formUi={form}
                  activeField={activeField}
                  initialData={ctl.initial}
                  resources={definitions?.resources}
                  recordId={id}
                  extraErrors={ctl.extraErrors}
                  disabled={!canSave}
                  onChange={ctl.onChange}
                  onSubmit={ctl.submit}
                  onValidity={ctl.setErrorCount}
                />
                <SavingOverlay show={ctl.saving} />
              </div>
            </>
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

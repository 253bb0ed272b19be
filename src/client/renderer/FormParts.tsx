// Pieces around the generic form: action bar with validity chip, conflict notice, leave guard, saving overlay.
import { useCallback, useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import type { BlockerFunction } from 'react-router-dom';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { TypedValue } from './useResourceForm.ts';

export function ValidityChip({ errors }: { errors: number }) {
  return (
    <span role="status" aria-live="polite" data-testid="validity-chip">
      {errors === 0 ? (
        <Badge bg="success" pill>
          OK
        </Badge>
      ) : (
        <Badge bg="danger" pill>
          {errors === 1 ? '1 errore' : `${errors} errori`}
        </Badge>
      )}
    </span>
  );
}

export interface ActionBarProps {
  formId: string;
  mode: 'new' | 'edit';
  canSave: boolean;
  saving: boolean;
  errors: number;
  activeLabel?: string;
  active?: unknown;
  onActive?: (value: boolean) => void;
  onCancel: () => void;
}

export function FormActionBar({ formId, mode, canSave, saving, errors, activeLabel, active, onActive, onCancel }: ActionBarProps) {
  return (
    <div
      className="form-action-bar d-flex flex-wrap align-items-center gap-3 p-2 mb-3 border rounded bg-body sticky-top"
      role="toolbar"
      aria-label="Azioni del modulo"
    >
      {/* A record only to be read has nothing to check. */}
      {canSave && <ValidityChip errors={errors} />}
      {activeLabel && onActive && (
        <Form.Check
          type="switch"
          id={`${formId}-active`}
          label={activeLabel}
          checked={active === true || active === 1 || active === '1'}
          disabled={!canSave || saving}
          onChange={(e) => onActive(e.target.checked)}
        />
      )}
      <div className="ms-auto d-flex gap-2">
        <Button variant="outline-secondary" onClick={onCancel} disabled={saving}>
          {canSave ? 'Annulla' : 'Indietro'}
        </Button>
        {canSave && (
          <Button type="submit" form={formId} variant="primary" disabled={saving}>
            {mode === 'edit' ? 'Aggiorna' : 'Aggiungi'}
          </Button>
        )}
      </div>
    </div>
  );
}

export function ConflictAlert({ onReload }: { onReload: () => void }) {
  return (
    <Notice variant="warning" role="alert">
      <h2 className="h6 alert-heading">{msg.conflict}</h2>
      <p className="mb-2">{msg.conflictDetail}</p>
      <Button variant="warning" size="sm" onClick={onReload}>
        Ricarica il record
      </Button>
    </Notice>
  );
}

export function TypedValuesPanel({ typed, onReapply, onDismiss }: { typed: TypedValue[]; onReapply: () => void; onDismiss: () => void }) {
  return (
    <Notice variant="info" role="status">
      <h2 id="typed-title" className="h6">
        Versione aggiornata caricata. Questi sono i valori che avevi inserito:
      </h2>
      <dl className="row mb-2 small">
        {typed.map((item) => (
          <div key={item.field} className="col-12 col-md-6 d-flex gap-2">
            <dt className="fw-semibold">{item.label}:</dt>
            <dd className="mb-1">{item.text}</dd>
          </div>
        ))}
      </dl>
      <div className="d-flex gap-2">
        <Button size="sm" variant="primary" onClick={onReapply}>
          Riapplica i miei valori
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={onDismiss}>
          Tieni la versione aggiornata
        </Button>
      </div>
    </Notice>
  );
}

/** Asks before leaving a form with unsaved changes: in-app navigation (useBlocker) and tab close/reload. */
export function LeaveGuard({ dirtyRef }: { dirtyRef: { current: boolean } }) {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
    [dirtyRef],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirtyRef]);
  return (
    <ConfirmDialog
      show={blocker.state === 'blocked'}
      title={msg.unsavedTitle}
      text={msg.unsavedText}
      confirmLabel="Esci senza salvare"
      cancelLabel="Resta nella pagina"
      variant="warning"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
}

export function SavingOverlay({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div
      className="saving-overlay position-absolute top-0 start-0 w-100 h-100 d-flex justify-content-center align-items-start pt-5"
      role="status"
      aria-live="polite"
    >
      <div className="bg-body border rounded shadow-sm px-4 py-3 d-flex align-items-center gap-2 sticky-top" style={{ top: '40vh' }}>
        <span className="spinner-border spinner-border-sm" aria-hidden="true" />
        <span>{msg.saving}</span>
      </div>
    </div>
  );
}

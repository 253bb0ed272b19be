// Edit Account: the user's own name and password (PUT /api/account), server errors under the fields.
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { api, isApiError } from '../api/dataProvider.ts';
import { getSessionData, updateUser } from '../api/session.ts';
import { useNotify } from '../lib/notify.tsx';
import { msg } from '../messages.ts';

type Errors = Partial<Record<'name' | 'password_attuale' | 'password' | 'conferma', string>>;

function Field(props: { id: string; label: string; type?: string; value: string; onChange: (v: string) => void; error?: string; autoComplete: string }) {
  const { id, label, type = 'text', value, onChange, error, autoComplete } = props;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        value={value}
        autoComplete={autoComplete}
        onChange={(e) => onChange(e.target.value)}
        isInvalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

export default function AccountDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const notify = useNotify();
  const [name, setName] = useState('');
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!show) return;
    setName(getSessionData()?.user.name ?? '');
    setCurrent('');
    setPassword('');
    setConfirm('');
    setErrors({});
  }, [show]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password && password !== confirm) {
      setErrors({ conferma: 'Le due password non coincidono' });
      return;
    }
    const body: { name?: string; password_attuale?: string; password?: string } = {};
    if (name.trim() && name.trim() !== getSessionData()?.user.name) body.name = name.trim();
    if (password) {
      body.password_attuale = current;
      body.password = password;
    }
    if (!Object.keys(body).length) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      const result = await api.updateAccount(body);
      if (result.data?.user) updateUser(result.data.user);
      notify('success', result.message || 'Account aggiornato');
      onClose();
    } catch (err) {
      if (isApiError(err, 'VALIDATION')) {
        setErrors(Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, v[0]])) as Errors);
      } else {
        notify('danger', err instanceof Error ? err.message : msg.genericError);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal show={show} onHide={onClose} aria-labelledby="account-title" style={{ ['--bs-modal-width' as string]: '590px' }}>
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton closeLabel="Chiudi">
          <Modal.Title id="account-title" as="h2" className="h5">
            Modifica account
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Field id="account-name" label="Nome" value={name} onChange={setName} error={errors.name} autoComplete="name" />
          <fieldset>
            <legend className="fs-6 fw-semibold">Cambio password</legend>
            <Field
              id="account-current"
              label="Password attuale"
              type="password"
              value={current}
              onChange={setCurrent}
              error={errors.password_attuale}
              autoComplete="current-password"
            />
            <Field
              id="account-password"
              label="Nuova password"
              type="password"
              value={password}
              onChange={setPassword}
              error={errors.password}
              autoComplete="new-password"
            />
            <Field
              id="account-confirm"
              label="Conferma nuova password"
              type="password"
              value={confirm}
              onChange={setConfirm}
              error={errors.conferma}
              autoComplete="new-password"
            />
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={busy}>
            Annulla
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            Salva
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

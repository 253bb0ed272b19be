// 'Password dimenticata?': asks for the e-mail (same answer whether it exists or not); opened from the e-mailed link
// (?token=...) it sets the new password, with the server's errors under the field.
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { api, ApiError } from '../api/dataProvider.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import { PlainLayout } from './PlainLayout.tsx';
import { Field } from './Field.tsx';

export default function PasswordResetPage() {
  usePageMeta({ title: 'Reimposta la password' });
  const [params] = useSearchParams();
  const token = params.get('token');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (token && password !== confirm) {
      setErrors({ conferma: 'Le due password non coincidono' });
      return;
    }
    setBusy(true);
    try {
      setDone((token ? await api.passwordReset(token, password) : await api.passwordForgotten(email.trim())).message);
    } catch (err) {
      if (err instanceof ApiError) {
        const first = Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, v[0]]));
        setErrors(Object.keys(first).length ? first : { generale: err.message });
      } else setErrors({ generale: msg.genericError });
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, name: string, label: string, value: string, onChange: (v: string) => void, type: string, autoComplete: string) => (
    <Field id={id} label={label} type={type} value={value} onChange={onChange} error={errors[name]} autoComplete={autoComplete} />
  );

  return (
    <PlainLayout>
      <div className="mx-auto" style={{ maxWidth: 420 }}>
        <Card className="shadow-sm">
          <Card.Body className="p-4">
            <h1 className="h4 mb-3">{token ? 'Scegli una nuova password' : 'Password dimenticata'}</h1>
            {done ? (
              <Notice variant="success" role="status">
                {done}
              </Notice>
            ) : (
              <Form onSubmit={submit} noValidate>
                {!token && <p>Indica l'e-mail del tuo account: ti invieremo un link per scegliere una nuova password.</p>}
                {!token && field('reset-email', 'email', 'E-mail', email, setEmail, 'email', 'username')}
                {token && field('reset-password', 'password', 'Nuova password', password, setPassword, 'password', 'new-password')}
                {token && field('reset-conferma', 'conferma', 'Conferma nuova password', confirm, setConfirm, 'password', 'new-password')}
                {(errors.token || errors.generale) && (
                  <div className="text-danger small mb-3" role="alert">
                    {errors.token ?? errors.generale}
                  </div>
                )}
                <Button type="submit" variant="primary" className="w-100" disabled={busy}>
                  {token ? 'Reimposta la password' : 'Invia il link'}
                </Button>
              </Form>
            )}
            <p className="mt-3 mb-0">
              <Link to="/login">Torna all'accesso</Link>
            </p>
          </Card.Body>
        </Card>
      </div>
    </PlainLayout>
  );
}

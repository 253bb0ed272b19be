// Turning on two-step verification: the password, then the QR code and the key in text with a first code, then the
// recovery codes, shown once. Used by the account dialog and by the page a session that may only enrol is taken to.
import { useState } from 'react';
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { api, ApiError } from '../api/dataProvider.ts';
import { msg } from '../messages.ts';
import { Field } from './Field.tsx';

/** A field's first server error, else the message, else the generic one. */
export function fieldError(err: unknown, field: string): string {
  if (err instanceof ApiError) return err.errors[field]?.[0] ?? err.message;
  return msg.genericError;
}

export default function MfaEnrolment({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const [password, setPassword] = useState('');
  const [start, setStart] = useState<{ secret: string; qr: string }>();
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (event: FormEvent, step: () => Promise<void>, field: string) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      await step();
    } catch (err) {
      setError(fieldError(err, field));
    } finally {
      setBusy(false);
    }
  };

  if (codes) {
    return (
      <div data-testid="codici-recupero">
        <p>
          Verifica in due passaggi attivata. Conserva questi <strong>codici di recupero</strong> in un luogo sicuro: ognuno vale una volta
          sola se perdi il telefono, e non saranno più mostrati.
        </p>
        <ul className="list-unstyled font-monospace row row-cols-2 mb-3">
          {codes.map((c) => (
            <li key={c} className="col">
              {c}
            </li>
          ))}
        </ul>
        <Button variant="primary" onClick={onDone} autoFocus>
          Ho conservato i codici
        </Button>
      </div>
    );
  }

  if (start) {
    return (
      <Form noValidate onSubmit={(e) => run(e, async () => setCodes((await api.mfaConfirm(code.replace(/\s/g, ''))).codici_recupero), 'codice')}>
        <p>Inquadra il codice QR con l'app di autenticazione (ad esempio Google Authenticator, Microsoft Authenticator, FreeOTP).</p>
        <img src={start.qr} alt="Codice QR per l'app di autenticazione" width={200} height={200} className="d-block mb-2" />
        <p className="small">
          Oppure inserisci la chiave a mano: <code data-testid="mfa-chiave">{start.secret}</code>
        </p>
        <Field id="mfa-primo-codice" label="Codice di 6 cifre mostrato dall'app" inputMode="numeric" autoComplete="one-time-code"
          value={code} onChange={setCode} error={error} autoFocus />
        <Button type="submit" variant="primary" disabled={busy}>
          Conferma e attiva
        </Button>
      </Form>
    );
  }

  return (
    <Form noValidate onSubmit={(e) => run(e, async () => setStart(await api.mfaStart(password)), 'password')}>
      <p>La verifica in due passaggi chiede, dopo la password, un codice generato dall'app di autenticazione del telefono.</p>
      <Field id="mfa-password" label="Password attuale" type="password" autoComplete="current-password" value={password} onChange={setPassword} error={error} />
      <div className="d-flex gap-2">
        {onCancel && (
          <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
            Annulla
          </Button>
        )}
        <Button type="submit" variant="primary" disabled={busy}>
          Continua
        </Button>
      </div>
    </Form>
  );
}

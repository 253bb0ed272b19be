// Login (spec 000 §2.4): e-mail, password, Accedi; maintenance banner instead of the form; errors under 'authentication'.
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { api, ApiError, isApiError, type LoginAnswer } from '../api/dataProvider.ts';
import { clearExpired, startSession, wasExpired } from '../api/session.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice, Spinner } from '../lib/ui.tsx';
import { APP_NAME, msg } from '../messages.ts';
import { useSession } from './guards.tsx';
import { Logo, PlainLayout } from './PlainLayout.tsx';

const SSO_UNKNOWN = "Accesso rifiutato: nessun utente attivo ha l'e-mail con cui ti sei identificato. Chiedi all'amministratore.";
const SSO_FAILED = 'Accesso con il fornitore di identità non riuscito: riprova, oppure accedi con e-mail e password.';

interface LoginState {
  expired?: boolean;
  from?: string;
}

export default function LoginPage() {
  usePageMeta({ title: 'Accesso' });
  const location = useLocation();
  const navigate = useNavigate();
  const { token } = useSession();
  const state = (location.state ?? {}) as LoginState;
  // The note survives the redirect race between the route guard and the 401 handler.
  const [expired] = useState(() => Boolean(state.expired) || wasExpired());
  const [maintenance, setMaintenance] = useState<boolean | undefined>(undefined);
  const [appName, setAppName] = useState(APP_NAME);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Two-step verification: after the password, the token the code is sent with.
  const [challenge, setChallenge] = useState<string>();
  const [code, setCode] = useState('');

  useEffect(clearExpired, []);

  // Single sign-on: the button's name, and the provider's round trip coming back with a ticket or a refusal.
  const [sso, setSso] = useState<string | null>(null);
  useEffect(() => {
    api.sso().then((r) => setSso(r.nome), () => setSso(null));
    const refusal = new URLSearchParams(location.search).get('sso');
    if (refusal) setError(refusal === 'sconosciuto' ? SSO_UNKNOWN : SSO_FAILED);
    const ticket = /^#sso=([\w-]+)$/.exec(window.location.hash)?.[1];
    if (!ticket) return;
    // The ticket is spent at once: out of the address and the history.
    window.history.replaceState(null, '', window.location.pathname);
    setBusy(true);
    api
      .ssoSession(ticket)
      .then((result) => {
        start(result);
      })
      .catch((err: unknown) => setError(err instanceof ApiError ? err.message : msg.genericError))
      .finally(() => setBusy(false));
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const start = (result: LoginAnswer) => {
    startSession(result.token, {
      permissions: result.permissions ?? [],
      roles: result.roles ?? [],
      user: result.user,
      environment: result.environment ?? {},
      mfa_da_attivare: result.mfa_da_attivare === true,
    });
    navigate(state.from ?? '/dashboard', { replace: true });
  };

  useEffect(() => {
    api
      .environment()
      .then((env) => {
        setMaintenance(Boolean(env.maintenance));
        if (env.appName) setAppName(env.appName);
      })
      // Without the flag the form is still the most useful thing to show.
      .catch(() => setMaintenance(false));
  }, []);

  if (token && !busy) return <Navigate to={state.from ?? '/dashboard'} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const answer = challenge ? await api.loginCode(challenge, code.trim()) : await api.login(email.trim(), password);
      if ('mfa_richiesta' in answer) {
        setChallenge(answer.token_mfa);
        setPassword('');
        return;
      }
      start(answer);
    } catch (err) {
      if (isApiError(err, 'MAINTENANCE')) setMaintenance(true);
      else if (err instanceof ApiError && challenge && err.status === 401) {
        // The second step's token expired: back to e-mail and password.
        setChallenge(undefined);
        setCode('');
        setError(err.message);
      } else if (err instanceof ApiError) setError(err.errors.authentication?.[0] ?? err.errors.codice?.[0] ?? err.message);
      else setError(msg.genericError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PlainLayout>
      <div className="mx-auto" style={{ maxWidth: 420 }}>
        <div className="d-flex align-items-center justify-content-center gap-2 mb-4">
          <Logo size={40} />
          <span className="fs-4 fw-semibold">{appName}</span>
        </div>
        <Card className="shadow-sm">
          <Card.Body className="p-4">
            <h1 className="h4 mb-3">Accedi</h1>
            {expired && !maintenance && (
              <Notice variant="warning" role="alert">
                {msg.sessionExpired}
              </Notice>
            )}
            {maintenance === undefined && <Spinner label={msg.loading} />}
            {maintenance === true && (
              <Notice variant="info" role="alert" className="mb-0" testId="maintenance-banner">
                <h2 className="h5 alert-heading">{msg.maintenance}</h2>
                <p className="mb-0">{msg.maintenanceText}</p>
              </Notice>
            )}
            {maintenance === false && challenge && (
              <Form onSubmit={submit} noValidate>
                <Form.Group className="mb-3" controlId="login-codice">
                  <Form.Label>Codice di verifica</Form.Label>
                  <Form.Control
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                    required
                    autoFocus
                    isInvalid={Boolean(error)}
                    aria-describedby={error ? 'authentication-error' : 'login-codice-aiuto'}
                  />
                  <Form.Text id="login-codice-aiuto">Il codice di 6 cifre dell'app di autenticazione, oppure un codice di recupero.</Form.Text>
                </Form.Group>
                <ErroreEInvio error={error} busy={busy} label="Verifica" busyLabel="Verifica in corso…" />
              </Form>
            )}
            {maintenance === false && !challenge && (
              <Form onSubmit={submit} noValidate>
                <Form.Group className="mb-3" controlId="login-email">
                  <Form.Label>E-mail</Form.Label>
                  <Form.Control
                    type="email"
                    autoComplete="username"
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                    required
                    autoFocus
                    isInvalid={Boolean(error)}
                    aria-describedby={error ? 'authentication-error' : undefined}
                  />
                </Form.Group>
                <Form.Group className="mb-3" controlId="login-password">
                  <Form.Label>Password</Form.Label>
                  <Form.Control
                    type="password"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                    required
                    isInvalid={Boolean(error)}
                    aria-describedby={error ? 'authentication-error' : undefined}
                  />
                </Form.Group>
                <ErroreEInvio error={error} busy={busy} label="Accedi" busyLabel="Accesso in corso…" />
                {sso && (
                  // A full navigation: the server sends the browser on to the provider.
                  <Button as="a" href="/api/sso/inizio" variant="outline-primary" className="w-100 mt-2">
                    Accedi con {sso}
                  </Button>
                )}
                <p className="mt-3 mb-0 text-center">
                  <Link to="/reimposta-password">Password dimenticata?</Link>
                </p>
              </Form>
            )}
          </Card.Body>
        </Card>
      </div>
    </PlainLayout>
  );
}

/** Both steps of the login end alike: the server's refusal under the fields, then the submit button. */
function ErroreEInvio({ error, busy, label, busyLabel }: { error: string | undefined | null; busy: boolean; label: string; busyLabel: string }) {
  return (
    <>
      {error && (
        <div id="authentication-error" className="text-danger small mb-3" role="alert" data-testid="authentication-error">
          {error}
        </div>
      )}
      <Button type="submit" variant="primary" className="w-100" disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
    </>
  );
}

// Session guard (token only, spec 000 §6), route error display and the page spinner.
import { useSyncExternalStore } from 'react';
import { Navigate, Outlet, useLocation, useRouteError } from 'react-router-dom';
import { getSnapshot, subscribe } from '../api/session.ts';
import Button from 'react-bootstrap/Button';
import { CHUNK_FAILED, isChunkError } from '../lib/lazyScreen.ts';
import { Notice, Spinner } from '../lib/ui.tsx';
import { msg } from '../messages.ts';

export function useSession() {
  return useSyncExternalStore(subscribe, getSnapshot);
}

/** Where a session that may only enrol is taken (its role requires two-step verification). */
export const ENROLMENT_PATH = '/attiva-verifica';

export function RequireAuth() {
  const { token, data } = useSession();
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (data?.mfa_da_attivare && location.pathname !== ENROLMENT_PATH) return <Navigate to={ENROLMENT_PATH} replace />;
  return <Outlet />;
}

export function PageSpinner() {
  return (
    <div className="p-4">
      <Spinner label={msg.loading} />
    </div>
  );
}

/** Render errors (an unknown widget name, a chunk that failed to load) show loudly instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  const chunk = isChunkError(error);
  const text = chunk ? CHUNK_FAILED : error instanceof Error ? error.message : typeof error === 'string' ? error : msg.genericError;
  return (
    <main className="p-4">
      <Notice variant="danger" role="alert">
        <h1 className="h5 alert-heading">Impossibile mostrare la pagina</h1>
        <p className={chunk ? undefined : 'mb-0'}>{text}</p>
        {/* A chunk that did not arrive (a new release, a dropped connection) usually loads on a fresh start. */}
        {chunk && (
          <Button variant="primary" onClick={() => window.location.reload()} autoFocus>
            Ricarica la pagina
          </Button>
        )}
      </Notice>
    </main>
  );
}

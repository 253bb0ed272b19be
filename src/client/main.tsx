// Entry point: styles, API handlers (401 → login, 503 → maintenance) and the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { setApiHandlers } from './api/dataProvider.ts';
import { installDialogFocus } from './lib/dialogFocus.ts';
import { router } from './router.tsx';

installDialogFocus();

setApiHandlers({
  onSessionExpired: () => {
    void router.navigate('/login', { replace: true, state: { expired: true } });
  },
  onMaintenance: () => {
    if (router.state.location.pathname !== '/manutenzione') void router.navigate('/manutenzione', { replace: true });
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);

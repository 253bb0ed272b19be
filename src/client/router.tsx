// Route table (spec 000 §2.1): public login and maintenance, everything else behind the session token.
import { Suspense } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, Outlet } from 'react-router-dom';
import { lazyScreen as lazy } from './lib/lazyScreen.ts';
import { NotificationsProvider } from './lib/notify.tsx';
import { PageMetaProvider } from './lib/pageMeta.tsx';
import { customPage } from './pages/registry.ts';
import { PagesProvider } from './renderer/pages.tsx';
import { PageSpinner, RequireAuth, RouteError } from './shell/guards.tsx';

// Route-level splitting: the login route loads neither AG Grid nor rjsf.
const LoginPage = lazy(() => import('./shell/LoginPage.tsx'));
const MaintenancePage = lazy(() => import('./shell/MaintenancePage.tsx'));
const MainLayout = lazy(() => import('./shell/MainLayout.tsx'));
const EnrolmentPage = lazy(() => import('./shell/EnrolmentPage.tsx'));
const PasswordResetPage = lazy(() => import('./shell/PasswordResetPage.tsx'));
const Dashboard = lazy(() => import('./shell/Dashboard.tsx'));
const ResourceRoute = lazy(() => import('./shell/ResourceRoute.tsx'));
// The customer's link: no login, its own light page.
const QuotazioneCliente = lazy(() => import('./pages/quotazione/pubblico/PubblicoPage.tsx'));
const DocumentiPrecontrattuali = lazy(() => import('./pages/documenti/DocumentiPrecontrattuali.tsx'));
// Developer catalogue of the widget registry (super_admin).
const TestComponent = lazy(() => import('./shell/TestComponent.tsx'));

function page(Component: ComponentType, fallback: ReactNode = <PageSpinner />) {
  return (
    <Suspense fallback={fallback}>
      <Component />
    </Suspense>
  );
}

function Root() {
  return (
    <NotificationsProvider>
      <PageMetaProvider>
        <PagesProvider value={customPage}>
          <Outlet />
        </PagesProvider>
      </PageMetaProvider>
    </NotificationsProvider>
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: page(LoginPage) },
      { path: '/manutenzione', element: page(MaintenancePage) },
      { path: '/reimposta-password', element: page(PasswordResetPage) },
      { path: '/quotazione/cliente/:uuid', element: page(QuotazioneCliente) },
      {
        element: <RequireAuth />,
        children: [
          // Outside the main layout: a session that may only enrol cannot load definitions or menus.
          { path: '/attiva-verifica', element: page(EnrolmentPage) },
          {
            element: page(MainLayout),
            children: [
              {
                errorElement: <RouteError />,
                children: [
                  { index: true, element: page(Dashboard) },
                  { path: '/dashboard', element: page(Dashboard) },
                  { path: '/documenti', element: page(DocumentiPrecontrattuali) },
                  { path: '/test-component', element: page(TestComponent) },
                  // Resources' screens, then the dashboard cards' pages (schemas/_shared/dashboard.json).
                  { path: '*', element: page(ResourceRoute) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
]);

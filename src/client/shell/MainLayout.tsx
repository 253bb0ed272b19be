// Main layout (spec 000 §2.2): collapsible 'Menu Rapido' drawer, top bar with logo and user menu, page header.
import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { SWRConfig } from 'swr';
import Badge from 'react-bootstrap/Badge';
import Dropdown from 'react-bootstrap/Dropdown';
import { api } from '../api/dataProvider.ts';
import { endSession } from '../api/session.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { Icon } from '../lib/Icon.tsx';
import { useCurrentPageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { APP_NAME } from '../messages.ts';
import AccountDialog from './AccountDialog.tsx';
import Cerca from './Cerca.tsx';
import { useSession } from './guards.tsx';
import { visibleMenu } from './menu.ts';
import { canOpen } from '../lib/access.ts';
import { Logo } from './PlainLayout.tsx';
import { registerFeatures } from '../features.ts';

// The screens below read the widget registry; the registry and its widgets stay out of the entry (the login route).
registerFeatures();

const COLLAPSE_KEY = 'menu-collapsed';

function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { definitions, error } = useDefinitions();
  const entries = visibleMenu(definitions?.menu, (_permission, entry) => canOpen(entry, definitions?.resources ?? []));
  return (
    <nav id="menu-rapido" className={`side-menu border-end bg-body-tertiary${collapsed ? ' collapsed' : ''}`} aria-labelledby="menu-rapido-title">
      <div className="px-3 pt-3 pb-2">
        <h2 id="menu-rapido-title" className={`h6 mb-0${collapsed ? ' visually-hidden' : ''}`}>
          Menu Rapido
        </h2>
        <p className={`small text-body-secondary mb-0${collapsed ? ' visually-hidden' : ''}`}>Funzioni principali dell’utente</p>
      </div>
      {error && !collapsed && (
        <Notice variant="danger" className="mx-2 small">
          {error.message}
        </Notice>
      )}
      <ul className="nav nav-pills flex-column px-2 gap-1">
        {entries.map((entry) => (
          <li className="nav-item" key={`${entry.route}-${entry.title}`}>
            <NavLink
              to={entry.route}
              end={entry.route === '/'}
              className="nav-link d-flex align-items-center gap-2"
              title={collapsed ? entry.title : undefined}
            >
              <Icon name={entry.icon} />
              <span className={collapsed ? 'visually-hidden' : ''}>{entry.title}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function UserMenu({ onAccount }: { onAccount: () => void }) {
  const { data } = useSession();
  const navigate = useNavigate();
  const user = data?.user;
  const logout = async () => {
    try {
      await api.logout();
    } catch {
      // The token is dropped here whatever the server answers.
    }
    endSession();
    navigate('/login', { replace: true });
  };
  return (
    <Dropdown align="end">
      <Dropdown.Toggle
        variant="link"
        className="text-white text-decoration-none d-flex align-items-center gap-2"
        id="user-menu"
        aria-label={`Menu utente ${user?.name ?? ''}`}
      >
        <span
          className="user-initials rounded-circle bg-white text-primary fw-semibold d-inline-flex align-items-center justify-content-center"
          aria-hidden="true"
        >
          {user?.initials ?? '?'}
        </span>
        <span className="d-none d-md-inline">{user?.name}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu>
        <Dropdown.Header>
          <div className="fw-semibold text-body">{user?.name}</div>
          <div className="small">{user?.email}</div>
        </Dropdown.Header>
        <Dropdown.Divider />
        <Dropdown.Item as="button" onClick={onAccount}>
          <Icon name="person" size={16} /> Edit Account
        </Dropdown.Item>
        <Dropdown.Item as="button" onClick={logout}>
          <Icon name="logout" size={16} /> Esci
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}

/** One SWR cache per session: nothing one user loaded can show up for the next one. */
export default function MainLayout() {
  const { token } = useSession();
  return (
    <SWRConfig key={token ?? 'anonimo'} value={{ provider: () => new Map(), revalidateOnFocus: false }}>
      <Layout />
    </SWRConfig>
  );
}

function Layout() {
  const { data } = useSession();
  const meta = useCurrentPageMeta();
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSE_KEY) === '1');
  const [account, setAccount] = useState(false);
  const ambiente = typeof data?.environment?.ambiente === 'string' ? (data.environment.ambiente as string) : undefined;
  const toggle = () => {
    setCollapsed((value) => {
      localStorage.setItem(COLLAPSE_KEY, value ? '0' : '1');
      return !value;
    });
  };
  return (
    <div className="main-layout d-flex flex-column min-vh-100">
      <a href="#contenuto" className="visually-hidden-focusable position-absolute top-0 start-0 m-2 btn btn-light">
        Vai al contenuto
      </a>
      <header className={`top-bar navbar navbar-dark px-2 env-${ambiente ?? 'default'}`}>
        <div className="d-flex align-items-center gap-2">
          <button
            type="button"
            className="btn btn-link text-white"
            onClick={toggle}
            aria-expanded={!collapsed}
            aria-controls="menu-rapido"
            aria-label={collapsed ? 'Espandi il menu' : 'Comprimi il menu'}
          >
            <Icon name="menu" />
          </button>
          <span className="navbar-brand d-flex align-items-center gap-2 mb-0">
            <Logo size={28} />
            {APP_NAME}
          </span>
          {ambiente && !/^prod/i.test(ambiente) && (
            <Badge bg="light" text="dark" className="text-uppercase">
              {ambiente}
            </Badge>
          )}
        </div>
        <Cerca />
        <UserMenu onAccount={() => setAccount(true)} />
      </header>
      <div className="d-flex flex-grow-1">
        <SideMenu collapsed={collapsed} />
        <main id="contenuto" className="flex-grow-1 p-3 p-lg-4 min-w-0" tabIndex={-1}>
          <div className="page-header d-flex align-items-center gap-2 mb-3">
            <Icon name={meta.icon} size={26} className="text-primary" />
            <h1 className="h3 mb-0">{meta.title ?? APP_NAME}</h1>
          </div>
          <Outlet />
        </main>
      </div>
      <AccountDialog show={account} onClose={() => setAccount(false)} />
    </div>
  );
}

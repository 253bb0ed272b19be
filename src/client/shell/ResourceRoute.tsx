// Resolves list/new/edit paths of every resource in /api/definitions (aliases included) to the generic screens,
// then the dashboard cards' routes to their named page (or an honest notice while there is none).
import { Suspense } from 'react';
import { lazyScreen as lazy } from '../lib/lazyScreen.ts';
import { useLocation } from 'react-router-dom';
import { can, preloadWorkflows } from '../lib/access.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import { PageSpinner } from './guards.tsx';
import { matchResource } from './menu.ts';
import { cardAt } from './sections.ts';
import { deskPage } from '../pages/registry.ts';

const ResourceListPage = lazy(() => import('../renderer/ResourceListPage.tsx'));
const ResourceFormPage = lazy(() => import('../renderer/ResourceFormPage.tsx'));
const ComingSoon = lazy(() => import('./ComingSoon.tsx'));

function Message({ title, text }: { title: string; text: string }) {
  usePageMeta({ title });
  return (
    <Notice variant="secondary" role="alert">
      {text}
    </Notice>
  );
}

export default function ResourceRoute() {
  const { pathname } = useLocation();
  const { definitions, error, isLoading } = useDefinitions();
  if (isLoading) return <PageSpinner />;
  if (error) return <Message title="Errore" text={error.message} />;
  const found = matchResource(definitions?.resources ?? [], pathname);
  if (!found) {
    const card = cardAt(definitions?.dashboard, pathname);
    if (!card) return <Message title={msg.pageNotFound} text={`${msg.pageNotFound}: ${pathname}`} />;
    const Desk = card.page ? deskPage(card.page) : undefined;
    return <Suspense fallback={<PageSpinner />}>{Desk ? <Desk card={card} /> : <ComingSoon card={card} />}</Suspense>;
  }
  const { def, mode, id } = found;
  const allowed = can(def, mode === 'list' ? 'list' : mode === 'new' ? 'create' : 'read');
  if (!allowed) return <Message title={def.resource.title} text={msg.noPermission} />;
  // A resource with a status machine: its code downloads beside the page's chunk, not after it.
  preloadWorkflows(def);
  return (
    <Suspense fallback={<PageSpinner />}>
      {mode === 'list' ? <ResourceListPage key={def.name} def={def} /> : <ResourceFormPage key={`${def.name}:${id ?? 'new'}`} def={def} id={id} />}
    </Suspense>
  );
}

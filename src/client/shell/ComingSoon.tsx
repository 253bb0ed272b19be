// Pages behind the dashboard cards: not specified yet, so they say so plainly (no invented data).
import { Link, useLocation } from 'react-router-dom';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import { DASHBOARD_SECTIONS } from './sections.ts';

export default function ComingSoon() {
  const { pathname } = useLocation();
  const section = DASHBOARD_SECTIONS.find((s) => s.path === pathname);
  usePageMeta({ title: section?.title, icon: section?.icon });
  return (
    <Notice variant="secondary">
      <p className="fw-semibold mb-1">{msg.notAvailable}</p>
      <p className="mb-2">{msg.notAvailableDetail}</p>
      <Link to="/dashboard">Torna alla Dashboard</Link>
    </Notice>
  );
}

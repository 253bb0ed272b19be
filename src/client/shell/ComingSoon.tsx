// A dashboard card's page that no resource or named page serves yet: it says so plainly (no invented data).
import { Link } from 'react-router-dom';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import type { DashboardCard } from './sections.ts';

export default function ComingSoon({ card }: { card: DashboardCard }) {
  usePageMeta({ title: card.title, icon: card.icon });
  return (
    <Notice variant="secondary">
      <p className="fw-semibold mb-1">{msg.notAvailable}</p>
      <p className="mb-2">{msg.notAvailableDetail}</p>
      <Link to="/dashboard">Torna alla Dashboard</Link>
    </Notice>
  );
}

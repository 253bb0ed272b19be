// Maintenance page (/manutenzione), reached on any 503; offers to try again.
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Button from 'react-bootstrap/Button';
import { api } from '../api/dataProvider.ts';
import { getToken } from '../api/session.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import { msg } from '../messages.ts';
import { Logo, PlainLayout } from './PlainLayout.tsx';

export default function MaintenancePage() {
  usePageMeta({ title: msg.maintenance });
  const navigate = useNavigate();
  const [still, setStill] = useState(false);
  const retry = async () => {
    try {
      const env = await api.environment();
      if (!env.maintenance) {
        navigate(getToken() ? '/dashboard' : '/login', { replace: true });
        return;
      }
    } catch {
      // Still unreachable: stay here.
    }
    setStill(true);
  };
  return (
    <PlainLayout>
      <div className="text-center mx-auto" style={{ maxWidth: 560 }}>
        <Logo size={48} />
        <h1 className="h3 mt-3">{msg.maintenance}</h1>
        <p className="text-body-secondary">{msg.maintenanceText}</p>
        <Button variant="primary" onClick={retry}>
          Riprova
        </Button>
        {still && (
          <Notice variant="info" className="mt-3" role="status">
            Il sito è ancora in aggiornamento.
          </Notice>
        )}
      </div>
    </PlainLayout>
  );
}

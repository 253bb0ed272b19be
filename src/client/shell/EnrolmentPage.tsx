// Where a user whose role requires two-step verification lands until they turn it on (every other call answers MFA_REQUIRED).
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router-dom';
import { api } from '../api/dataProvider.ts';
import { endSession, markMfaRequired } from '../api/session.ts';
import { usePageMeta } from '../lib/pageMeta.tsx';
import { Notice } from '../lib/ui.tsx';
import MfaEnrolment from './MfaEnrolment.tsx';
import { PlainLayout } from './PlainLayout.tsx';

export default function EnrolmentPage() {
  usePageMeta({ title: 'Attiva la verifica in due passaggi' });
  const navigate = useNavigate();
  const logout = async () => {
    await api.logout().catch(() => {});
    endSession();
    navigate('/login', { replace: true });
  };
  return (
    <PlainLayout>
      <div className="mx-auto" style={{ maxWidth: 520 }}>
        <Card className="shadow-sm">
          <Card.Body className="p-4">
            <h1 className="h4 mb-3">Attiva la verifica in due passaggi</h1>
            <Notice variant="warning" role="status">
              Attiva la verifica in due passaggi per continuare: il tuo ruolo la richiede.
            </Notice>
            <MfaEnrolment
              onDone={() => {
                markMfaRequired(false);
                navigate('/dashboard', { replace: true });
              }}
            />
            <hr />
            <Button variant="link" className="p-0" onClick={() => void logout()}>
              Esci
            </Button>
          </Card.Body>
        </Card>
      </div>
    </PlainLayout>
  );
}

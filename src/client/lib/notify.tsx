// Success/failure notices (toasts) with the server's message; one provider at the app root.
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';

export type NoticeVariant = 'success' | 'danger' | 'warning' | 'info';
interface Notice {
  id: number;
  variant: NoticeVariant;
  text: string;
}

type Notify = (variant: NoticeVariant, text: string) => void;
const NotifyContext = createContext<Notify>(() => undefined);

let nextId = 1;

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const notify = useCallback<Notify>((variant, text) => {
    setNotices((list) => [...list.slice(-3), { id: nextId++, variant, text }]);
  }, []);
  const dismiss = (id: number) => setNotices((list) => list.filter((n) => n.id !== id));
  const value = useMemo(() => notify, [notify]);
  return (
    <NotifyContext.Provider value={value}>
      {children}
      <ToastContainer position="top-end" className="p-3 position-fixed" style={{ zIndex: 1090 }}>
        {notices.map((notice) => (
          <Toast
            key={notice.id}
            bg={notice.variant}
            onClose={() => dismiss(notice.id)}
            autohide={notice.variant === 'success' || notice.variant === 'info'}
            delay={5000}
            // Failures interrupt (alert), successes wait their turn (status).
            role={notice.variant === 'danger' ? 'alert' : 'status'}
            aria-live={notice.variant === 'danger' ? 'assertive' : 'polite'}
            data-testid="notice"
          >
            <Toast.Header closeLabel="Chiudi">
              <strong className="me-auto">{notice.variant === 'danger' ? 'Errore' : notice.variant === 'warning' ? 'Attenzione' : 'Fatto'}</strong>
            </Toast.Header>
            <Toast.Body className={notice.variant === 'warning' || notice.variant === 'info' ? '' : 'text-white'}>{notice.text}</Toast.Body>
          </Toast>
        ))}
      </ToastContainer>
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NotifyContext);
}

// Success/failure notices (toasts) with the server's message; one provider at the app root, plain Bootstrap markup.
import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import type { ReactNode } from 'react';

export type NoticeVariant = 'success' | 'danger' | 'warning' | 'info';
interface Notice {
  id: number;
  variant: NoticeVariant;
  text: string;
}

type Notify = (variant: NoticeVariant, text: string) => void;
const NotifyContext = createContext<Notify>(() => undefined);

let nextId = 1;
const TITLES: Record<NoticeVariant, string> = { success: 'Fatto', danger: 'Errore', warning: 'Attenzione', info: 'Informazione' };

function ToastItem({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  // Successes fade away; failures stay until closed, so nobody misses them.
  useEffect(() => {
    if (notice.variant === 'danger' || notice.variant === 'warning') return;
    const timer = setTimeout(onClose, 5000);
    return () => clearTimeout(timer);
  }, [notice.variant, onClose]);
  const dark = notice.variant === 'success' || notice.variant === 'danger';
  return (
    <div className={`toast show text-bg-${notice.variant}`} data-testid="notice" role={notice.variant === 'danger' ? 'alert' : 'status'} aria-atomic="true">
      <div className="toast-header">
        <strong className="me-auto">{TITLES[notice.variant]}</strong>
        <button type="button" className="btn-close" aria-label="Chiudi" onClick={onClose} />
      </div>
      <div className={`toast-body${dark ? ' text-white' : ''}`}>{notice.text}</div>
    </div>
  );
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const notify = useCallback<Notify>((variant, text) => {
    setNotices((list) => [...list.slice(-3), { id: nextId++, variant, text }]);
  }, []);
  const dismiss = useCallback((id: number) => setNotices((list) => list.filter((n) => n.id !== id)), []);
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <div className="toast-container position-fixed top-0 end-0 p-3" style={{ zIndex: 1090 }}>
        {notices.map((notice) => (
          <ToastItem key={notice.id} notice={notice} onClose={() => dismiss(notice.id)} />
        ))}
      </div>
    </NotifyContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NotifyContext);
}

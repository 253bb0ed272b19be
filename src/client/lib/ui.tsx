// Tiny Bootstrap-markup pieces (alert, spinner) with no react-bootstrap runtime, so the login route stays light.
import type { ReactNode } from 'react';

export type Variant = 'primary' | 'secondary' | 'success' | 'danger' | 'warning' | 'info' | 'light' | 'dark';

export function Notice(props: { variant: Variant; role?: 'alert' | 'status'; className?: string; testId?: string; children: ReactNode; labelledBy?: string }) {
  const { variant, role, className, testId, children, labelledBy } = props;
  return (
    <div className={`alert alert-${variant}${className ? ` ${className}` : ''}`} role={role} data-testid={testId} aria-labelledby={labelledBy}>
      {children}
    </div>
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="d-inline-flex align-items-center gap-2" role="status">
      <span className="spinner-border spinner-border-sm" aria-hidden="true" />
      {label && <span>{label}</span>}
    </span>
  );
}

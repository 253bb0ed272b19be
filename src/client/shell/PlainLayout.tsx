// Plain layout (spec 000 §2.2): the page centred with maximum width 1280.
import type { ReactNode } from 'react';

export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <main className="plain-layout mx-auto px-3 py-5" style={{ maxWidth: 1280 }}>
      {children}
    </main>
  );
}

export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M12 2.5l8 3v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6z" fill="#0b5ed7" />
      <path d="M8.5 12l2.5 2.5 4.5-5" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

// Small stroke icons by name (menu, page header, dashboard cards); unknown names get a neutral dot.
import type { ReactElement } from 'react';

const paths: Record<string, ReactElement> = {
  dashboard: (
    <>
      <rect x="3" y="3" width="7" height="9" rx="1" />
      <rect x="14" y="3" width="7" height="5" rx="1" />
      <rect x="14" y="12" width="7" height="9" rx="1" />
      <rect x="3" y="16" width="7" height="5" rx="1" />
    </>
  ),
  people: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20c.8-3.6 3.4-5.5 6.5-5.5s5.7 1.9 6.5 5.5" />
      <circle cx="17" cy="9" r="2.5" />
      <path d="M16 14.6c2.6.2 4.6 1.9 5.3 4.9" />
    </>
  ),
  person: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c1-4.2 4.1-6.5 8-6.5s7 2.3 8 6.5" />
    </>
  ),
  open: (
    <>
      <path d="M14 4h6v6M20 4l-9 9" />
      <path d="M18 14v6H4V6h6" />
    </>
  ),
  document: (
    <>
      <path d="M6 2.5h8l4.5 4.5v14.5H6z" />
      <path d="M14 2.5V7h4.5M9 12h6M9 16h6" />
    </>
  ),
  building: (
    <>
      <rect x="4" y="3" width="16" height="18" rx="1" />
      <path d="M8 7h2M14 7h2M8 11h2M14 11h2M8 15h2M14 15h2M10.5 21v-3h3v3" />
    </>
  ),
  car: (
    <>
      <path d="M3 16v-4l2.5-5h13L21 12v4z" />
      <circle cx="7" cy="16.5" r="1.8" />
      <circle cx="17" cy="16.5" r="1.8" />
      <path d="M3 12h18" />
    </>
  ),
  shield: <path d="M12 2.5l8 3v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6z" />,
  cash: (
    <>
      <rect x="2.5" y="6" width="19" height="12" rx="1.5" />
      <circle cx="12" cy="12" r="2.8" />
      <path d="M6 9.5v5M18 9.5v5" />
    </>
  ),
  folder: <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h5l2 2.5h8A1.5 1.5 0 0 1 21 9v9.5a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5z" />,
  list: <path d="M8 6h13M8 12h13M8 18h13M3.5 6h.01M3.5 12h.01M3.5 18h.01" />,
  box: (
    <>
      <path d="M3 7.5l9-4.5 9 4.5v9l-9 4.5-9-4.5z" />
      <path d="M3 7.5l9 4.5 9-4.5M12 12v9" />
    </>
  ),
  receipt: (
    <>
      <path d="M5 2.5h14v19l-2.5-1.5-2.3 1.5-2.2-1.5-2.2 1.5-2.3-1.5L5 21.5z" />
      <path d="M8.5 8h7M8.5 12h7M8.5 16h4" />
    </>
  ),
  chart: <path d="M3 21h18M6 17V11M11 17V6M16 17v-8M21 17V4" />,
  gear: (
    <>
      <circle cx="12" cy="12" r="3.2" />
      <path d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1" />
    </>
  ),
  tools: <path d="M14.5 6.5a4 4 0 0 0 5 5L12 19a2.1 2.1 0 0 1-3-3l7.5-7.5zM4 4l5 5M3 8l1-1M7 4l1-1" />,
  menu: <path d="M3 6h18M3 12h18M3 18h18" />,
  logout: (
    <>
      <path d="M9 21H5a1.5 1.5 0 0 1-1.5-1.5v-15A1.5 1.5 0 0 1 5 3h4" />
      <path d="M16 17l5-5-5-5M21 12H9" />
    </>
  ),
  edit: <path d="M16.5 3.5l4 4L8 20H4v-4z" />,
  trash: (
    <>
      <path d="M3.5 6h17M9 6V3.5h6V6M5.5 6l1 15h11l1-15" />
      <path d="M10 10.5v6M14 10.5v6" />
    </>
  ),
  plus: <path d="M12 4v16M4 12h16" />,
  search: (
    <>
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="M15.5 15.5L21 21" />
    </>
  ),
  filter: <path d="M3 4.5h18l-7 8.5v6l-4 2v-8z" />,
  download: <path d="M12 3.5v12M7 11l5 5 5-5M4 20.5h16" />,
  columns: (
    <>
      <rect x="3" y="4" width="18" height="16" rx="1" />
      <path d="M9 4v16M15 4v16" />
    </>
  ),
  eye: (
    <>
      <path d="M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  refresh: <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />,
  calendar: (
    <>
      <rect x="3.5" y="5" width="17" height="15.5" rx="1.5" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </>
  ),
  clock: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 7.5V12l3 2" />
    </>
  ),
  envelope: (
    <>
      <rect x="3" y="5.5" width="18" height="13" rx="1.5" />
      <path d="M3.5 6.5l8.5 6.5 8.5-6.5" />
    </>
  ),
  chevronLeft: <path d="M15 5l-7 7 7 7" />,
  chevronRight: <path d="M9 5l7 7-7 7" />,
  home: (
    <>
      <path d="M3 11l9-7.5 9 7.5" />
      <path d="M5.5 9.5V20h13V9.5" />
    </>
  ),
};

const aliases: Record<string, string> = {
  speedometer: 'dashboard',
  speedometer2: 'dashboard',
  grid: 'dashboard',
  users: 'people',
  clienti: 'people',
  'person-badge': 'person',
  user: 'person',
  'person-circle': 'person',
  'file-text': 'document',
  file: 'document',
  'file-earmark-text': 'document',
  documents: 'document',
  bank: 'building',
  briefcase: 'building',
  'car-front': 'car',
  'shield-check': 'shield',
  wallet: 'cash',
  'cash-stack': 'cash',
  euro: 'cash',
  archive: 'folder',
  'list-ul': 'list',
  'box-seam': 'box',
  'box-arrow-in-right': 'box',
  'file-earmark-check': 'document',
  'person-gear': 'gear',
  'people-fill': 'people',
  'bar-chart': 'chart',
  'graph-up': 'chart',
  wrench: 'tools',
  'gear-fill': 'gear',
};

/** Whether a definition's icon name draws an icon (the dot is the fallback). */
export const knownIcon = (name: string): boolean => Boolean(paths[name] ?? aliases[name]);

export function Icon({ name, size = 20, className }: { name?: string; size?: number; className?: string }) {
  const key = name ? (paths[name] ? name : aliases[name]) : undefined;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
      focusable="false"
    >
      {key ? paths[key] : <circle cx="12" cy="12" r="3" />}
    </svg>
  );
}

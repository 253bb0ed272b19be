// Cards of the dashboard (spec 002 §2.1); the pages behind them are not specified yet.

export interface Section {
  path: string;
  title: string;
  icon: string;
}

export const DASHBOARD_SECTIONS: Section[] = [
  { path: '/prodotti', title: 'Prodotti', icon: 'box' },
  { path: '/appendici', title: 'Appendici', icon: 'document' },
  { path: '/track_gestione_documenti', title: 'Track Gestione Documenti', icon: 'list' },
  { path: '/estratto_conto', title: 'Estratto Conto', icon: 'receipt' },
  { path: '/provvigionale', title: 'Provvigionale', icon: 'chart' },
  { path: '/gestione_incassi', title: 'Gestione Incassi', icon: 'cash' },
  { path: '/quietanze', title: 'Quietanze', icon: 'shield' },
  { path: '/gestione_documenti', title: 'Gestione Documenti', icon: 'folder' },
];

// The expiry calendar's own routes, named once (called through the data layer).
export const SCADENZIARIO_ROUTES = {
  rinnovoPerso: '/api/scadenziario/{id}/rinnovo-perso',
  modelli: '/api/scadenziario/avvisi/modelli',
  anteprima: '/api/scadenziario/{id}/avvisi/{modello}',
  avvisi: '/api/scadenziario/{id}/avvisi',
} as const;

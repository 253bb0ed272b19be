// The scheduler's routes, named once (called through the data layer).
export const PIANIFICAZIONI_ROUTES = {
  elenco: '/api/pianificazioni',
  esegui: '/api/pianificazioni/{nome}/esegui',
  attiva: '/api/pianificazioni/{nome}',
} as const;

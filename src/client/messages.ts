// The one catalogue of Italian texts the client shows that do not come from the definitions.

export const APP_NAME = 'Broker Back Office';

export const msg = {
  networkError: 'Errore di connessione al server',
  sessionExpired: 'Sessione scaduta. Effettua nuovamente il login.',
  notFound: '[404] risorsa non trovata',
  forbidden: 'Non hai i permessi per questa operazione.',
  maintenance: 'Sito in aggiornamento',
  maintenanceText: 'Il sito è in manutenzione. Riprova tra qualche minuto.',
  genericError: 'Si è verificato un errore imprevisto.',
  required: 'Campo Obbligatorio.',
  confirmDelete: "Conferma l'eliminazione",
  confirmDeleteText: 'Vuoi davvero eliminare questo elemento? L’operazione non si può annullare.',
  emptyList: 'nessun elemento trovato',
  notAvailable: 'Questa sezione non è ancora disponibile.',
  notAvailableDetail: 'Le funzioni di questa pagina saranno attivate in una prossima versione del back office.',
  conflict: 'Il record è stato modificato da un altro utente',
  conflictDetail:
    'Le tue modifiche non sono state salvate e restano nel modulo. Ricarica il record per vedere la versione aggiornata: ti mostreremo i valori che avevi inserito.',
  unsavedTitle: 'Modifiche non salvate',
  unsavedText: 'Ci sono modifiche non salvate. Vuoi uscire senza salvare?',
  saving: 'Salvataggio in corso…',
  loading: 'Caricamento…',
  pageNotFound: 'Pagina non trovata',
  noPermission: 'Non hai i permessi per visualizzare questa pagina.',
} as const;

/** Italian messages for the ajv keywords, worded as the server's (src/shared/validation.ts) so both sides agree. */
export const ajvMessages: Record<string, (params: Record<string, unknown>) => string> = {
  required: () => msg.required,
  maxLength: (p) => `Massimo ${String(p.limit)} caratteri`,
  minLength: (p) => `Almeno ${String(p.limit)} caratteri`,
  minimum: (p) => `Il valore minimo è ${String(p.limit)}`,
  maximum: (p) => `Il valore massimo è ${String(p.limit)}`,
  exclusiveMinimum: (p) => `Il valore deve essere maggiore di ${String(p.limit)}`,
  exclusiveMaximum: (p) => `Il valore deve essere minore di ${String(p.limit)}`,
  pattern: () => 'Formato non valido',
  type: (p) => (p.type === 'integer' ? 'Inserisci un numero intero' : p.type === 'number' ? 'Inserisci un numero' : 'Tipo di dato non valido'),
  enum: () => 'Valore non ammesso',
  const: () => 'Valore non ammesso',
  oneOf: () => 'Valore non ammesso',
  additionalProperties: () => 'Campo non consentito.',
  minItems: (p) => `Almeno ${String(p.limit)} elementi`,
  maxItems: (p) => `Al massimo ${String(p.limit)} elementi`,
  uniqueItems: () => 'Valori duplicati',
};

/** Messages for standard formats not covered by the shared Italian validators; dates are typed as GG/MM/AAAA here. */
export const formatMessages: Record<string, string> = {
  date: 'Data non valida (GG/MM/AAAA)',
  'date-time': 'Data e ora non valide',
  email: 'Indirizzo email non valido',
};

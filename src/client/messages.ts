// The one catalogue of Italian texts the client shows that do not come from the definitions.
import { REQUIRED_MESSAGE } from '../shared/validation-messages.ts';

export const APP_NAME = 'Broker Back Office';

export const msg = {
  networkError: 'Errore di connessione al server',
  sessionExpired: 'Sessione scaduta. Effettua nuovamente il login.',
  notFound: '[404] risorsa non trovata',
  forbidden: 'Non hai i permessi per questa operazione.',
  maintenance: 'Sito in aggiornamento',
  maintenanceText: 'Il sito è in manutenzione. Riprova tra qualche minuto.',
  genericError: 'Si è verificato un errore imprevisto.',
  required: REQUIRED_MESSAGE,
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

// Validation texts live with the validator shared by server and client.
export { keywordMessages as ajvMessages, formatMessages } from '../shared/validation-messages.ts';

// Loads every domain's registrations (hooks, custom routes); generic code reaches domains only through here.
import './utente/hooks.ts';

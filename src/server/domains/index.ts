// Loads every domain's registrations (hooks, custom routes); generic code reaches domains only through here.
import './utente/hooks.ts';
import './riferimenti/index.ts';
import './collaboratore/index.ts';
import './compagnia/index.ts';
import './autostoriche/index.ts';
import './quotazione/hooks.ts';
import './quotazione/routes.ts';
import './quotazione/pubblico.ts';
import './polizza/index.ts';
import './quotazione/documenti.ts';
import './quotazione/diretta.ts';
import './categoria_prodotto/documenti.ts';

// Loads every domain's registrations (hooks, custom routes); generic code reaches domains only through here.
import './utente/hooks.ts';
import './riferimenti/index.ts';
import './collaboratore/index.ts';
import './compagnia/index.ts';
import './compagnia_contrattuale/index.ts';
import './categoria_prodotto/index.ts';
import './prodotto_assegnato/index.ts';
import './autostoriche/index.ts';
import './quotazione/hooks.ts';
import './quotazione/routes.ts';
import './quotazioni_rca/index.ts';
import './polizza/index.ts';
import './quotazione/documenti.ts';
import './categoria_prodotto/documenti.ts';
import './quotazione/registri.ts';
import './polizza_auto_storica/index.ts';

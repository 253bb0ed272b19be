// Every domain of the back office, in load order (a domain's dependencies before it). The entry points pass this
// list to buildApp and prepareDatabase; nothing in the engine imports a domain.
import utente from './utente/index.ts';
import riferimenti from './riferimenti/index.ts';
import collaboratore from './collaboratore/index.ts';
import compagnia from './compagnia/index.ts';
import cliente from './cliente/index.ts';
import compagniaContrattuale from './compagnia_contrattuale/index.ts';
import categoriaProdotto from './categoria_prodotto/index.ts';
import prodottoAssegnato from './prodotto_assegnato/index.ts';
import autostoriche from './autostoriche/index.ts';
import quotazione from './quotazione/index.ts';
import quotazioniRca from './quotazioni_rca/index.ts';
import polizza from './polizza/index.ts';
import polizzaAutoStorica from './polizza_auto_storica/index.ts';
import gestioneDocumenti from './gestione_documenti/index.ts';
import dashboard from './dashboard/index.ts';
import incasso from './incasso/index.ts';
import quietanza from './quietanza/index.ts';
import estrattoConto from './estratto_conto/index.ts';
import provvigionale from './provvigionale/index.ts';
import scadenziario from './scadenziario/index.ts';
import type { Domain } from '../extensions.ts';

export const domains: readonly Domain[] = [
  utente, riferimenti, collaboratore, cliente, compagnia, compagniaContrattuale, categoriaProdotto, prodottoAssegnato, autostoriche,
  quotazione, quotazioniRca, polizza, polizzaAutoStorica, gestioneDocumenti, dashboard, incasso, quietanza, estrattoConto, provvigionale, scadenziario,
];

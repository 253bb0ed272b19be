// Issue 4 (suppliers, contractual companies, mandate rows, assigned products): one import in domains/index.ts loads all four domains.
import './hooks.ts';
import './routes.ts';
import '../compagnia_contrattuale/hooks.ts';
import '../categoria_prodotto/hooks.ts';
import '../categoria_prodotto/routes.ts';
import '../prodotto_assegnato/hooks.ts';

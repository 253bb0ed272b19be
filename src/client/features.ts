// Feature modules: each registers its widgets in the widget registry (which imports no page) and its machine's own
// guards (the quotation's, shared with the server's quotation domain). The screens that read the registry call this
// (MainLayout, the public quotation page) rather than the entry, so the login route loads neither the registry nor its
// widgets; tests that render a feature's form call it too.
import { registerQuotazioneWidgets } from './pages/quotazione/lazyWidgets.tsx';
import { ProdottoPolizzaWidget } from './pages/polizza/lazyWidgets.tsx';
import { QuietanzaPdfCell } from './pages/finanza/QuietanzaPdfCell.tsx';
import { ModificheCell } from './pages/storico/ModificheCell.tsx';
import { RinnovoCell } from './pages/scadenziario/RinnovoCell.tsx';
import { AvvisiCell } from './pages/scadenziario/AvvisiCell.tsx';
import { registerWidget } from './widgets/registry.ts';
import { registerWorkflowGuards } from './lib/workflowGuards.ts';
import { QUOTAZIONE_GUARDS, QUOTAZIONE_MACHINE } from '../shared/domains/quotazione/guards.ts';

let done = false;

export function registerFeatures(): void {
  if (done) return;
  done = true;
  registerQuotazioneWidgets();
  registerWorkflowGuards(QUOTAZIONE_MACHINE, QUOTAZIONE_GUARDS);
  // A policy's product, filtered by the chosen branch, contractual company and supplier (spec 002 §2.3).
  // QUIETANZE: the receipt number with its PDF button (list.json format "quietanza_pdf").
  registerWidget('quietanza_pdf', { cell: QuietanzaPdfCell, sample: { schema: { type: 'integer' }, value: 42 } });
  // STORICO: an entry's changes as 'Campo: prima → dopo' (the desk's list format "storico_modifiche").
  registerWidget('storico_modifiche', { cell: ModificheCell, sample: { schema: { type: 'array' }, value: [{ campo: 'iban', da: 'IT60X', a: 'IT02A' }] } });
  // SCADENZIARIO: the renewal's state with 'Prepara rinnovo' (list.json format "rinnovo_scadenza").
  registerWidget('rinnovo_scadenza', { cell: RinnovoCell, sample: { schema: { type: 'string' }, value: 'PREPARATO' } });
  // SCADENZIARIO: the notices sent, with the templates' preview and 'Invia avviso' (list.json format "avvisi_scadenza").
  registerWidget('avvisi_scadenza', { cell: AvvisiCell, sample: { schema: { type: 'string' }, value: 'Avviso a 30 giorni dalla scadenza 28/11/2026' } });
  registerWidget('prodotto_polizza', { widget: ProdottoPolizzaWidget, sample: { schema: { type: 'integer' } } });
}

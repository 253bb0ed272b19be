// Feature modules at start: each registers its widgets in the widget registry (which imports no page).
// main.tsx runs this before the first render; tests that render a feature's form call it too.
import { registerQuotazioneWidgets } from './pages/quotazione/lazyWidgets.tsx';
import { ProdottoPolizzaWidget } from './pages/polizza/lazyWidgets.tsx';
import { QuietanzaPdfCell } from './pages/finanza/QuietanzaPdfCell.tsx';
import { registerWidget } from './widgets/registry.ts';

let done = false;

export function registerFeatures(): void {
  if (done) return;
  done = true;
  registerQuotazioneWidgets();
  // A policy's product, filtered by the chosen branch, contractual company and supplier (spec 002 §2.3).
  // QUIETANZE: the receipt number with its PDF button (list.json format "quietanza_pdf").
  registerWidget('quietanza_pdf', { cell: QuietanzaPdfCell, sample: { schema: { type: 'integer' }, value: 42 } });
  registerWidget('prodotto_polizza', { widget: ProdottoPolizzaWidget, sample: { schema: { type: 'integer' } } });
}

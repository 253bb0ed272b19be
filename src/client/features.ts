// Feature modules at start: each registers its widgets in the widget registry (which imports no page).
// main.tsx runs this before the first render; tests that render a feature's form call it too.
import { registerQuotazioneWidgets } from './pages/quotazione/lazyWidgets.tsx';

let done = false;

export function registerFeatures(): void {
  if (done) return;
  done = true;
  registerQuotazioneWidgets();
}

// Quotation widgets, registered at start (src/client/features.ts): their code (tables, dialogs) loads only when a form asks for them.
import { lazy, Suspense } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import { registerWidget } from '../../widgets/registry.ts';

const Veicoli = lazy(() => import('./VeicoliStoriciWidget.tsx'));

export function VeicoliStoriciWidget(props: WidgetProps) {
  return (
    <Suspense fallback={<Spinner label={msg.loading} />}>
      <Veicoli {...props} />
    </Suspense>
  );
}

/** Called once at start by src/client/features.ts. */
export function registerQuotazioneWidgets(): void {
  // Historic vehicles of a quotation: table plus add-vehicle dialog (spec 001 §2).
  registerWidget('veicoli_storici', {
    widget: VeicoliStoriciWidget,
    ownsLabel: true,
    sample: {
      schema: { type: 'array', items: { type: 'object', properties: { marca: { type: 'string' }, modello: { type: 'string' }, anno: { type: 'integer' }, targa: { type: 'string' } } } },
      value: [{ marca: 'FIAT', modello: '500 F', anno: 1968, targa: 'RM123456' }],
    },
  });
}

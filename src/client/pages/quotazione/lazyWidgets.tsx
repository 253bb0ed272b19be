// Quotation widgets as the registry sees them: their code (tables, dialogs) loads only when a form asks for them.
import { lazy, Suspense } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';

const Veicoli = lazy(() => import('./VeicoliStoriciWidget.tsx'));

export function VeicoliStoriciWidget(props: WidgetProps) {
  return (
    <Suspense fallback={<Spinner label={msg.loading} />}>
      <Veicoli {...props} />
    </Suspense>
  );
}

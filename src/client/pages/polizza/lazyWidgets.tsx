// Policy widgets as the registry sees them: their code loads only when the policy form asks for them.
import { lazy, Suspense } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';

const Prodotto = lazy(() => import('./ProdottoPolizzaWidget.tsx'));

export function ProdottoPolizzaWidget(props: WidgetProps) {
  return (
    <Suspense fallback={<Spinner label={msg.loading} />}>
      <Prodotto {...props} />
    </Suspense>
  );
}

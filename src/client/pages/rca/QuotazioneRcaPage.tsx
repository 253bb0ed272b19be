// The fast-quotation stepper (spec 002 §2.4, §4.1) at /new/quotazioni_rca and /modifica/quotazioni_rca/{id}.
import { Suspense, useMemo } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import Button from 'react-bootstrap/Button';
import { usePageMeta } from '../../lib/pageMeta.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import type { CustomPageProps } from '../registry.ts';
import { ErroreServer } from './ErroriDialog.tsx';
import { StepCliente } from './StepCliente.tsx';
import { StepConferma } from './StepConferma.tsx';
import { StepDati } from './StepDati.tsx';
import { StepGaranzie } from './StepGaranzie.tsx';
import { STEPS, useQuotazioneRca } from './useQuotazioneRca.ts';
import { TEXTS } from './texts.ts';
import { WithFormValidators } from '../../renderer/WithFormValidators.tsx';
import { StoricoTab } from '../../renderer/storicoTab.ts';
import './rca.css';

export default function QuotazioneRcaPage({ def, id }: CustomPageProps) {
  // The request's own schema: step 2 checks it before anything is sent.
  const schemas = useMemo(() => [def.schema.properties!.quotation_request! as RJSFSchema], [def]);
  return (
    <WithFormValidators schemas={schemas}>
      <QuotazioneRca def={def} id={id} />
    </WithFormValidators>
  );
}

function QuotazioneRca({ def, id }: CustomPageProps) {
  const ctl = useQuotazioneRca(def, id);
  usePageMeta({ title: id ? `${TEXTS.title} n. ${id}` : TEXTS.title, icon: def.resource.icon });
  if (ctl.loadError) return <Notice variant="danger" role="alert">{ctl.loadError.message}</Notice>;
  if (ctl.loading) return <Spinner label="Caricamento…" />;
  // Step 1 is done only once a customer is chosen; later steps once passed.
  const done = (n: number) => (n === 1 ? ctl.clienteId !== undefined : n < ctl.step);
  return (
    <div className="rca-stepper">
      <ol className="rca-steps" aria-label="Passi della quotazione">
        {STEPS.map((title, i) => {
          const n = i + 1;
          const state = n === ctl.step ? 'current' : done(n) ? 'done' : 'todo';
          return (
            <li key={title} className={`rca-step rca-step-${state}`} aria-current={n === ctl.step ? 'step' : undefined} data-done={done(n) ? 'true' : 'false'}>
              <span className="rca-step-marker" aria-hidden="true">{state === 'done' ? '✓' : n}</span>
              <span className="rca-step-title">{title}</span>
            </li>
          );
        })}
      </ol>
      {ctl.serverError && <ErroreServer error={ctl.serverError} />}
      <div className="rca-step-body mb-3">
        {ctl.step === 1 && <StepCliente ctl={ctl} />}
        {ctl.step === 2 && <StepDati def={def} ctl={ctl} />}
        {ctl.step === 3 && <StepGaranzie ctl={ctl} />}
        {ctl.step === 4 && <StepConferma ctl={ctl} />}
      </div>
      <div className="d-flex gap-2 border-top pt-3">
        <Button variant="outline-secondary" onClick={ctl.indietro} disabled={ctl.step === 1}>{TEXTS.indietro}</Button>
        <Button variant="primary" onClick={ctl.avanti} disabled={ctl.step === 4}>{TEXTS.continua}</Button>
        {ctl.busy && <Spinner label="Operazione in corso…" />}
      </div>
      {ctl.recordId !== undefined && (
        // What was asked and answered, and by whom: read only (a quotation is asked again, not restored).
        <section className="mt-4" aria-labelledby="storico-rca">
          <h2 id="storico-rca" className="h5">{TEXTS.storico}</h2>
          <Suspense fallback={<Spinner label="Caricamento…" />}>
            <StoricoTab def={def} record={{ id: ctl.recordId, version: ctl.salvataggi }} title={TEXTS.storico} />
          </Suspense>
        </section>
      )}
    </div>
  );
}

// Step 4 'Conferma': the simulation number, the total and 'Conferma Quotazione', which sends the proposal.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { formatMoney } from '../../lib/format.ts';
import { Notice } from '../../lib/ui.tsx';
import type { QuotazioneRcaController } from './useQuotazioneRca.ts';
import { TEXTS } from './texts.ts';

export function StepConferma({ ctl }: { ctl: QuotazioneRcaController }) {
  const [sendMail, setSendMail] = useState(false);
  const common = ctl.response?.simulation.commonData;
  const quotation = ctl.response?.simulation.quotation;
  const person = ctl.richiesta.fastFlowData.personData;
  const contraente = ctl.clienteLabel || [person?.surname, person?.name].filter(Boolean).join(' ');
  return (
    <div>
      <dl className="row">
        <dt className="col-sm-3">{TEXTS.numeroSimulazione}</dt>
        <dd className="col-sm-9" data-testid="rca-conferma-simulazione">{common?.simulationNumber ?? 'non disponibile'}</dd>
        <dt className="col-sm-3">Contraente</dt>
        <dd className="col-sm-9">{contraente}{!ctl.clienteId && ' (nuovo cliente: sarà registrato alla conferma)'}</dd>
        <dt className="col-sm-3">Targa</dt>
        <dd className="col-sm-9">{String(ctl.richiesta.fastFlowData.plate ?? '')}</dd>
        <dt className="col-sm-3">Premio totale</dt>
        <dd className="col-sm-9">{formatMoney(quotation?.totalPrice)}</dd>
      </dl>
      {ctl.proposal ? (
        <Notice variant="success" role="status" testId="rca-proposta">
          {TEXTS.propostaInviata}: n. <strong>{ctl.proposal.proposalNumber}</strong>
        </Notice>
      ) : (
        <>
          <Form.Check type="switch" id="rca-invia-mail" className="mb-3" label={TEXTS.inviaMail} checked={sendMail} onChange={(e) => setSendMail(e.target.checked)} />
          <Button variant="success" onClick={() => void ctl.conferma(sendMail)} disabled={!common || quotation?.quotationStatus !== 'Quoted'}>
            {TEXTS.conferma}
          </Button>
        </>
      )}
    </div>
  );
}

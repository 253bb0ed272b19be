// The premium and commission panel of the policy form: 'Calcolo Premio' and 'Calcolo Provv. Su Netto e Competenze', computed as the user types.
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useRoute } from '../../api/hooks.ts';
import { POLIZZA_ROUTES } from './routes.ts';
import { formatMoney } from '../../lib/format.ts';
import type { JsonSchema, RecordData } from '../../types.ts';
import { calcolaProvvigioni, centesimi, euro, PARAMETRI_VUOTI, type ParametriProvvigioni } from '../../../shared/premi.ts';

const percent = new Intl.NumberFormat('it-IT', { maximumFractionDigits: 4 });
const idOf = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="col-sm-6 col-lg-4 mb-2">
      <div className="small text-body-secondary">{label}</div>
      <div className="fw-semibold font-monospace" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

export function PannelloProvvigioni({ data, schema }: { data: RecordData; schema: JsonSchema }) {
  const prodotto = idOf(data.mandato_prodotto_id);
  const collaboratore = idOf(data.collaboratore_id);
  const { data: answer } = useRoute<{ data: ParametriProvvigioni }>(POLIZZA_ROUTES.parametriProvvigioni, prodotto || collaboratore ? {} : null, {}, { query: { mandato_prodotto_id: prodotto, collaboratore_id: collaboratore } });
  const p = answer?.data ?? PARAMETRI_VUOTI;
  // The policy's amounts; accessories, SSN and issue fees are not on the policy form and count as zero.
  const input = {
    totale_netto: centesimi(data.totale_premio_imponibile as number),
    diritti: centesimi(data.diritti as number),
    accessori: 0,
    spese: centesimi(data.spese as number),
    imposte: centesimi(data.totale_premio_imposte as number),
    ssn: 0,
    spese_emissione: 0,
    competenze: centesimi(data.competenze as number),
  };
  const out = calcolaProvvigioni({ ...input, ...p });
  const money = (cents: number) => formatMoney(euro(cents));
  const tipi = new Map(((schema.properties?.tipo_pagamento?.oneOf ?? []) as Array<{ const: string; title?: string }>).map((o) => [o.const, o.title ?? o.const]));
  const tipoCollab = p.tipo_provvigione_collaboratore === 'PERC_RETROCESSIONE' ? 'Retrocessione' : 'Imponibile';
  return (
    <section aria-label="Calcolo premio e provvigioni" className="card card-body mt-3" data-testid="pannello-provvigioni">
      <Tabs defaultActiveKey="premio" id="pannello-provvigioni-tabs" className="mb-3">
        <Tab eventKey="premio" title="Calcolo Premio">
          <div className="row">
            <Row label="Tipo Pagamento" value={tipi.get(String(data.tipo_pagamento ?? '')) ?? '—'} />
            <Row label="Totale Netto" value={money(input.totale_netto)} />
            <Row label="Diritti" value={money(input.diritti)} />
            <Row label="Accessori" value={money(input.accessori)} />
            <Row label="Spese" value={money(input.spese)} />
            <Row label="Imposte" value={money(input.imposte)} />
            <Row label="SSN" value={money(input.ssn)} />
            <Row label="Premio Polizza" value={money(out.premio_polizza)} testId="premio-polizza" />
            <Row label="Spese Emissione" value={money(input.spese_emissione)} />
            <Row label="Competenze" value={money(input.competenze)} />
            <Row label="Totale Cliente" value={money(out.totale_cliente)} testId="totale-cliente" />
          </div>
        </Tab>
        <Tab eventKey="provvigioni" title="Calcolo Provv. Su Netto e Competenze">
          <div className="row">
            <Row label={`Ritenuta (${p.perc_ritenuta === null ? 'non indicata dal fornitore' : `${percent.format(p.perc_ritenuta)}%`})`} value={money(out.valore_ritenuta)} testId="valore-ritenuta" />
            <Row label="% Provvigione Broker" value={`${percent.format(p.perc_provvigioni_attive)}%`} />
            <Row label="Provvigione Broker" value={money(out.provvigioni_attive)} testId="provvigione-broker" />
            <Row label={`% Provvigione Collaboratore (${tipoCollab})`} value={`${percent.format(p.perc_provvigione_collaboratore)}%`} />
            <Row label="Provvigione Collaboratore" value={money(out.provvigione_collaboratore)} />
            <Row label={`Competenze Collaboratore (${percent.format(p.perc_competenze_collaboratore)}%)`} value={money(out.competenze_collaboratore)} />
            <Row label="Totale Collaboratore" value={money(out.collaboratore_totale)} testId="totale-collaboratore" />
          </div>
        </Tab>
      </Tabs>
    </section>
  );
}

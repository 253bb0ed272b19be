// Step 3 'Garanzie': two-pane coverage picker ruled by the shared catalogue, promotion, and the quotation status table with prices.
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Table from 'react-bootstrap/Table';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { Notice } from '../../lib/ui.tsx';
import { CATALOGO, disponibile, massimali } from '../../../shared/rca/garanzie.ts';
import type { QuotazioneRcaController } from './useQuotazioneRca.ts';
import { TEXTS } from './texts.ts';

export function StepGaranzie({ ctl }: { ctl: QuotazioneRcaController }) {
  const selected = ctl.richiesta.coverages.filter((c) => c.selected !== false);
  const chosen = new Set(selected.map((c) => c.code));
  const available = CATALOGO.garanzie.filter((g) => !chosen.has(g.code) && disponibile(g.code, ctl.category));
  const quotation = ctl.response?.simulation.quotation;
  const common = ctl.response?.simulation.commonData;
  const convention = String(ctl.richiesta.fastFlowData.convention ?? 'QP_STANDARD');
  return (
    <div>
      <div className="row g-3 mb-3">
        <section className="col-md-6" aria-labelledby="rca-disponibili">
          <h2 id="rca-disponibili" className="h6">{TEXTS.disponibili}</h2>
          <ListGroup data-testid="garanzie-disponibili">
            {available.map((g) => (
              <ListGroup.Item key={g.code} action onClick={() => ctl.selectCoverage(g.code)} aria-label={`Aggiungi ${g.code} ${g.description}`}>
                <strong>{g.code}</strong> {g.description}
                {g.Requires.length > 0 && <small className="text-muted d-block">Richiede {g.Requires.join(', ')}</small>}
                {g.Excludes.length > 0 && <small className="text-muted d-block">Esclude {g.Excludes.join(', ')}</small>}
              </ListGroup.Item>
            ))}
          </ListGroup>
        </section>
        <section className="col-md-6" aria-labelledby="rca-selezionate">
          <h2 id="rca-selezionate" className="h6">{TEXTS.selezionate}</h2>
          <ListGroup data-testid="garanzie-selezionate">
            {selected.map((c) => {
              const limits = massimali(c.code, ctl.category);
              const g = CATALOGO.garanzie.find((x) => x.code === c.code);
              return (
                <ListGroup.Item key={c.code} className="d-flex align-items-center gap-2 flex-wrap" data-code={c.code}>
                  <span className="flex-grow-1"><strong>{c.code}</strong> {g?.description ?? String(c.description ?? '')}</span>
                  {limits.length > 1 && (
                    <Form.Select size="sm" style={{ maxWidth: 320 }} aria-label={`${TEXTS.massimale} ${c.code}`} value={String(c.value ?? '')}
                      onChange={(event) => ctl.setCoverageValue(c.code, Number(event.target.value))}>
                      {limits.map((m) => <option key={m.value} value={String(m.value)}>{m.label}</option>)}
                    </Form.Select>
                  )}
                  {limits.length === 1 && <small className="text-muted">{TEXTS.massimale} {limits[0]!.label}</small>}
                  <Button size="sm" variant="outline-danger" aria-label={`Rimuovi ${c.code}`} onClick={() => ctl.deselectCoverage(c.code)}>✕</Button>
                </ListGroup.Item>
              );
            })}
          </ListGroup>
          {ctl.violazioni.length > 0 && (
            <Notice variant="warning" role="status" className="mt-2">
              <ul className="mb-0">{ctl.violazioni.map((v) => <li key={v.message}>{v.message}</li>)}</ul>
            </Notice>
          )}
        </section>
      </div>
      <Form.Group className="mb-2" controlId="rca-promozione" style={{ maxWidth: 420 }}>
        <Form.Label>{TEXTS.promozione}</Form.Label>
        <Form.Select value={convention} onChange={(event) => ctl.setConvention(event.target.value)}>
          {CATALOGO.promozioni.map((p) => <option key={p.code} value={p.code}>{p.label}</option>)}
        </Form.Select>
        <Form.Text>{TEXTS.promoNota}</Form.Text>
      </Form.Group>
      <div className="my-3">
        <Button onClick={() => void ctl.preventivo()}>{ctl.response ? TEXTS.aggiorna : TEXTS.richiedi}</Button>
      </div>
      {quotation?.quotationStatus === 'NotAvailable' && (
        <Notice variant="warning" role="status" testId="rca-non-disponibile">
          <strong>{TEXTS.nonDisponibile}</strong>{quotation.reason ? ` - ${quotation.reason}` : ''}
        </Notice>
      )}
      {quotation?.quotationStatus === 'Quoted' && common && (
        <section aria-labelledby="rca-stato">
          <h2 id="rca-stato" className="h6">Stato della quotazione</h2>
          <p className="mb-2">
            {TEXTS.numeroSimulazione}: <strong data-testid="rca-simulazione">{common.simulationNumber}</strong> · valida dal {formatDate(common.validityDate)} · simulazione fino al {formatDate(common.simulationEndDate)}
            {quotation.promoApplied ? ' · promozione applicata' : ''}
          </p>
          <Table size="sm" bordered responsive data-testid="rca-prezzi">
            <thead>
              <tr>
                <th>Garanzia</th><th>Prezzo</th><th>Prezzo dilazionato</th><th>Prezzo con Blackbox</th><th>Blackbox dilazionato</th><th>Pacchetto</th><th>Prezzo pacchetto</th>
              </tr>
            </thead>
            <tbody>
              {quotation.coverages.map((c) => (
                <tr key={c.code} data-code={c.code}>
                  <td>{c.code} {c.description}</td>
                  <td>{formatMoney(c.price)}</td>
                  <td>{formatMoney(c.priceDelay)}</td>
                  <td>{formatMoney(c.priceBlackbox)}</td>
                  <td>{formatMoney(c.priceBlackboxDelay)}</td>
                  <td>{c.packDescription ?? ''}</td>
                  <td>{c.packPrice === null ? '' : formatMoney(c.packPrice)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th>Totale</th>
                <th data-testid="rca-totale">{formatMoney(quotation.totalPrice)}</th>
                <th>{formatMoney(quotation.totalPriceDelay)}</th>
                <th colSpan={4} />
              </tr>
            </tfoot>
          </Table>
        </section>
      )}
    </div>
  );
}

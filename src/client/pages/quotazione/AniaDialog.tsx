// Full-screen dialog of a historic vehicle's registry data (spec 001 §2 'ANIA dialog'): tabs 'Dati Ania' and 'Avanzato'.
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import Table from 'react-bootstrap/Table';
import Button from 'react-bootstrap/Button';
import { FORME_TARIFFARIE, TIPI_SINISTRO, type DatiRegistro } from '../../../shared/registri.ts';
import { formatDate } from '../../lib/format.ts';
import { t } from './texts.ts';

export interface VeicoloConRegistro {
  targa?: string;
  marca?: string;
  modello?: string;
  json?: DatiRegistro | null;
  alert?: string | null;
  errore_registro?: string | null;
  sivi_tax_code?: string | null;
  sivi_registration_date?: string | null;
  sivi_vehicle_weight?: number | null;
  atrc_contract_expiration_date?: string | null;
  atrc_beneficiary_tax_code?: string | null;
  atrc_beneficiary_first_name?: string | null;
  atrc_beneficiary_last_name?: string | null;
  avente_diritto_nome?: string | null;
  avente_diritto_cognome?: string | null;
  avente_diritto_codice_fiscale_iva?: string | null;
}

const persona = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(' ') || '—';

function Row({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <tr>
      <th scope="row" className="fw-normal text-body-secondary w-50">{label}</th>
      <td>{value === null || value === undefined || value === '' ? '—' : value}</td>
    </tr>
  );
}

export function AniaDialog({ veicolo, onClose }: { veicolo: VeicoloConRegistro | null; onClose: () => void }) {
  const dati = veicolo?.json ?? undefined;
  const ania = dati?.ResponseAnia ?? undefined;
  const anni = [...new Set((ania?.claims ?? []).flatMap((r) => r.years.map((y) => y.Year)))].sort();
  return (
    <Modal show={veicolo !== null} onHide={onClose} fullscreen aria-labelledby="ania-dialog-title">
      <Modal.Header closeButton closeLabel={t.ania.chiudi}>
        <Modal.Title id="ania-dialog-title" as="h2" className="h5">
          {t.ania.titolo} — {persona(veicolo?.marca, veicolo?.modello)} <span className="font-monospace">{veicolo?.targa}</span>
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {!dati ? (
          <p>{t.ania.nessunDato}</p>
        ) : (
          <Tabs defaultActiveKey="dati" id="ania-tabs" className="mb-3">
            <Tab eventKey="dati" title={t.ania.tabDati}>
              {veicolo?.errore_registro && <p className="text-danger" role="alert"><span className="badge text-bg-danger me-2">{t.veicoli.erroreVerti}</span>{veicolo.errore_registro}</p>}
              {veicolo?.alert && <p className="alert alert-warning py-2">{veicolo.alert}</p>}
              <h3 className="h6">{t.ania.attestato}</h3>
              <Table size="sm" className="mb-4" style={{ maxWidth: 720 }}>
                <tbody>
                  <Row label={t.ania.intestatario} value={ania ? `${persona(ania.holder?.firstName, ania.holder?.lastName)} (${ania.holder?.taxCode ?? '—'})` : undefined} />
                  <Row label={t.ania.beneficiario} value={veicolo?.avente_diritto_codice_fiscale_iva ? `${persona(veicolo.avente_diritto_nome, veicolo.avente_diritto_cognome)} (${veicolo.avente_diritto_codice_fiscale_iva})` : undefined} />
                  <Row label={t.ania.formaTariffaria} value={ania?.tariff ? FORME_TARIFFARIE[ania.tariff] ?? ania.tariff : undefined} />
                  <Row label={t.ania.classeCompagnia} value={ania?.assignedCompanyCategory} />
                  <Row label={t.ania.classeCu} value={ania?.riskCategory} />
                  <Row label={t.ania.scadenza} value={formatDate(ania?.contractExpirationDate)} />
                </tbody>
              </Table>
              <h3 className="h6">{t.ania.sinistri}</h3>
              <div className="table-responsive">
                <Table size="sm" bordered className="small text-center">
                  <thead>
                    <tr>
                      <th scope="col" className="text-start">{t.ania.tipoSinistro}</th>
                      {anni.map((anno) => <th scope="col" key={anno}>{anno}</th>)}
                    </tr>
                  </thead>
                  <tbody>
                    {(ania?.claims ?? []).map((riga) => (
                      <tr key={riga.claimsType}>
                        <th scope="row" className="text-start fw-normal">{riga.claimsType} — {TIPI_SINISTRO[riga.claimsType] ?? ''}</th>
                        {anni.map((anno) => {
                          const cella = riga.years.find((y) => y.Year === anno)?.ClaimNumber ?? '';
                          return <td key={anno} className={/^0[1-9]$/.test(cella) ? 'text-bg-danger' : undefined}>{cella}</td>;
                        })}
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </div>
            </Tab>
            <Tab eventKey="avanzato" title={t.ania.tabAvanzato}>
              <Table size="sm" className="mb-4" style={{ maxWidth: 720 }}>
                <tbody>
                  <Row label={t.ania.ricezione} value={formatDate(ania?.updatesReceptionDate)} />
                  <Row label={t.ania.franchigia} value={ania?.deductibleAmount} />
                  <Row label={`${t.ania.classeCompagnia} (origine)`} value={ania?.originalCompanyCategory} />
                  <Row label={`${t.ania.classeCu} (origine)`} value={ania?.originalRiskCategory} />
                  <Row label={`${t.ania.sivi}: codice fiscale`} value={veicolo?.sivi_tax_code} />
                  <Row label={`${t.ania.sivi}: ${t.ania.immatricolazione}`} value={formatDate(veicolo?.sivi_registration_date ?? undefined)} />
                  <Row label={`${t.ania.sivi}: ${t.ania.peso}`} value={veicolo?.sivi_vehicle_weight} />
                  <Row label={`${t.ania.atrc}: ${t.ania.scadenza}`} value={formatDate(veicolo?.atrc_contract_expiration_date ?? undefined)} />
                  <Row label={`${t.ania.atrc}: ${t.ania.beneficiario}`} value={veicolo?.atrc_beneficiary_tax_code ? `${persona(veicolo.atrc_beneficiary_first_name, veicolo.atrc_beneficiary_last_name)} (${veicolo.atrc_beneficiary_tax_code})` : undefined} />
                </tbody>
              </Table>
              <details>
                <summary>{t.ania.rispostaCompleta}</summary>
                <pre className="small bg-body-tertiary p-2">{JSON.stringify(dati, null, 2)}</pre>
              </details>
            </Tab>
          </Tabs>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>{t.ania.chiudi}</Button>
      </Modal.Footer>
    </Modal>
  );
}

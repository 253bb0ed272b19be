// GESTIONE INCASSI: one payment (type, date, amount) over one or many unpaid titles of the list as filtered, in one
// server transaction (POST {desk}/pagamenti): either every chosen title is paid or none.
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { isApiError, dataProvider } from '../../api/dataProvider.ts';
import { useGetList, useMutation } from '../../api/hooks.ts';
import { Icon } from '../../lib/Icon.tsx';
import { formatDate, formatMoney, parseDecimal } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { DateInput } from '../../widgets/inputs.tsx';
import { oggiIso } from '../../../shared/dates.ts';
import type { RecordData } from '../../types.ts';
import type { CustomPageProps } from '../registry.ts';
import { useListaCorrente } from './useListaCorrente.ts';

const MAX_RIGHE = 200;

export default function RegistraIncasso({ def, onChanged }: CustomPageProps) {
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const lista = useListaCorrente(def);
  // The unpaid titles of what the list shows (its search and filters), oldest due first.
  const params = useMemo(
    () => ({ page: 1, perPage: MAX_RIGHE, sort: 'scadenza', search: lista.search, filters: { ...lista.filters, saldato: 'false' } }),
    [lista],
  );
  const { data, isLoading } = useGetList(def.resource, open ? params : null);
  const [scelti, setScelti] = useState<Set<number>>(new Set());
  const [dataPagamento, setData] = useState(oggiIso());
  const [tipo, setTipo] = useState('');
  const [importo, setImporto] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const { run, busy } = useMutation(def.resource);
  const tipi = (def.schema.properties?.tipo_pagamento?.oneOf ?? []) as Array<{ const: string; title: string }>;
  const righe = data?.data ?? [];
  const totale = righe.filter((r) => scelti.has(r.id as number)).reduce((sum, r) => sum + Math.round(Number(r.premio ?? 0) * 100), 0) / 100;

  const toggle = (row: RecordData, on: boolean) => {
    const next = new Set(scelti);
    if (on) next.add(row.id as number);
    else next.delete(row.id as number);
    setScelti(next);
    const cents = righe.filter((r) => next.has(r.id as number)).reduce((sum, r) => sum + Math.round(Number(r.premio ?? 0) * 100), 0);
    setImporto(cents ? (cents / 100).toFixed(2).replace('.', ',') : '');
  };
  const close = () => {
    setOpen(false);
    setScelti(new Set());
    setErrors({});
  };
  const confirm = async () => {
    setErrors({});
    try {
      const answer = await run(() =>
        dataProvider.transition(def.resource, 'pagamenti', undefined, {
          titoli: [...scelti],
          data_pagamento: dataPagamento,
          tipo_pagamento: tipo,
          importo: parseDecimal(importo) ?? importo,
        }),
      );
      notify('success', answer.message ?? 'Pagamento registrato.');
      close();
      onChanged?.();
    } catch (err) {
      if (isApiError(err, 'VALIDATION')) setErrors(err.errors ?? {});
      else notify('danger', err instanceof Error ? err.message : 'Errore');
    }
  };
  const error = (field: string) => errors[field]?.join(' ');

  return (
    <>
      <Button variant="primary" onClick={() => setOpen(true)}>
        <Icon name="cash" size={16} /> Registra incasso
      </Button>
      <Modal show={open} onHide={close} size="lg" aria-labelledby="incasso-titolo">
        <Modal.Header closeButton closeLabel="Chiudi">
          <Modal.Title id="incasso-titolo">Registra incasso</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-muted mb-2">Titoli da incassare secondo la ricerca e i filtri della lista: scegli quelli pagati con un unico pagamento.</p>
          {isLoading && <Spinner />}
          {data && !righe.length && <Notice variant="secondary">nessun elemento trovato</Notice>}
          {righe.length > 0 && (
            <div style={{ maxHeight: 320, overflowY: 'auto' }} className="mb-3">
              <Table size="sm" className="align-middle mb-0">
                <thead>
                  <tr>
                    <th scope="col"><span className="visually-hidden">Scegli</span></th>
                    <th scope="col">Polizza</th>
                    <th scope="col">Contraente</th>
                    <th scope="col">Rata</th>
                    <th scope="col">Scadenza</th>
                    <th scope="col" className="text-end">Premio</th>
                  </tr>
                </thead>
                <tbody>
                  {righe.map((r) => (
                    <tr key={String(r.id)} className={r.situazione === 'SCADUTO' ? 'table-danger' : undefined}>
                      <td>
                        <Form.Check
                          id={`incasso-${String(r.id)}`}
                          checked={scelti.has(r.id as number)}
                          onChange={(e) => toggle(r, e.target.checked)}
                          aria-label={`Titolo ${String(r.numero_rata)} della polizza ${String(r.polizza_numero)}`}
                        />
                      </td>
                      <td>{String(r.polizza_numero ?? '')}</td>
                      <td>{String(r.contraente ?? '')}</td>
                      <td>{String(r.numero_rata ?? '')}</td>
                      <td>{formatDate(r.scadenza)}</td>
                      <td className="text-end text-nowrap">{formatMoney(r.premio)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
          )}
          {error('titoli') && <Notice variant="danger" role="alert">{error('titoli')}</Notice>}
          <p className="fw-semibold" data-testid="incasso-totale">
            {scelti.size} {scelti.size === 1 ? 'titolo scelto' : 'titoli scelti'} · totale {formatMoney(totale)}
          </p>
          <Form onSubmit={(e) => e.preventDefault()} className="row g-2">
            <Form.Group className="col-md-4" controlId="incasso-data">
              <Form.Label>Data Pagamento</Form.Label>
              <DateInput value={dataPagamento} max={oggiIso()} required error={error('data_pagamento')} onChange={(v) => setData(v ?? '')} />
            </Form.Group>
            <Form.Group className="col-md-4" controlId="incasso-tipo">
              <Form.Label>Tipo Pagamento</Form.Label>
              <Form.Select value={tipo} isInvalid={Boolean(error('tipo_pagamento'))} onChange={(e) => setTipo(e.target.value)}>
                <option value="">Scegli…</option>
                {tipi.map((t) => (
                  <option key={t.const} value={t.const}>{t.title}</option>
                ))}
              </Form.Select>
              <Form.Control.Feedback type="invalid">{error('tipo_pagamento')}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group className="col-md-4" controlId="incasso-importo">
              <Form.Label>Importo</Form.Label>
              <Form.Control inputMode="decimal" value={importo} isInvalid={Boolean(error('importo'))} onChange={(e) => setImporto(e.target.value)} />
              <Form.Control.Feedback type="invalid">{error('importo')}</Form.Control.Feedback>
            </Form.Group>
          </Form>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close}>Annulla</Button>
          <Button variant="primary" disabled={busy || !scelti.size} onClick={() => void confirm()}>
            Registra pagamento
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

// The titles of a policy under its form: status, amounts, payment dialog (date, amount, payment type) and reversal for permission holders.
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { isApiError, recordAction } from '../../api/dataProvider.ts';
import { useGetList, useRoute } from '../../api/hooks.ts';
import { POLIZZA_ROUTES } from './routes.ts';
import { can } from '../../api/session.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { formatDate, formatMoney, parseDecimal } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { DateInput } from '../../widgets/inputs.tsx';
import { displayValue } from '../../renderer/formBody.ts';
import { oggiIso } from '../../../shared/dates.ts';
import type { RecordData, ResourceConfig, ResourceDef } from '../../types.ts';

interface Tipo {
  id: string;
  label: string;
}

function PagamentoDialog({ titolo, resource, onClose, onDone }: { titolo: RecordData; resource: ResourceConfig; onClose: () => void; onDone: () => void }) {
  const notify = useNotify();
  const [data, setData] = useState(oggiIso());
  const [importo, setImporto] = useState(String(titolo.premio ?? '').replace('.', ','));
  const [tipo, setTipo] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const { data: tipi } = useRoute<{ data: Tipo[] }>(POLIZZA_ROUTES.tipiPagamento, {});
  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await recordAction(resource, String(titolo.id), 'pagamento', { data_pagamento: data, importo: parseDecimal(importo) ?? importo, tipo_pagamento: tipo });
      notify('success', answer.message ?? 'Operazione completata.');
      onDone();
    } catch (err) {
      if (isApiError(err, 'VALIDATION')) setErrors(err.errors ?? {});
      else notify('danger', err instanceof Error ? err.message : 'Errore');
    } finally {
      setBusy(false);
    }
  };
  const error = (field: string) => errors[field]?.join(' ');
  return (
    <ConfirmDialog show title={`Pagamento del titolo ${String(titolo.numero_rata)}`} text={`Premio del titolo: ${formatMoney(titolo.premio)}`} confirmLabel="Registra pagamento" variant="primary" busy={busy} onConfirm={confirm} onCancel={onClose}>
      <Form className="mt-3" onSubmit={(e) => e.preventDefault()}>
        <Form.Group className="mb-2" controlId="pagamento-data">
          <Form.Label>Data Pagamento</Form.Label>
          <DateInput value={data} max={oggiIso()} required error={error('data_pagamento')} onChange={(v) => setData(v ?? '')} />
        </Form.Group>
        <Form.Group className="mb-2" controlId="pagamento-importo">
          <Form.Label>Importo</Form.Label>
          <Form.Control inputMode="decimal" value={importo} isInvalid={Boolean(error('importo'))} onChange={(e) => setImporto(e.target.value)} />
          <Form.Control.Feedback type="invalid">{error('importo')}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-2" controlId="pagamento-tipo">
          <Form.Label>Tipo Pagamento</Form.Label>
          <Form.Select value={tipo} isInvalid={Boolean(error('tipo_pagamento'))} onChange={(e) => setTipo(e.target.value)}>
            <option value="">Seleziona…</option>
            {(tipi?.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </Form.Select>
          <Form.Control.Feedback type="invalid">{error('tipo_pagamento')}</Form.Control.Feedback>
        </Form.Group>
      </Form>
    </ConfirmDialog>
  );
}

export function TitoliPolizza({ titoloDef, polizzaId, refreshKey, onPaid }: { titoloDef: ResourceDef; polizzaId: string; refreshKey: number; onPaid: () => void }) {
  const notify = useNotify();
  const [paying, setPaying] = useState<RecordData | null>(null);
  const [reversing, setReversing] = useState<RecordData | null>(null);
  const [nota, setNota] = useState('');
  const [busy, setBusy] = useState(false);
  const { data, error, isLoading, mutate } = useGetList(titoloDef.resource, { page: 1, perPage: -1, sort: 'numero_rata', filters: { polizza_id: polizzaId } });
  // A save of the policy rewrites its titles on the server: a new refreshKey asks again.
  const askedFor = useRef(refreshKey);
  useEffect(() => {
    if (askedFor.current === refreshKey) return;
    askedFor.current = refreshKey;
    void mutate();
  }, [refreshKey, mutate]);
  const mayReverse = can('storna_pagamenti_titoli');
  const done = () => {
    setPaying(null);
    setReversing(null);
    void mutate();
    onPaid();
  };
  const reverse = async () => {
    if (!reversing) return;
    setBusy(true);
    try {
      const answer = await recordAction(titoloDef.resource, String(reversing.id), 'storno', { nota });
      notify('success', answer.message ?? 'Operazione completata.');
      setNota('');
      done();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    } finally {
      setBusy(false);
    }
  };
  const rows = data?.data ?? [];
  // Codes (status, payment type) read through the titles of the definition.
  const campi = titoloDef.schema.properties ?? {};
  return (
    <section aria-labelledby="titoli-polizza-title" className="mt-4">
      <h2 id="titoli-polizza-title" className="h5">
        Titoli
      </h2>
      {error && (
        <Notice variant="danger" role="alert">
          {error instanceof Error ? error.message : 'Errore'}
        </Notice>
      )}
      {isLoading && <Spinner label="Caricamento titoli…" />}
      {!isLoading && !rows.length && !error && <p className="text-body-secondary">nessun elemento trovato</p>}
      {rows.length > 0 && (
        <Table size="sm" responsive className="align-middle" data-testid="titoli-polizza">
          <thead>
            <tr>
              <th scope="col">Rata</th>
              <th scope="col">Inizio</th>
              <th scope="col">Fine</th>
              <th scope="col" className="text-end">Premio</th>
              <th scope="col">Stato</th>
              <th scope="col">Saldato</th>
              <th scope="col">Pagamento</th>
              <th scope="col">
                <span className="visually-hidden">Azioni</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={String(t.id)} data-testid="titolo">
                <th scope="row">{String(t.numero_rata)}</th>
                <td>{formatDate(t.data_inizio)}</td>
                <td>{formatDate(t.data_fine)}</td>
                <td className="text-end font-monospace">{formatMoney(t.premio)}</td>
                <td>
                  <span className={`badge rounded-pill ${t.saldato ? 'text-bg-success' : 'text-bg-warning'}`}>{displayValue(campi.stato, t.stato)}</span>
                </td>
                <td>{t.saldato ? 'Sì' : 'No'}</td>
                <td className="small">{t.saldato ? `${formatDate(t.data_pagamento)} · ${displayValue(campi.tipo_pagamento, t.tipo_pagamento)} · ${String(t.pagato_da ?? '')}` : ''}</td>
                <td className="text-end">
                  {!t.saldato && (
                    <Button size="sm" variant="outline-primary" onClick={() => setPaying(t)} aria-label={`Paga il titolo ${String(t.numero_rata)}`}>
                      Paga
                    </Button>
                  )}
                  {Boolean(t.saldato) && mayReverse && (
                    <Button size="sm" variant="outline-danger" onClick={() => setReversing(t)} aria-label={`Storna il pagamento del titolo ${String(t.numero_rata)}`}>
                      Storna
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {paying && <PagamentoDialog titolo={paying} resource={titoloDef.resource} onClose={() => setPaying(null)} onDone={done} />}
      <ConfirmDialog
        show={Boolean(reversing)}
        title="Storno del pagamento"
        text={reversing ? `Stornare il pagamento del titolo ${String(reversing.numero_rata)} (${formatMoney(reversing.importo_pagato)})? Il pagamento resta nello storico.` : ''}
        confirmLabel="Storna"
        busy={busy}
        onConfirm={reverse}
        onCancel={() => setReversing(null)}
      >
        <Form.Group className="mt-3" controlId="storno-nota">
          <Form.Label>Nota</Form.Label>
          <Form.Control value={nota} onChange={(e) => setNota(e.target.value)} />
        </Form.Group>
      </ConfirmDialog>
    </section>
  );
}

// GESTIONE INCASSI: reversal of a title's payment, for holders of storna_pagamenti_titoli; the payment stays in the history.
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { dataProvider } from '../../api/dataProvider.ts';
import { useGetList, useMutation } from '../../api/hooks.ts';
import { can } from '../../api/session.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import type { CustomPageProps } from '../registry.ts';
import { useListaCorrente } from './useListaCorrente.ts';

export default function StornaIncasso({ def, onChanged }: CustomPageProps) {
  const { definitions } = useDefinitions();
  const titolo = findResource(definitions, 'titolo');
  const allowed = can('storna_pagamenti_titoli') && Boolean(titolo);
  const [open, setOpen] = useState(false);
  const [scelto, setScelto] = useState('');
  const [nota, setNota] = useState('');
  const notify = useNotify();
  const lista = useListaCorrente(def);
  const params = useMemo(() => ({ page: 1, perPage: 100, sort: '-data_pagamento', search: lista.search, filters: { ...lista.filters, saldato: 'true' } }), [lista]);
  const { data } = useGetList(def.resource, open && allowed ? params : null);
  const { run, busy } = useMutation(def.resource, titolo?.resource);
  if (!allowed) return null;
  const close = () => {
    setOpen(false);
    setScelto('');
    setNota('');
  };
  const confirm = async () => {
    try {
      const answer = await run(() => dataProvider.recordAction(titolo!.resource, scelto, 'storno', { nota }));
      notify('success', answer.message ?? 'Pagamento stornato.');
      close();
      onChanged?.();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    }
  };
  return (
    <>
      <Button variant="outline-danger" onClick={() => setOpen(true)}>
        Storna incasso
      </Button>
      <ConfirmDialog
        show={open}
        title="Storno del pagamento"
        text="Il pagamento stornato resta nello storico del titolo, che torna da incassare."
        confirmLabel="Storna"
        busy={busy}
        confirmDisabled={!scelto}
        onConfirm={() => void confirm()}
        onCancel={close}
      >
        <Form.Group className="mt-3" controlId="storno-titolo">
          <Form.Label>Titolo pagato</Form.Label>
          <Form.Select value={scelto} onChange={(e) => setScelto(e.target.value)}>
            <option value="">Scegli…</option>
            {(data?.data ?? []).map((r) => (
              <option key={String(r.id)} value={String(r.id)}>
                {`${String(r.polizza_numero)} · rata ${String(r.numero_rata)} · ${String(r.contraente ?? '')} · ${formatMoney(r.premio)} · ${formatDate(r.data_pagamento)}`}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="mt-2" controlId="storno-nota">
          <Form.Label>Nota</Form.Label>
          <Form.Control as="textarea" rows={2} value={nota} onChange={(e) => setNota(e.target.value)} />
        </Form.Group>
      </ConfirmDialog>
    </>
  );
}

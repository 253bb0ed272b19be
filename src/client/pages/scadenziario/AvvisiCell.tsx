// SCADENZIARIO: the notices sent for a row ('Avvisi inviati'), with 'Avvisi…' opening the templates: the preview of one
// on this row (GET /api/scadenziario/{id}/avvisi/{modello}) and 'Invia avviso' by hand (POST .../avvisi), which queues
// it in the outbox and writes it in the record's history. The server checks the permission and the row's scope.
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { callRoute } from '../../api/dataProvider.ts';
import { SCADENZIARIO_ROUTES } from './routes.ts';
import { findResource, useDefinitions } from '../../lib/definitions.ts';
import { useNotify } from '../../lib/notify.tsx';
import type { CellProps } from '../../widgets/cells.tsx';

interface Modello { nome: string; titolo: string }
interface Anteprima { destinatario: string | null; oggetto: string; corpo: string }

let modelliCache: Promise<Modello[]> | undefined;
const modelli = () => {
  modelliCache ??= callRoute<{ data: { modelli: Modello[] } }>('GET', SCADENZIARIO_ROUTES.modelli).then((r) => r.data.modelli).catch((error: unknown) => {
    modelliCache = undefined;
    throw error;
  });
  return modelliCache;
};

export function AvvisiCell({ value, data }: CellProps) {
  const { definitions } = useDefinitions();
  const notify = useNotify();
  const def = findResource(definitions, 'scadenziario');
  const [sent, setSent] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<Modello[]>([]);
  const [scelto, setScelto] = useState('');
  const [anteprima, setAnteprima] = useState<Anteprima | undefined>();
  const [busy, setBusy] = useState(false);
  const id = data?.id;

  useEffect(() => {
    if (!open) return;
    modelli().then((m) => {
      setList(m);
      setScelto((s) => s || m[0]?.nome || '');
    }).catch((err: unknown) => notify('danger', err instanceof Error ? err.message : 'Errore'));
  }, [open, notify]);

  useEffect(() => {
    if (!open || !scelto || id === undefined) return;
    setAnteprima(undefined);
    callRoute<{ data: Anteprima }>('GET', SCADENZIARIO_ROUTES.anteprima, { id, modello: scelto })
      .then((r) => setAnteprima(r.data))
      .catch((err: unknown) => notify('danger', err instanceof Error ? err.message : 'Errore'));
  }, [open, scelto, id, notify]);

  const invia = async () => {
    setBusy(true);
    try {
      const answer = await callRoute<{ message: string }>('POST', SCADENZIARIO_ROUTES.avvisi, { id }, { body: { modello: scelto } });
      notify('success', answer.message);
      const titolo = list.find((m) => m.nome === scelto)?.titolo ?? scelto;
      // Shown on the row at once; the list reads it from the server at its next load.
      setSent((s) => [...s, `${titolo} (inviato a mano) ${new Date().toLocaleDateString('it-IT', { day: '2-digit', month: '2-digit', year: 'numeric' })}`]);
      setOpen(false);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : 'Errore');
    } finally {
      setBusy(false);
    }
  };

  const text = [typeof value === 'string' && value ? value : '', ...sent].filter(Boolean).join('; ');
  const riferimento = String(data?.riferimento ?? '');
  return (
    <span className="d-inline-flex align-items-center gap-2">
      <span className="text-truncate" title={text}>{text}</span>
      {def?.can?.read && id !== undefined && (
        <Button size="sm" variant="outline-secondary" className="py-0" onClick={() => setOpen(true)} aria-label={`Avvisi della scadenza ${riferimento}`}>
          Avvisi…
        </Button>
      )}
      <Modal show={open} onHide={() => setOpen(false)} size="lg" aria-labelledby={`avvisi-${String(id)}`}>
        <Modal.Header closeButton closeLabel="Chiudi">
          <Modal.Title id={`avvisi-${String(id)}`}>Avvisi: {riferimento}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId={`avvisi-modello-${String(id)}`}>
            <Form.Label>Modello</Form.Label>
            <Form.Select value={scelto} onChange={(e) => setScelto(e.target.value)}>
              {list.map((m) => <option key={m.nome} value={m.nome}>{m.titolo}</option>)}
            </Form.Select>
          </Form.Group>
          {anteprima ? (
            <section aria-label="Anteprima dell'avviso">
              <p className="mb-1"><strong>A:</strong> {anteprima.destinatario ?? <span className="text-danger">il cliente non ha un indirizzo e-mail</span>}</p>
              <p className="mb-2"><strong>Oggetto:</strong> {anteprima.oggetto}</p>
              <pre className="border rounded p-2 bg-light mb-0" style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>{anteprima.corpo}</pre>
            </section>
          ) : <p className="text-muted">Caricamento dell'anteprima…</p>}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setOpen(false)}>Chiudi</Button>
          {def?.can?.update && (
            <Button variant="primary" disabled={busy || !anteprima?.destinatario} onClick={() => void invia()}>Invia avviso</Button>
          )}
        </Modal.Footer>
      </Modal>
    </span>
  );
}

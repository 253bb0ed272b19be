// 'importa-modelli' list action (spec 000 §2.9): uploads a CSV/XLSX of historic-car models, optionally wiping the old ones, and reports the outcome.
// A wipe is first previewed (the server reads the file and counts what it would delete and the quotations using those
// models) and runs only once the user confirms it.
import { can } from '../../lib/access.ts';
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Table from 'react-bootstrap/Table';
import { ApiError, importFile } from '../../api/dataProvider.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { Icon } from '../../lib/Icon.tsx';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import type { CustomPageProps } from '../registry.ts';

interface Rejected {
  row: number;
  field?: string;
  message: string;
}

interface Imported {
  message: string;
  imported: number;
  deleted: number;
  /** Models quotations still use: kept out of catalogue instead of deleted. */
  fuori_catalogo?: number;
  quotazioni?: number;
}

/** The server's preview of a wipe (anteprima = 1): nothing is saved yet. */
interface Preview {
  da_importare: number;
  da_eliminare: number;
  fuori_catalogo: number;
  quotazioni: number;
}

type Outcome = ({ ok: true } & Imported) | { ok: false; message: string; rejected: Rejected[] };

const models = (n: number) => (n === 1 ? '1 modello' : `${n} modelli`);

/** The question asked before a wipe, from the server's counts. */
function confirmText(p: Preview): string {
  const parts = [`Il file contiene ${models(p.da_importare)} da importare. ${p.da_eliminare === 1 ? 'Sarà eliminato 1 modello esistente' : `Saranno eliminati ${p.da_eliminare} modelli esistenti`}.`];
  if (p.quotazioni > 0) {
    parts.push(`${p.quotazioni === 1 ? '1 quotazione usa' : `${p.quotazioni} quotazioni usano`} ${models(p.fuori_catalogo)} da sostituire: ${p.fuori_catalogo === 1 ? 'resterà' : 'resteranno'} fuori catalogo, ancora calcolabili ma non più proponibili per nuovi veicoli.`);
  }
  parts.push('Vuoi procedere?');
  return parts.join(' ');
}

export default function ImportaModelli({ def, onChanged }: CustomPageProps) {
  const notify = useNotify();
  const formId = useId();
  const [show, setShow] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [cancella, setCancella] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Rows read and valid so far, reported by the server as it reads the file.
  const [progress, setProgress] = useState<{ letti: number; validi: number } | null>(null);
  // A wipe previewed and waiting for the user's answer.
  const [preview, setPreview] = useState<Preview | null>(null);
  const abort = useRef<AbortController | null>(null);
  if (!can(def, 'create')) return null;

  const fieldTitle = (field: string | undefined) => (field ? ((def.schema.properties?.[field]?.title as string | undefined) ?? field) : '');

  const open = () => {
    setFile(null);
    setCancella(false);
    setOutcome(null);
    setShow(true);
  };

  /** Sends the file with these fields, showing the progress; a refusal or a cancellation becomes the outcome shown. */
  const send = async <T,>(fields: Record<string, string>): Promise<T | undefined> => {
    if (!file) return undefined;
    setBusy(true);
    setOutcome(null);
    setProgress({ letti: 0, validi: 0 });
    const controller = new AbortController();
    abort.current = controller;
    try {
      return await importFile<T>(def.resource, file, fields, { onProgress: setProgress, signal: controller.signal });
    } catch (err) {
      const rejected = err instanceof ApiError && Array.isArray(err.body.rejected) ? (err.body.rejected as Rejected[]) : [];
      const cancelled = (err as Error)?.name === 'AbortError';
      setOutcome({ ok: false, message: cancelled ? 'Importazione annullata: nessun modello modificato.' : err instanceof Error ? err.message : msg.genericError, rejected });
      return undefined;
    } finally {
      abort.current = null;
      setProgress(null);
      setBusy(false);
    }
  };

  const runImport = async (fields: Record<string, string>) => {
    const result = await send<Imported>(fields);
    if (!result) return;
    setOutcome({ ok: true, ...result });
    notify('success', result.message);
    onChanged?.();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || busy) return;
    if (!cancella) return runImport({ cancella: '0' });
    // A wipe: the server reads the file and counts first, nothing is saved until the user confirms.
    const counts = await send<Preview>({ cancella: '1', anteprima: '1' });
    if (counts) setPreview(counts);
  };

  const confirmWipe = () => {
    setPreview(null);
    void runImport({ cancella: '1', conferma: '1' });
  };

  const rows = outcome && !outcome.ok ? [...new Set(outcome.rejected.map((r) => r.row))] : [];
  return (
    <>
      <Button variant="outline-primary" onClick={open}>
        <Icon name="file-text" size={16} /> Importa modelli
      </Button>
      <Modal
        show={show}
        onHide={() => !busy && setShow(false)}
        backdrop={busy ? 'static' : true}
        keyboard={!busy}
        aria-labelledby={`${formId}-title`}
        style={{ ['--bs-modal-width' as string]: '590px' }}
      >
        <Form onSubmit={submit} noValidate>
          <Modal.Header closeButton={!busy} closeLabel="Chiudi">
            <Modal.Title id={`${formId}-title`} as="h2" className="h5">
              Importa modelli auto storiche
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Form.Group className="mb-3" controlId={`${formId}-file`}>
              <Form.Label>File CSV o XLSX</Form.Label>
              <Form.Control
                type="file"
                accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                disabled={busy}
                onChange={(e) => {
                  setFile((e.target as HTMLInputElement).files?.[0] ?? null);
                  setOutcome(null);
                }}
                aria-describedby={`${formId}-file-help`}
              />
              <Form.Text id={`${formId}-file-help`}>
                Una riga per modello, con le colonne marca, modello, cilindrata, anno, valori, tipologia, convenzione e colore. Il file si importa solo se
                tutte le righe sono valide.
              </Form.Text>
            </Form.Group>
            <Form.Check
              type="checkbox"
              id={`${formId}-cancella`}
              label="Cancella tutti i modelli esistenti prima di importare"
              checked={cancella}
              disabled={busy}
              onChange={(e) => setCancella(e.target.checked)}
            />
            {cancella && (
              <Notice variant="warning" className="mt-2 mb-0 small">
                I modelli attuali saranno eliminati e sostituiti da quelli del file; prima di procedere ti sarà chiesta conferma.
              </Notice>
            )}
            <div aria-live="polite" className="mt-3">
              {busy && progress && (
                <div role="status" data-testid="import-progress">
                  <ProgressBar animated now={100} aria-label="Avanzamento dell'importazione" className="mb-1" />
                  <small>
                    Righe lette: {progress.letti} · valide: {progress.validi}
                  </small>
                </div>
              )}
              {busy && !progress && <Spinner label="Importazione in corso…" />}
              {outcome?.ok && (
                <Notice variant="success" role="status" testId="import-outcome">
                  <p className="mb-0">{outcome.message}</p>
                  {outcome.deleted > 0 && <p className="mb-0">Modelli eliminati prima dell’importazione: {outcome.deleted}.</p>}
                  {(outcome.fuori_catalogo ?? 0) > 0 && (
                    <p className="mb-0">Modelli tenuti fuori catalogo perché usati da quotazioni: {outcome.fuori_catalogo}.</p>
                  )}
                </Notice>
              )}
              {outcome && !outcome.ok && (
                <Notice variant="danger" role="alert" testId="import-outcome">
                  <p className={outcome.rejected.length ? 'mb-2 fw-semibold' : 'mb-0'}>{outcome.message}</p>
                  {outcome.rejected.length > 0 && (
                    <Table size="sm" className="mb-0 bg-transparent" aria-label="Righe scartate">
                      <thead>
                        <tr>
                          <th scope="col">Riga</th>
                          <th scope="col">Campo</th>
                          <th scope="col">Motivo</th>
                        </tr>
                      </thead>
                      <tbody>
                        {rows.flatMap((row) =>
                          outcome.rejected
                            .filter((r) => r.row === row)
                            .map((r, i) => (
                              <tr key={`${row}-${i}`} data-testid="rejected-row">
                                <td>{r.row}</td>
                                <td>{fieldTitle(r.field)}</td>
                                <td>{r.message}</td>
                              </tr>
                            )),
                        )}
                      </tbody>
                    </Table>
                  )}
                </Notice>
              )}
            </div>
          </Modal.Body>
          <Modal.Footer>
            {/* While it runs, Annulla stops the import: the server rolls it back. */}
            <Button variant="outline-secondary" onClick={() => (busy ? abort.current?.abort() : setShow(false))}>
              {outcome?.ok ? 'Chiudi' : 'Annulla'}
            </Button>
            <Button type="submit" variant="primary" disabled={!file || busy}>
              Importa
            </Button>
          </Modal.Footer>
        </Form>
      </Modal>
      <ConfirmDialog
        show={preview !== null}
        title="Cancellare i modelli esistenti?"
        text={preview ? confirmText(preview) : ''}
        confirmLabel="Cancella e importa"
        variant="danger"
        onConfirm={confirmWipe}
        onCancel={() => setPreview(null)}
      />
    </>
  );
}

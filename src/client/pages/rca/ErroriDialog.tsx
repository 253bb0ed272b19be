// A server error: its message, and 'Dettagli' opening the 'Errori' dialog with every detail (spec 002 §8).
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { Notice } from '../../lib/ui.tsx';
import type { ServerError } from './useQuotazioneRca.ts';
import { TEXTS } from './texts.ts';

export function ErroreServer({ error }: { error: ServerError }) {
  const [open, setOpen] = useState(false);
  return (
    <Notice variant="danger" role="alert" testId="rca-errore">
      <div className="d-flex align-items-center gap-3 flex-wrap">
        <span className="flex-grow-1">{error.message}</span>
        <Button size="sm" variant="outline-light" className="text-danger bg-white" onClick={() => setOpen(true)}>{TEXTS.dettagli}</Button>
      </div>
      <Modal show={open} onHide={() => setOpen(false)} aria-labelledby="rca-errori-title">
        <Modal.Header closeButton closeLabel="Chiudi">
          <Modal.Title id="rca-errori-title">{TEXTS.errori}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <ul className="mb-0">{error.details.map((d, i) => <li key={i}>{d}</li>)}</ul>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setOpen(false)}>Chiudi</Button>
        </Modal.Footer>
      </Modal>
    </Notice>
  );
}

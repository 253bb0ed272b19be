// The customer's personal link in the drawer (spec 001 §2), while the machine lets the customer use it: copy, open, e-mail again.
import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useRoute } from '../../api/hooks.ts';
import { fillTemplate } from '../../lib/format.ts';
import { useNotify } from '../../lib/notify.tsx';
import type { RecordData } from '../../types.ts';
import { QUOTAZIONE_ROUTES } from './routes.ts';
import { t } from './texts.ts';
import type { useQuotazione } from './useQuotazione.ts';
import type { RecordWorkflow } from './useRecordWorkflow.ts';

const PANEL = 'linkCliente';

interface LinkAnswer {
  data: { url: string | null; fase: 'form' | 'documenti' | null; email: string | null };
}

export function LinkClienteBox({ record, ctl, wf }: { record: RecordData; ctl: ReturnType<typeof useQuotazione>; wf: RecordWorkflow }) {
  const uid = useId();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  // Asked again for each stored version: a status change opens or closes the link.
  const { data } = useRoute<LinkAnswer>(QUOTAZIONE_ROUTES.linkCliente, record.id !== undefined ? { id: record.id, version: record.version } : null);
  const link = data?.data;
  if (!link?.url) return null;
  const url = link.url;
  const resend = wf.events.find((e) => e.meta.panel === PANEL);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notify('success', t.link.copiato);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text is selected for the user to copy.
      input.current?.select();
      notify('warning', t.link.copiaNonRiuscita);
    }
  };

  return (
    <section className="card" aria-labelledby={`${uid}-titolo`} data-testid="link-cliente">
      <div className="card-body">
        <h3 id={`${uid}-titolo`} className="h6 text-uppercase text-body-secondary">
          {t.link.titolo}
        </h3>
        <Form.Group controlId={`${uid}-url`} className="mb-2">
          <Form.Label className="small mb-1">{link.fase === 'documenti' ? t.link.faseDocumenti : t.link.faseForm}</Form.Label>
          <Form.Control ref={input} size="sm" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </Form.Group>
        <div className="d-flex flex-wrap gap-2">
          <Button size="sm" variant="outline-primary" onClick={() => void copy()}>
            {t.link.copia}
          </Button>
          <a className="btn btn-sm btn-outline-primary" href={url} target="_blank" rel="noopener noreferrer">
            {t.link.apri}
          </a>
          {resend && (
            <Button
              size="sm"
              variant="outline-primary"
              disabled={ctl.busy !== null}
              onClick={() => void ctl.send(resend, { successMessage: fillTemplate(t.link.inviato, { email: link.email ?? '' }) })}
            >
              {t.link.inviaDiNuovo}
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}

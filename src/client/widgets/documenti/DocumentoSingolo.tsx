// A single-file area of a record (a policy's identity card or contract, spec 002 §2.3): the stored file with download,
// replace and delete, or the choice of one. Reads and writes through the data layer, on the paths the definition declares.
import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { removeMedia, uploadMedia } from '../../api/dataProvider.ts';
import { useGetMedia } from '../../api/hooks.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import type { ResourceDef } from '../../types.ts';
import { TYPES, flatten, scaricaDocumento, testi } from './DocumentiPanel.tsx';

export interface DocumentoSingoloProps {
  def: ResourceDef;
  ownerId: number | string;
  /** The collection (declared "single" in resource.json "media"). */
  collection: string;
  canEdit: boolean;
}

export function DocumentoSingolo({ def, ownerId, collection, canEdit }: DocumentoSingoloProps) {
  const uid = useId();
  const input = useRef<HTMLInputElement>(null);
  const { data, error, isLoading, mutate } = useGetMedia(def.resource, ownerId);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [done, setDone] = useState<string>();
  const [confirm, setConfirm] = useState(false);
  const spec = data?.collections.find((c) => c.name === collection);
  const file = data?.data.find((m) => m.collection_name === collection);
  const title = spec?.title ?? collection;

  const carica = async (chosen: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!chosen) {
      setErrors([testi.nessunFile]);
      return;
    }
    setBusy(true);
    setErrors([]);
    setDone(undefined);
    try {
      const res = await uploadMedia(def.resource, chosen, { id: ownerId, collection, tag: collection });
      setDone(res.message || testi.successo);
      await mutate();
    } catch (e) {
      setErrors(flatten(e));
    } finally {
      setBusy(false);
    }
  };

  const elimina = async () => {
    if (!file) return;
    setBusy(true);
    setErrors([]);
    setDone(undefined);
    try {
      await removeMedia(file);
      setConfirm(false);
      await mutate();
    } catch (e) {
      setConfirm(false);
      setErrors(flatten(e));
    } finally {
      setBusy(false);
    }
  };

  if (error) return <Notice variant="danger" role="alert">{error instanceof Error ? error.message : testi.errore}</Notice>;
  if (isLoading || !data) return <Spinner label="Caricamento documenti…" />;
  return (
    <section className="card h-100" aria-labelledby={`${uid}-titolo`} data-testid={`documento-${collection}`}>
      <div className="card-header bg-body py-1">
        <h3 id={`${uid}-titolo`} className="h6 mb-0">{title}</h3>
      </div>
      <div className="card-body py-2">
        {done && <Notice variant="success" role="status">{done}</Notice>}
        {errors.length > 0 && (
          <Notice variant="danger" role="alert">
            <ul className="mb-0 ps-3">
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </Notice>
        )}
        {file ? (
          <div className="d-flex flex-wrap align-items-center gap-2" data-testid="documento">
            <span className="fw-semibold text-break">{file.name}</span>
            <span className="small text-body-secondary">
              {formatDateTime(file.created_at)}
              {file.created_by_name ? ` · ${file.created_by_name}` : ''}
            </span>
            <span className="ms-auto d-flex gap-1">
              <Button size="sm" variant="outline-secondary" onClick={() => void scaricaDocumento(file)} aria-label={`${testi.scarica}: ${title}`}>
                {testi.scarica}
              </Button>
              {canEdit && (
                <>
                  <Button size="sm" variant="outline-primary" disabled={busy} onClick={() => input.current?.click()} aria-label={`Sostituisci: ${title}`}>
                    Sostituisci
                  </Button>
                  <Button size="sm" variant="outline-danger" disabled={busy} onClick={() => setConfirm(true)} aria-label={`${testi.elimina}: ${title}`}>
                    {testi.elimina}
                  </Button>
                </>
              )}
            </span>
          </div>
        ) : (
          <div className="d-flex align-items-center gap-2">
            <span className="small text-body-secondary">{testi.nessuno}</span>
            {canEdit && (
              <Button size="sm" variant="outline-primary" className="ms-auto" disabled={busy} onClick={() => input.current?.click()} aria-label={`${testi.carica}: ${title}`}>
                {testi.carica}
              </Button>
            )}
          </div>
        )}
        {busy && <Spinner label="Caricamento…" />}
        {canEdit && (
          <input
            ref={input}
            type="file"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={`${testi.file}: ${title}`}
            data-testid={`file-${collection}`}
            accept={(spec?.types ?? ['pdf', 'jpeg', 'png']).map((t) => TYPES[t]).join(',')}
            onChange={(e) => void carica(e.target.files?.[0])}
          />
        )}
        {spec && <div className="form-text">{`${spec.types.map((t) => t.toUpperCase()).join(', ')}, massimo ${spec.maxSizeMb} MB.`}</div>}
      </div>
      <ConfirmDialog
        show={confirm}
        title={testi.elimina}
        text={testi.eliminaTesto}
        confirmLabel={testi.elimina}
        busy={busy}
        onCancel={() => setConfirm(false)}
        onConfirm={() => void elimina()}
      />
    </section>
  );
}

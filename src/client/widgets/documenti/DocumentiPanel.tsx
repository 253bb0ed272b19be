// The files of a record, per collection: list, upload dialog with the collection choice, in-browser preview of
// images and PDFs, delete with confirm. Generic: the quotation, the public flow and policies pass their paths.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import useSWR from 'swr';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ApiError, request, requestFile } from '../../api/dataProvider.ts';
import { ConfirmDialog } from '../../lib/ConfirmDialog.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { DateInput } from '../inputs.tsx';
import type { MediaCollection, MediaItem, MediaList } from '../../types.ts';

export type { MediaCollection, MediaItem };

export const testi = {
  titolo: 'Documenti',
  carica: 'Carica documento',
  categoria: 'Categoria',
  scegliCategoria: 'Scegli una categoria…',
  nome: 'Nome del documento',
  file: 'File (PDF, JPEG o PNG)',
  nessuno: 'Nessun documento.',
  anteprima: 'Anteprima',
  scarica: 'Scarica',
  elimina: 'Elimina',
  eliminaTesto: 'Sicuro di voler cancellare il documento?',
  successo: 'Documento caricato con successo',
  nessunFile: 'Non hai specificato un file da caricare',
  errore: 'Errore',
  erroreCaricamento: 'Errore nel caricamento del file',
  annulla: 'Annulla',
  chiudi: 'Chiudi',
  confermato: 'Confermato',
  daRivedere: 'Da rivedere',
  versione: 'Versione',
  validoDal: 'Valido dal',
  inVigore: 'In vigore',
} as const;

/** Saves a stored file in the browser, with the session's token, under its display name. */
export async function scaricaDocumento(m: Pick<MediaItem, 'url' | 'name'>): Promise<void> {
  const blob = await requestFile(m.url);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = m.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export const TYPES: Record<string, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', png: 'image/png' };

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString('it-IT', { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString('it-IT', { maximumFractionDigits: 1 })} MB`;
}

/** 422 messages flattened into one list, as the old screen showed them (spec 001 §8). */
export function flatten(error: unknown): string[] {
  if (error instanceof ApiError) {
    const list = Object.values(error.errors).flat();
    return list.length ? list : [error.message];
  }
  return [testi.erroreCaricamento];
}

export interface DocumentiPanelProps {
  /** GET: {data, collections}. */
  listPath: string;
  /** POST multipart: file, nome_file, id, collection, model. */
  uploadPath: string;
  ownerId: number | string;
  model: string;
  canUpload: boolean;
  canDelete: boolean;
  /** Upload hidden for a collection holding this many files (staff 4, public flow 3). */
  hideUploadAt?: number;
  /** Only these collections (a public step shows its categories). */
  only?: string[];
  onChanged?: () => void;
  /** Changes whenever the owner changed elsewhere (a signature completed): the list reloads. */
  refreshKey?: unknown;
  /** Heading of the panel. */
  title?: string;
  /** Ids of the documents in force (pre-contract notices), marked as such. */
  current?: ReadonlySet<number>;
}

/** The types a preview shows: the blob takes one of them whatever the answer said, so the frame never renders HTML. */
const PREVIEWED = ['application/pdf', 'image/jpeg', 'image/png'];

/**
 * A file shown in the browser (images and PDFs), fetched with the session's token: from memory, never from the file's
 * URL (served as a sandboxed attachment). The PDF frame is not sandboxed, as browsers do not run their PDF viewer in a
 * sandboxed frame; the viewer keeps a PDF's scripts away from the page.
 */
export function Preview({ item, onHide }: { item: Pick<MediaItem, 'name' | 'url' | 'mime_type'> | null; onHide: () => void }) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!item) return undefined;
    let objectUrl: string | undefined;
    let alive = true;
    setUrl(undefined);
    setError(undefined);
    if (!PREVIEWED.includes(item.mime_type)) {
      setError('Anteprima non disponibile per questo tipo di file.');
      return undefined;
    }
    requestFile(item.url)
      .then((blob) => {
        if (!alive) return;
        objectUrl = URL.createObjectURL(new Blob([blob], { type: item.mime_type }));
        setUrl(objectUrl);
      })
      .catch((e: Error) => alive && setError(e.message));
    return () => {
      alive = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [item]);
  return (
    <Modal show={item !== null} onHide={onHide} size="xl" centered aria-labelledby="anteprima-documento">
      <Modal.Header closeButton closeLabel={testi.chiudi}>
        <Modal.Title id="anteprima-documento">{item?.name}</Modal.Title>
      </Modal.Header>
      <Modal.Body className="text-center" data-testid="anteprima-documento">
        {error && <Notice variant="danger" role="alert">{error}</Notice>}
        {!url && !error && <Spinner label="Caricamento…" />}
        {url && item?.mime_type.startsWith('image/') && <img src={url} alt={item.name} className="img-fluid" />}
        {url && item?.mime_type === 'application/pdf' && <iframe src={url} title={item.name} className="w-100 border-0" style={{ height: '75vh' }} />}
      </Modal.Body>
    </Modal>
  );
}

export function DocumentiPanel({ listPath, uploadPath, ownerId, model, canUpload, canDelete, hideUploadAt = 4, only, onChanged, refreshKey, title = testi.titolo, current }: DocumentiPanelProps) {
  const uid = useId();
  const { data, error, isLoading, mutate } = useSWR<MediaList>(['media', listPath], () => request<MediaList>('GET', listPath), { revalidateOnFocus: false });
  // A later change of refreshKey (not the first render, which fetches anyway) reloads the list.
  const firstKey = useRef(refreshKey);
  useEffect(() => {
    if (refreshKey !== firstKey.current) {
      firstKey.current = refreshKey;
      void mutate();
    }
  }, [refreshKey, mutate]);
  const [dialog, setDialog] = useState<{ collection: string } | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [nome, setNome] = useState('');
  const [extra, setExtra] = useState<Record<string, string>>({});
  const [collection, setCollection] = useState('');
  const [uploading, setUploading] = useState(false);
  const [uploadErrors, setUploadErrors] = useState<string[]>([]);
  const [done, setDone] = useState<string>();
  const [preview, setPreview] = useState<MediaItem | null>(null);
  const [deleting, setDeleting] = useState<MediaItem | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string>();

  const collections = useMemo(() => (data?.collections ?? []).filter((c) => !only || only.includes(c.name)), [data, only]);
  const byCollection = useMemo(() => {
    const map = new Map<string, MediaItem[]>();
    for (const m of data?.data ?? []) map.set(m.collection_name, [...(map.get(m.collection_name) ?? []), m]);
    return map;
  }, [data]);
  const full = (c: MediaCollection) => (byCollection.get(c.name)?.length ?? 0) >= Math.min(hideUploadAt, c.maxCount ?? hideUploadAt);
  // Files of another model (a vehicle's booklet) are listed here but uploaded where that model is edited.
  const uploadable = collections.filter((c) => !c.generated && !full(c) && (!c.model || c.model === model));
  const chosen = collections.find((c) => c.name === collection);

  const open = (name = '') => {
    setDialog({ collection: name });
    setCollection(name);
    setFile(null);
    setNome('');
    setExtra({});
    setUploadErrors([]);
    setDone(undefined);
  };

  const submit = async () => {
    if (!collection) {
      setUploadErrors(['Scegli la categoria del documento.']);
      return;
    }
    if (!file) {
      setUploadErrors([testi.nessunFile]);
      return;
    }
    const form = new FormData();
    // The fields first: the server checks the category's limits while the file streams.
    form.append('id', String(ownerId));
    form.append('collection', collection);
    form.append('model', model);
    form.append('nome_file', nome.trim() || file.name);
    for (const name of chosen?.fields ?? []) form.append(name, extra[name] ?? '');
    form.append('file', file);
    setUploading(true);
    setUploadErrors([]);
    try {
      const res = await request<{ message: string }>('POST', uploadPath, { body: form });
      setDialog(null);
      setDone(res.message || testi.successo);
      await mutate();
      onChanged?.();
    } catch (e) {
      setUploadErrors(flatten(e));
    } finally {
      setUploading(false);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(undefined);
    try {
      await request('DELETE', deleting.url);
      setDeleting(null);
      await mutate();
      onChanged?.();
    } catch (e) {
      setDeleteError(e instanceof Error ? e.message : testi.errore);
    } finally {
      setDeleteBusy(false);
    }
  };

  if (error) return <Notice variant="danger" role="alert">{error instanceof Error ? error.message : testi.errore}</Notice>;
  if (isLoading || !data) return <Spinner label="Caricamento documenti…" />;

  return (
    <section aria-labelledby={`${uid}-titolo`} data-testid="documenti">
      <div className="d-flex align-items-center justify-content-between mb-2">
        <h2 id={`${uid}-titolo`} className="h5 mb-0">{title}</h2>
        {canUpload && uploadable.length > 0 && (
          <Button variant="primary" size="sm" onClick={() => open()}>
            {testi.carica}
          </Button>
        )}
      </div>
      {done && <Notice variant="success" role="status" testId="documento-caricato">{done}</Notice>}
      {deleteError && <Notice variant="danger" role="alert">{deleteError}</Notice>}
      {collections.map((c) => {
        const items = byCollection.get(c.name) ?? [];
        if (c.generated && !items.length) return null;
        return (
          <div key={c.name} className="card mb-2" data-testid={`collezione-${c.name}`}>
            <div className="card-header bg-body d-flex align-items-center justify-content-between py-1">
              <h3 className="h6 mb-0">
                {c.title} <span className="badge text-bg-light">{items.length}</span>
              </h3>
              {canUpload && uploadable.includes(c) && (
                <Button variant="outline-primary" size="sm" onClick={() => open(c.name)} aria-label={`${testi.carica}: ${c.title}`}>
                  {testi.carica}
                </Button>
              )}
            </div>
            {items.length === 0 ? (
              <p className="small text-body-secondary m-2">{testi.nessuno}</p>
            ) : (
              <ul className="list-group list-group-flush">
                {items.map((m) => (
                  <li key={m.id} className="list-group-item d-flex flex-wrap align-items-center gap-2" data-testid="documento">
                    <span className="fw-semibold text-break">{m.name}</span>
                    {m.item_model && <span className="badge text-bg-secondary">{m.item_model}</span>}
                    {m.meta?.versione !== undefined && (
                      <span className="small">
                        {testi.versione} {String(m.meta.versione)}
                        {m.meta.valido_dal ? ` · ${testi.validoDal} ${formatDate(m.meta.valido_dal)}` : ''}
                      </span>
                    )}
                    {current?.has(m.id) && <span className="badge text-bg-success">{testi.inVigore}</span>}
                    {m.meta?.verifica && (
                      <span className={`badge ${m.meta.verifica.esito === 'confermato' ? 'text-bg-success' : 'text-bg-warning'}`}>
                        {m.meta.verifica.esito === 'confermato' ? testi.confermato : testi.daRivedere}
                      </span>
                    )}
                    <span className="small text-body-secondary">
                      {size(m.size)} · {formatDateTime(m.created_at)}
                      {m.created_by_name ? ` · ${m.created_by_name}` : ''}
                    </span>
                    <span className="ms-auto d-flex gap-1">
                      <Button size="sm" variant="outline-secondary" onClick={() => setPreview(m)} aria-label={`${testi.anteprima}: ${m.name}`}>
                        {testi.anteprima}
                      </Button>
                      <Button
                        size="sm"
                        variant="outline-secondary"
                        aria-label={`${testi.scarica}: ${m.name}`}
                        onClick={() => void scaricaDocumento(m)}
                      >
                        {testi.scarica}
                      </Button>
                      {canDelete && !c.generated && (
                        <Button size="sm" variant="outline-danger" onClick={() => setDeleting(m)} aria-label={`${testi.elimina}: ${m.name}`}>
                          {testi.elimina}
                        </Button>
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}

      <Modal show={dialog !== null} onHide={uploading ? () => undefined : () => setDialog(null)} centered aria-labelledby={`${uid}-carica`}>
        <Modal.Header closeButton={!uploading} closeLabel={testi.chiudi}>
          <Modal.Title id={`${uid}-carica`}>{testi.carica}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {uploadErrors.length > 0 && (
            <Notice variant="danger" role="alert" testId="errore-caricamento">
              <strong>{testi.errore}</strong>
              <ul className="mb-0 ps-3">
                {uploadErrors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </Notice>
          )}
          <Form.Group controlId={`${uid}-categoria`} className="mb-3">
            <Form.Label>{testi.categoria}</Form.Label>
            <Form.Select value={collection} onChange={(e) => setCollection(e.target.value)}>
              <option value="">{testi.scegliCategoria}</option>
              {uploadable.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.title}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group controlId={`${uid}-nome`} className="mb-3">
            <Form.Label>{testi.nome}</Form.Label>
            <Form.Control value={nome} maxLength={200} onChange={(e) => setNome(e.target.value)} />
          </Form.Group>
          {(chosen?.fields ?? []).map((name) => (
            <Form.Group key={name} controlId={`${uid}-${name}`} className="mb-3">
              <Form.Label>{name === 'versione' ? testi.versione : testi.validoDal}</Form.Label>
              {name === 'valido_dal' ? (
                <DateInput required value={extra[name]} onChange={(v) => setExtra((x) => ({ ...x, [name]: v ?? '' }))} />
              ) : (
                <Form.Control maxLength={50} required value={extra[name] ?? ''} onChange={(e) => setExtra((x) => ({ ...x, [name]: e.target.value }))} />
              )}
            </Form.Group>
          ))}
          <Form.Group controlId={`${uid}-file`}>
            <Form.Label>{testi.file}</Form.Label>
            <Form.Control
              type="file"
              accept={(chosen?.types ?? ['pdf', 'jpeg', 'png']).map((t) => TYPES[t]).join(',')}
              onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
            />
            {chosen && <Form.Text>Massimo {chosen.maxSizeMb} MB.</Form.Text>}
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setDialog(null)} disabled={uploading}>
            {testi.annulla}
          </Button>
          <Button variant="primary" onClick={() => void submit()} disabled={uploading}>
            {uploading ? <Spinner label="Caricamento…" /> : testi.carica}
          </Button>
        </Modal.Footer>
      </Modal>

      <Preview item={preview} onHide={() => setPreview(null)} />
      <ConfirmDialog
        show={deleting !== null}
        title={testi.elimina}
        text={testi.eliminaTesto}
        confirmLabel={testi.elimina}
        busy={deleteBusy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </section>
  );
}

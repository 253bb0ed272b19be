// Every list's export (CSV/XLSX of the current filter, with progress and cancel) and its saved filters (per user).
import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { dataProvider, type ExportProgress } from '../api/dataProvider.ts';
import { Icon } from '../lib/Icon.tsx';
import { useNotify } from '../lib/notify.tsx';
import { msg } from '../messages.ts';
import type { ListConfig, ResourceConfig } from '../types.ts';
import type { ListState } from './useResourceList.ts';
import { useColumnPreferences } from './useResourceList.ts';

function saveFile(blob: Blob, filename: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`);

/** Esporta ▾ CSV | Excel: streams the file, shows the rows received and lets the user stop it. */
export function ExportButton({ resource, state, columns }: { resource: ResourceConfig; state: ListState; columns: () => string[] }) {
  const notify = useNotify();
  const [progress, setProgress] = useState<(ExportProgress & { format: string }) | null>(null);
  const abort = useRef<AbortController | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ format, bytes: 0 });
    try {
      const { blob, filename } = await dataProvider.export(resource, { search: state.search, sort: state.sort, filters: state.filters }, {
        format, columns: columns(), signal: controller.signal, onProgress: (p) => setProgress({ ...p, format }),
      });
      saveFile(blob, filename ?? `${resource.name}.${format}`);
      notify('success', 'Esportazione completata');
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') notify('info', 'Esportazione annullata');
      else notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };
  const percent = progress?.total && progress.rows !== undefined ? Math.min(100, Math.round((progress.rows / Math.max(1, progress.total)) * 100)) : undefined;
  return (
    <>
      <Dropdown>
        <Dropdown.Toggle variant="outline-secondary" size="sm" disabled={progress !== null}>
          <Icon name="download" size={16} /> Esporta
        </Dropdown.Toggle>
        <Dropdown.Menu>
          <Dropdown.Item as="button" onClick={() => void run('csv')}>CSV</Dropdown.Item>
          <Dropdown.Item as="button" onClick={() => void run('xlsx')}>Excel (XLSX)</Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
      {progress && (
        <div className="d-flex align-items-center gap-2" role="status" aria-live="polite" style={{ minWidth: 260 }}>
          <ProgressBar
            className="flex-grow-1"
            animated={percent === undefined}
            now={percent ?? 100}
            aria-label="Avanzamento dell'esportazione"
            label={percent !== undefined ? `${percent}%` : undefined}
          />
          <small className="text-nowrap">
            {progress.rows !== undefined ? `${progress.rows} di ${progress.total ?? '?'} righe` : `${progress.total ?? ''} righe, ${sizeText(progress.bytes)}`}
          </small>
          <Button size="sm" variant="outline-danger" onClick={() => abort.current?.abort()}>
            Annulla
          </Button>
        </div>
      )}
    </>
  );
}

export interface SavedFilter {
  nome: string;
  search: string;
  sort: string;
  filters: Record<string, string>;
}

/** Filtri salvati ▾: the user's named filters and sorts of this list, kept server-side with the preferences. */
export function SavedFilters({ listKey, state, onApply, predefined = [], defaultSort = '' }: {
  listKey: string;
  state: ListState;
  onApply: (saved: SavedFilter) => void;
  /** The list's own (list.json savedFilters), offered to everyone before the user's. */
  predefined?: NonNullable<ListConfig['savedFilters']>;
  defaultSort?: string;
}) {
  const prefs = useColumnPreferences<SavedFilter[]>(`filtri.${listKey}`);
  const [saved, setSaved] = useState<SavedFilter[] | undefined>();
  const list = saved ?? prefs.value ?? [];
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState('');
  const inputId = useId();
  const notify = useNotify();
  const store = (next: SavedFilter[]) => {
    setSaved(next);
    prefs.save(next);
    prefs.save.flush();
  };
  const submit = () => {
    const nome = name.trim();
    if (!nome) return;
    store([...list.filter((f) => f.nome !== nome), { nome, search: state.search, sort: state.sort, filters: state.filters }]);
    setAsking(false);
    setName('');
    notify('success', `Filtro "${nome}" salvato`);
  };
  return (
    <>
      <Dropdown>
        <Dropdown.Toggle variant="outline-secondary" size="sm">
          <Icon name="filter" size={16} /> Filtri salvati
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {predefined.map((f) => (
            <Dropdown.Item as="button" key={`p-${f.nome}`} onClick={() => onApply({ nome: f.nome, search: f.search ?? '', sort: f.sort ?? defaultSort, filters: f.filters ?? {} })}>
              {f.nome}
            </Dropdown.Item>
          ))}
          {predefined.length > 0 && <Dropdown.Divider />}
          {list.map((f) => (
            <Dropdown.Item as="button" key={f.nome} onClick={() => onApply(f)}>
              {f.nome}
            </Dropdown.Item>
          ))}
          {list.length > 0 && <Dropdown.Divider />}
          <Dropdown.Item as="button" onClick={() => setAsking(true)}>
            Salva i filtri attuali…
          </Dropdown.Item>
          {list.map((f) => (
            <Dropdown.Item as="button" key={`x-${f.nome}`} className="text-danger" onClick={() => store(list.filter((g) => g.nome !== f.nome))}>
              Elimina "{f.nome}"
            </Dropdown.Item>
          ))}
        </Dropdown.Menu>
      </Dropdown>
      <Modal show={asking} onHide={() => setAsking(false)} aria-labelledby={`${inputId}-title`}>
        <Form onSubmit={(e) => (e.preventDefault(), submit())}>
          <Modal.Header closeButton closeLabel="Chiudi">
            <Modal.Title id={`${inputId}-title`} as="h2" className="h5">
              Salva i filtri
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <Form.Label htmlFor={inputId}>Nome del filtro</Form.Label>
            <Form.Control id={inputId} autoFocus value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Annulla
            </Button>
            <Button type="submit" variant="primary" disabled={!name.trim()}>
              Salva
            </Button>
          </Modal.Footer>
        </Form>
      </Modal>
    </>
  );
}

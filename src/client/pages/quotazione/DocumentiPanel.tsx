// The 'Documenti' tab: the quotation's files (uploaded by staff or by the customer on the public link) with their downloads.
import useSWR from 'swr';
import Table from 'react-bootstrap/Table';
import { request } from '../../api/dataProvider.ts';
import { getToken } from '../../api/session.ts';
import { formatDateTime } from '../../lib/format.ts';

interface MediaRow {
  id: number;
  name: string;
  collection_name: string;
  item_id: string | null;
  mime_type: string;
  created_by_name: string | null;
  created_at: string;
  url: string;
}

interface Collection {
  name: string;
  title: string;
}

/** Files are fetched with the session token, then opened from memory (a plain link would carry no token). */
async function open(url: string) {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${getToken() ?? ''}` } });
  if (!response.ok) return;
  window.open(URL.createObjectURL(await response.blob()), '_blank', 'noopener');
}

export function DocumentiPanel({ base, id }: { base: string; id: string }) {
  const { data } = useSWR(['media', base, id], () => request<{ data: MediaRow[]; collections: Collection[] }>('GET', `${base}/${encodeURIComponent(id)}/media`));
  const title = (name: string) => data?.collections.find((c) => c.name === name)?.title ?? name;
  return (
    <section className="card mb-3" aria-labelledby="documenti-title">
      <div className="card-body">
        <h2 id="documenti-title" className="h6 card-title text-uppercase text-body-secondary mb-3">Documenti</h2>
        {data && data.data.length === 0 && <p className="text-body-secondary mb-0">Nessun documento caricato.</p>}
        {data && data.data.length > 0 && (
          <div className="table-responsive">
            <Table size="sm" className="mb-0 align-middle" data-testid="documenti">
              <thead>
                <tr>
                  <th scope="col">Categoria</th>
                  <th scope="col">Nome</th>
                  <th scope="col">Caricato da</th>
                  <th scope="col">Data</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((m) => (
                  <tr key={m.id}>
                    <td>{title(m.collection_name)}</td>
                    <td>
                      <button type="button" className="btn btn-link p-0 text-start" onClick={() => void open(m.url)}>{m.name}</button>
                    </td>
                    <td>{m.created_by_name ?? ''}</td>
                    <td className="text-nowrap">{formatDateTime(m.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        )}
      </div>
    </section>
  );
}

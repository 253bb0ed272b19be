// PIANIFICAZIONI (issue 36): the scheduler's schedules for super_admin, each with its times (Europe/Rome), last and next
// run, outcome, 'Esegui ora' and on/off. The server runs them; this screen only reads and asks.
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { callRoute } from '../../api/dataProvider.ts';
import { useRoute } from '../../api/hooks.ts';
import { formatDateTime } from '../../lib/format.ts';
import { usePageMeta } from '../../lib/pageMeta.tsx';
import { useNotify } from '../../lib/notify.tsx';
import { Notice, Spinner } from '../../lib/ui.tsx';
import { msg } from '../../messages.ts';
import type { DeskPageProps } from '../registry.ts';
import { PIANIFICAZIONI_ROUTES } from './routes.ts';

interface Pianificazione {
  nome: string;
  titolo: string;
  descrizione: string;
  cron: string;
  attiva: boolean;
  prossima: string | null;
  ultima: string | null;
  esito: string | null;
  errore: string | null;
}

export const testiPianificazioni = {
  eseguiOra: 'Esegui ora',
  attiva: 'Attiva',
  orario: 'Orario (cron, ora italiana)',
  nessuna: 'Nessuna pianificazione.',
  mai: 'mai',
};

export default function Pianificazioni({ card }: DeskPageProps) {
  const notify = useNotify();
  usePageMeta({ title: card.title, icon: card.icon });
  const { data, error, mutate } = useRoute<{ data: Pianificazione[] }>(PIANIFICAZIONI_ROUTES.elenco, {});
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (nome: string, work: () => Promise<{ message: string }>) => {
    setBusy(nome);
    try {
      notify('success', (await work()).message);
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setBusy(null);
      await mutate();
    }
  };
  if (error) return <Notice variant="danger" role="alert">{error instanceof Error ? error.message : msg.genericError}</Notice>;
  if (!data) return <Spinner label={msg.loading} />;
  return (
    <section aria-label={card.title}>
      {data.data.length === 0 && <p>{testiPianificazioni.nessuna}</p>}
      <Table responsive hover className="align-middle" data-testid="pianificazioni">
        <thead>
          <tr>
            <th scope="col">Pianificazione</th>
            <th scope="col">{testiPianificazioni.orario}</th>
            <th scope="col">{testiPianificazioni.attiva}</th>
            <th scope="col">Ultima esecuzione</th>
            <th scope="col">Esito</th>
            <th scope="col">Prossima</th>
            <th scope="col"><span className="visually-hidden">Azioni</span></th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((p) => (
            <tr key={p.nome} data-nome={p.nome}>
              <td>
                <div className="fw-semibold">{p.titolo}</div>
                <div className="small text-body-secondary">{p.descrizione}</div>
              </td>
              <td><code>{p.cron}</code></td>
              <td>
                <Form.Check
                  type="switch"
                  id={`attiva-${p.nome}`}
                  aria-label={`${testiPianificazioni.attiva}: ${p.titolo}`}
                  checked={p.attiva}
                  disabled={busy !== null}
                  onChange={(e) => void act(p.nome, () => callRoute('PUT', PIANIFICAZIONI_ROUTES.attiva, { nome: p.nome }, { body: { attiva: e.target.checked } }))}
                />
              </td>
              <td>{p.ultima ? formatDateTime(p.ultima) : testiPianificazioni.mai}</td>
              <td className={p.errore ? 'text-danger' : undefined}>{p.errore ?? p.esito ?? ''}</td>
              <td>{p.prossima ? formatDateTime(p.prossima) : '—'}</td>
              <td>
                <Button size="sm" variant="outline-primary" disabled={busy !== null} aria-label={`${testiPianificazioni.eseguiOra}: ${p.titolo}`}
                  onClick={() => void act(p.nome, () => callRoute('POST', PIANIFICAZIONI_ROUTES.esegui, { nome: p.nome }, { body: {} }))}>
                  {busy === p.nome ? <Spinner label={msg.loading} /> : testiPianificazioni.eseguiOra}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

// Step 1 'Seleziona Cliente': existing customer (search, table, daily-use vehicles) or a new client.
import { useState } from 'react';
import { useDebounce } from 'use-debounce';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { useRoute } from '../../api/hooks.ts';
import { RCA_ROUTES } from './routes.ts';
import { formatDate } from '../../lib/format.ts';
import { Notice, Spinner } from '../../lib/ui.tsx';
import type { QuotazioneRcaController } from './useQuotazioneRca.ts';
import { TEXTS } from './texts.ts';

interface Veicolo {
  veicolo_id: string;
  targa: string;
  marca: string;
  modello: string;
  anno: string;
}

interface ClienteTrovato {
  cliente_id: number;
  nome: string | null;
  cognome: string | null;
  codice_fiscale: string | null;
  data_nascita: string | null;
  veicoli_moderni: Veicolo[];
  veicoli_count: number;
}

interface SearchPage {
  data: ClienteTrovato[];
  current_page: number;
  last_page: number;
  total: number;
}

const SEARCH_DEBOUNCE_MS = 1000;

export function StepCliente({ ctl }: { ctl: QuotazioneRcaController }) {
  const [text, setText] = useState('');
  const [term] = useDebounce(text.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<ClienteTrovato | null>(null);
  const [veicolo, setVeicolo] = useState<string | undefined>();
  const search = useRoute<SearchPage>(RCA_ROUTES.cercaCliente, term ? {} : null, { keepPreviousData: true }, { query: { 'filter[cognome_nome]': term, page } });

  return (
    <div>
      <ToggleButtonGroup type="radio" name="tipo-cliente" className="mb-3" value={ctl.modo} onChange={(value: string) => (value === 'nuovo' ? ctl.nuovoCliente() : ctl.clienteEsistente())}>
        <ToggleButton id="tipo-cliente-esistente" value="esistente" variant="outline-primary">{TEXTS.clienteEsistente}</ToggleButton>
        <ToggleButton id="tipo-cliente-nuovo" value="nuovo" variant="outline-primary">{TEXTS.nuovoCliente}</ToggleButton>
      </ToggleButtonGroup>
      {ctl.modo === 'esistente' && (
        <>
          <Form.Group className="mb-3" controlId="cerca-cliente" style={{ maxWidth: 420 }}>
            <Form.Label>{TEXTS.cercaCliente}</Form.Label>
            <Form.Control
              type="search"
              value={text}
              autoComplete="off"
              onChange={(event) => {
                setText(event.target.value);
                setPage(1);
              }}
            />
          </Form.Group>
          {search.isLoading && <Spinner label="Ricerca…" />}
          {search.error && <Notice variant="danger" role="alert">{(search.error as Error).message}</Notice>}
          {term && search.data && (
            <>
              <Table size="sm" hover responsive aria-label="Clienti trovati">
                <thead>
                  <tr>
                    <th>id</th><th>Nome</th><th>Cognome</th><th>Codice Fiscale</th><th>Data di Nascita</th><th>Veicoli</th><th><span className="visually-hidden">Azioni</span></th>
                  </tr>
                </thead>
                <tbody>
                  {search.data.data.length === 0 && (
                    <tr><td colSpan={7} className="text-center text-muted">{TEXTS.nessunCliente}</td></tr>
                  )}
                  {search.data.data.map((c) => (
                    <tr key={c.cliente_id} className={chosen?.cliente_id === c.cliente_id ? 'table-primary' : undefined}>
                      <td>{c.cliente_id}</td>
                      <td>{c.nome}</td>
                      <td>{c.cognome}</td>
                      <td>{c.codice_fiscale}</td>
                      <td>{formatDate(c.data_nascita)}</td>
                      <td>{c.veicoli_count}</td>
                      <td>
                        <Button size="sm" variant="outline-primary" onClick={() => { setChosen(c); setVeicolo(c.veicoli_moderni[0]?.veicolo_id); }}>
                          Seleziona
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
              {search.data.last_page > 1 && (
                <div className="d-flex gap-2 align-items-center mb-3">
                  <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>Precedente</Button>
                  <span>Pagina {search.data.current_page} di {search.data.last_page}</span>
                  <Button size="sm" variant="outline-secondary" disabled={page >= search.data.last_page} onClick={() => setPage((p) => p + 1)}>Successiva</Button>
                </div>
              )}
            </>
          )}
          {chosen && (
            <section aria-label="Veicoli del cliente" className="border rounded p-3 mb-3">
              <h2 className="h6">{[chosen.cognome, chosen.nome].filter(Boolean).join(' ')}</h2>
              {chosen.veicoli_moderni.length === 0 ? (
                <p className="mb-2">{TEXTS.nessunVeicolo}</p>
              ) : (
                <fieldset className="mb-2">
                  <legend className="fs-6">{TEXTS.scegliVeicolo}</legend>
                  {chosen.veicoli_moderni.map((v) => (
                    <Form.Check
                      key={v.veicolo_id}
                      type="radio"
                      id={`veicolo-${v.veicolo_id}`}
                      name="veicolo"
                      checked={veicolo === v.veicolo_id}
                      onChange={() => setVeicolo(v.veicolo_id)}
                      label={`${v.targa} - ${v.marca} ${v.modello} (${v.anno})`}
                    />
                  ))}
                </fieldset>
              )}
              <Button onClick={() => void ctl.caricaCliente(chosen, veicolo)}>
                {TEXTS.vaiAvanti}
              </Button>
            </section>
          )}
        </>
      )}
    </div>
  );
}

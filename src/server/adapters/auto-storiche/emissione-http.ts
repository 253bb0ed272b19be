// The insurer's issue API over HTTP (AUTO_STORICHE_EMISSIONE_ADAPTER=http); shapes and endpoints in emissione-wire.ts.
import { EsitoIncerto, type AutoStoricheEmissione, type EsitoEmissione, type EsitoRicerca, type EsitoStorno, type RichiestaEmissione } from './emissione-types.ts';
import {
  ENDPOINT, esitoEmissioneDaWire, esitoStornoDaWire, ricercaDaWire, richiestaWire,
  type ConfigurazioneHttp, type WireEsito, type WireRicerca,
} from './emissione-wire.ts';

/** One call to the insurer. A timeout, a reset connection or a 5xx leave the outcome unknown: the caller reconciles by key. */
export async function chiamaCompagnia<T>(config: ConfigurazioneHttp, method: string, path: string, body?: unknown, chiave?: string): Promise<{ status: number; json: T }> {
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${config.apiKey}`, accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(chiave ? { 'idempotency-key': chiave } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const timeout = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
    throw new EsitoIncerto(timeout ? 'Nessuna risposta dalla compagnia entro il tempo massimo.' : `Compagnia non raggiungibile: ${(error as Error).message}`, timeout ? 'timeout' : 'rete');
  }
  if (response.status >= 500) throw new EsitoIncerto(`La compagnia ha risposto ${response.status}.`, 'http_5xx');
  if (response.status === 409 && chiave) throw new EsitoIncerto('La compagnia segnala una richiesta con la stessa chiave già ricevuta (HTTP 409).', 'conflitto');
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new EsitoIncerto(`Risposta della compagnia non leggibile (HTTP ${response.status}).`, 'rete');
  }
  return { status: response.status, json: json as T };
}

export class HttpAutoStoricheEmissione implements AutoStoricheEmissione {
  constructor(private readonly config: ConfigurazioneHttp) {}

  private chiama<T>(method: string, path: string, body?: unknown, chiave?: string): Promise<{ status: number; json: T }> {
    return chiamaCompagnia<T>(this.config, method, path, body, chiave);
  }

  /** A 4xx with no result in the body is a refusal of the request: an error answer, never an uncertain one. */
  private esito(status: number, json: WireEsito): WireEsito {
    if (status >= 400 && typeof json.result !== 'number') {
      return { result: 2, Error: json.Error ?? [{ descError: `Richiesta rifiutata dalla compagnia (HTTP ${status}).` }] };
    }
    return json;
  }

  async anteprima(richiesta: RichiestaEmissione): Promise<EsitoEmissione> {
    const { status, json } = await this.chiama<WireEsito>(ENDPOINT.anteprima.method, ENDPOINT.anteprima.path(), richiestaWire(richiesta));
    return esitoEmissioneDaWire(this.esito(status, json));
  }

  async emetti(chiave: string, richiesta: RichiestaEmissione): Promise<EsitoEmissione> {
    const { status, json } = await this.chiama<WireEsito>(ENDPOINT.emetti.method, ENDPOINT.emetti.path(), richiestaWire(richiesta), chiave);
    return esitoEmissioneDaWire(this.esito(status, json));
  }

  async storna(chiave: string, numeroPolizza: string): Promise<EsitoStorno> {
    const { status, json } = await this.chiama<WireEsito>(ENDPOINT.storna.method, ENDPOINT.storna.path(numeroPolizza), {}, chiave);
    return esitoStornoDaWire(this.esito(status, json));
  }

  async rigeneraDocumenti(numeroPolizza: string) {
    const { status, json } = await this.chiama<WireEsito>(ENDPOINT.documenti.method, ENDPOINT.documenti.path(numeroPolizza), {});
    const esito = esitoEmissioneDaWire(this.esito(status, json));
    return { result: esito.result === 0 ? 0 as const : 2 as const, Error: esito.Error, documenti: esito.documenti };
  }

  async cerca(chiave: string): Promise<EsitoRicerca> {
    const { status, json } = await this.chiama<WireRicerca>(ENDPOINT.cerca.method, ENDPOINT.cerca.path(chiave));
    if (status === 404) return { trovata: false };
    if (status >= 400) throw new EsitoIncerto(`Ricerca per chiave rifiutata dalla compagnia (HTTP ${status}).`, 'rete');
    return ricercaDaWire(json);
  }
}

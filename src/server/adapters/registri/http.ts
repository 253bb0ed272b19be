// HTTP implementation of the registries, configured by REGISTRY_URL, REGISTRY_API_KEY and REGISTRY_TIMEOUT_MS.
import type { DatiRegistro } from '../../../shared/registri.ts';
import { PERCORSO_INTERROGAZIONE, richiestaHttp, rispostaHttp } from './shapes.ts';
import { RegistroNonDisponibile, type RegistriAdapter, type RichiestaRegistro } from './types.ts';

export class HttpRegistri implements RegistriAdapter {
  constructor(private readonly options: { url: string; apiKey?: string; timeoutMs: number }) {}

  async interroga(richiesta: RichiestaRegistro): Promise<DatiRegistro> {
    let response: Response;
    try {
      response = await fetch(new URL(PERCORSO_INTERROGAZIONE, this.options.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify(richiestaHttp(richiesta)),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch {
      throw new RegistroNonDisponibile('Il servizio ANIA non risponde: riprova più tardi.');
    }
    // A registry lookup creates nothing outside, so it may simply be asked again later.
    if (!response.ok) throw new RegistroNonDisponibile(`Il servizio ANIA ha risposto con errore ${response.status}: riprova più tardi.`);
    const dati = rispostaHttp(await response.json().catch(() => undefined));
    if (!dati) throw new RegistroNonDisponibile('Il servizio ANIA ha dato una risposta non valida.');
    return dati;
  }
}

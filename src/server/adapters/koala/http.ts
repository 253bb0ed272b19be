// Koala over HTTP; shapes in wire.ts.
import { KoalaNonRaggiungibile, type DatiEmissioneKoala, type EsitoKoala, type KoalaBroker } from './types.ts';
import { esitoDaWire, importWire, KOALA_IMPORT_PATH, type ConfigurazioneKoala, type WireRispostaKoala } from './wire.ts';

export class HttpKoala implements KoalaBroker {
  constructor(private readonly config: ConfigurazioneKoala) {}

  async reimportaEmissione(chiave: string, dati: DatiEmissioneKoala): Promise<EsitoKoala> {
    let response: Response;
    try {
      response = await fetch(`${this.config.baseUrl}${KOALA_IMPORT_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.config.token}`, 'content-type': 'application/json', 'idempotency-key': chiave },
        body: JSON.stringify(importWire(dati)),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      throw new KoalaNonRaggiungibile(`Koala non raggiungibile: ${(error as Error).message}`);
    }
    if (response.status >= 500) throw new KoalaNonRaggiungibile(`Koala ha risposto ${response.status}.`);
    const json = (await response.json().catch(() => ({}))) as WireRispostaKoala;
    return esitoDaWire(response.status, json);
  }
}

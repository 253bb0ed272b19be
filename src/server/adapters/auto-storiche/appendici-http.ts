// The insurer's appendix API over HTTP (AUTO_STORICHE_EMISSIONE_ADAPTER=http); shapes and endpoints in appendici-wire.ts.
import { EsitoIncerto } from './emissione-types.ts';
import type { ConfigurazioneHttp } from './emissione-wire.ts';
import { chiamaCompagnia } from './emissione-http.ts';
import { calcoloDaWire, ENDPOINT_APPENDICI, esitoDaWire, ricercaDaWire, versoWire } from './appendici-wire.ts';
import type { AutoStoricheAppendici, EsitoAppendice, EsitoCalcoloAppendice, RichiestaAppendice, RichiestaCalcoloAppendice, RicercaAppendice } from './appendici-types.ts';

type Wire = Parameters<typeof esitoDaWire>[0] & Parameters<typeof calcoloDaWire>[0];

export class HttpAutoStoricheAppendici implements AutoStoricheAppendici {
  constructor(private readonly config: ConfigurazioneHttp) {}

  private async calcola(path: string, richiesta: RichiestaCalcoloAppendice): Promise<EsitoCalcoloAppendice> {
    const { json } = await chiamaCompagnia<Wire>(this.config, 'POST', path, versoWire(richiesta));
    return calcoloDaWire(json);
  }

  calcolaInclusione(richiesta: RichiestaCalcoloAppendice) {
    return this.calcola(ENDPOINT_APPENDICI.calcolaInclusione(richiesta.numero_polizza), richiesta);
  }

  calcolaEsclusione(richiesta: RichiestaCalcoloAppendice) {
    return this.calcola(ENDPOINT_APPENDICI.calcolaEsclusione(richiesta.numero_polizza), richiesta);
  }

  async anteprima(richiesta: RichiestaAppendice): Promise<EsitoAppendice> {
    const { json } = await chiamaCompagnia<Wire>(this.config, 'POST', ENDPOINT_APPENDICI.anteprima(richiesta.numero_polizza), versoWire(richiesta));
    return esitoDaWire(json);
  }

  async emetti(chiave: string, richiesta: RichiestaAppendice): Promise<EsitoAppendice> {
    const { json } = await chiamaCompagnia<Wire>(this.config, 'POST', ENDPOINT_APPENDICI.emetti(richiesta.numero_polizza), versoWire(richiesta), chiave);
    return esitoDaWire(json);
  }

  async cerca(chiave: string): Promise<RicercaAppendice> {
    const { status, json } = await chiamaCompagnia<unknown>(this.config, 'GET', ENDPOINT_APPENDICI.cerca(chiave));
    if (status >= 400 && status !== 404) throw new EsitoIncerto(`Ricerca per chiave rifiutata dalla compagnia (HTTP ${status}).`, 'rete');
    return ricercaDaWire(status, json);
  }
}

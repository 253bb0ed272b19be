// Deterministic sandbox of the insurer's appendices: premiums from the tariff, pro rata of the policy year; faults on request.
import { rateoCentesimi } from '../../../shared/appendici.ts';
import { EsitoIncerto } from './emissione-types.ts';
import { SandboxAutoStoriche, type Tariffa } from './sandbox.ts';
import type { AutoStoricheAppendici, EsitoAppendice, EsitoCalcoloAppendice, RichiestaAppendice, RichiestaCalcoloAppendice, RicercaAppendice } from './appendici-types.ts';

/** Faults a test may ask for, by plate, one per call: the insurer commits then the answer is lost, or it answers 500 and commits nothing. */
export type GuastoAppendice = 'timeout_dopo_commit' | 'errore_500';

/** The insurer is one system for every app instance of this process: its books live at module level. */
const appendici = new Map<string, EsitoAppendice & { riferimento: string }>();
const guasti = new Map<string, GuastoAppendice[]>();
let progressivo = 0;

export function impostaGuastiAppendiciSandbox(targa: string, elenco: GuastoAppendice[]): void {
  guasti.set(targa.toUpperCase(), [...elenco]);
}

/** Appendices the sandbox insurer issued for a reference (what a test compares with our records). */
export function appendiciEmesseSandbox(riferimento: string): string[] {
  return [...appendici.values()].filter((a) => a.result === 0 && a.riferimento === riferimento).map((a) => a.numero_appendice!);
}

/** Plates starting with ERR are refused (2), with WRN warned (1): every answer can be reached from the data. */
function valuta(richiesta: RichiestaAppendice): EsitoAppendice | undefined {
  const targa = richiesta.veicolo.targa.toUpperCase();
  if (targa.startsWith('ERR')) return { result: 2, Error: [{ codError: 'A102', descError: `Targa ${targa} non assicurabile con appendice.` }] };
  if (targa.startsWith('WRN')) return { result: 1, Error: [{ codError: 'A010', descError: `Verificare i dati del veicolo ${targa} prima dell'emissione dell'appendice.` }] };
  return undefined;
}

export class SandboxAutoStoricheAppendici implements AutoStoricheAppendici {
  private readonly tariffa: SandboxAutoStoriche;

  constructor(tariffa: Tariffa, private readonly oggi: () => Date = () => new Date()) {
    this.tariffa = new SandboxAutoStoriche(tariffa);
  }

  /** The vehicle's yearly company premium by the same tariff as the policy, and its share for the rest of the year. */
  private async rateo(richiesta: RichiestaCalcoloAppendice): Promise<EsitoCalcoloAppendice> {
    const quota = await this.tariffa.quota({
      veicoli: [richiesta.veicolo], provincia: richiesta.provincia, minoreAnni: richiesta.minoreAnni, competenze_centesimi: 0, oggi: this.oggi(),
    });
    if (!quota.ok) return { ok: false, Error: quota.errori.map((e) => ({ codError: 'A200', descError: e.motivo })) };
    const annuo = quota.premio_compagnia_centesimi;
    return { ok: true, premio_annuo_veicolo_centesimi: annuo, premio_centesimi: rateoCentesimi(annuo, richiesta.data_effetto, richiesta.decorrenza, richiesta.scadenza) };
  }

  calcolaInclusione(richiesta: RichiestaCalcoloAppendice) {
    return this.rateo(richiesta);
  }

  calcolaEsclusione(richiesta: RichiestaCalcoloAppendice) {
    return this.rateo(richiesta);
  }

  async anteprima(richiesta: RichiestaAppendice): Promise<EsitoAppendice> {
    return valuta(richiesta) ?? { result: 0, Error: [] };
  }

  async emetti(chiave: string, richiesta: RichiestaAppendice): Promise<EsitoAppendice> {
    const coda = guasti.get(richiesta.veicolo.targa.toUpperCase());
    const guasto = coda?.shift();
    if (guasto === 'errore_500') throw new EsitoIncerto('La compagnia ha risposto 500 Internal Server Error.', 'http_5xx');
    let esito = appendici.get(chiave);
    if (!esito) {
      const rifiuto = valuta(richiesta);
      progressivo += rifiuto ? 0 : 1;
      esito = { ...(rifiuto ?? { result: 0, Error: [], numero_appendice: `AP${String(5000000 + progressivo).padStart(9, '0')}` }), riferimento: richiesta.riferimento };
      appendici.set(chiave, esito);
    }
    if (guasto === 'timeout_dopo_commit') throw new EsitoIncerto('Nessuna risposta dalla compagnia entro il tempo massimo.', 'timeout');
    const { riferimento: _omit, ...risposta } = esito;
    return structuredClone(risposta);
  }

  async cerca(chiave: string): Promise<RicercaAppendice> {
    const esito = appendici.get(chiave);
    if (!esito) return { trovata: false };
    const { riferimento: _omit, ...risposta } = esito;
    return { trovata: true, esito: structuredClone(risposta) };
  }
}

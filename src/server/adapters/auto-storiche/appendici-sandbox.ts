// Deterministic sandbox of the insurer's appendices: premiums from the tariff, pro rata of the policy year; faults on request.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import { RegistroSandbox, type Trx } from '../sandbox-registro.ts';
import { rateoCentesimi } from '../../../shared/appendici.ts';
import { EsitoIncerto } from './emissione-types.ts';
import { SandboxAutoStoriche, type Tariffa } from './sandbox.ts';
import type { AutoStoricheAppendici, EsitoAppendice, EsitoCalcoloAppendice, RichiestaAppendice, RichiestaCalcoloAppendice, RicercaAppendice } from './appendici-types.ts';

/** Faults a test may ask for, by plate, one per call: the insurer commits then the answer is lost, or it answers 500 and commits nothing. */
export type GuastoAppendice = 'timeout_dopo_commit' | 'errore_500';

/** Faults are the tests' knobs, in this process; the insurer's books are in PostgreSQL (sandbox-registro.ts). */
const guasti = new Map<string, GuastoAppendice[]>();

const SISTEMA = 'auto_storiche_appendici';

/** The numbering starts past every appendix already recorded here (issued before the books were kept). */
async function avvio(trx: Trx): Promise<number> {
  if (!(await sql<{ t: string | null }>`SELECT to_regclass('appendice')::text AS t`.execute(trx)).rows[0]!.t) return 0;
  const max = await sql<{ n: number | null }>`SELECT max(substring(numero_appendice from 3)::bigint) - 5000000 AS n
    FROM appendice WHERE numero_appendice ~ '^AP[0-9]{9}$'`.execute(trx);
  return Math.max(Number(max.rows[0]!.n ?? 0), 0);
}

export function impostaGuastiAppendiciSandbox(targa: string, elenco: GuastoAppendice[]): void {
  guasti.set(targa.toUpperCase(), [...elenco]);
}

/** Appendices the sandbox insurer of this database issued for a reference (what a test compares with our records). */
export async function appendiciEmesseSandbox(db: Database, riferimento: string): Promise<string[]> {
  const voci = await new RegistroSandbox(db, SISTEMA, avvio).voci<EsitoAppendice>({ riferimento });
  return voci.filter((v) => v.esito.result === 0).map((v) => v.numero!);
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
  private readonly registro: RegistroSandbox;

  constructor(db: Database, tariffa: Tariffa, private readonly oggi: () => Date = () => new Date()) {
    this.tariffa = new SandboxAutoStoriche(tariffa);
    this.registro = new RegistroSandbox(db, SISTEMA, avvio);
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
    // The same key answers the same appendix; a new one takes the next number of the books, never one given before.
    const voce = await this.registro.unaVolta<EsitoAppendice>(chiave, async (prossimo) => {
      const rifiuto = valuta(richiesta);
      if (rifiuto) return { operazione: 'appendice', riferimento: richiesta.riferimento, esito: rifiuto };
      const numero = `AP${String(5000000 + await prossimo()).padStart(9, '0')}`;
      return { operazione: 'appendice', riferimento: richiesta.riferimento, numero, esito: { result: 0, Error: [], numero_appendice: numero } };
    });
    if (guasto === 'timeout_dopo_commit') throw new EsitoIncerto('Nessuna risposta dalla compagnia entro il tempo massimo.', 'timeout');
    return structuredClone(voce.esito);
  }

  async cerca(chiave: string): Promise<RicercaAppendice> {
    const voce = await this.registro.voce<EsitoAppendice>(chiave);
    return voce ? { trovata: true, esito: voce.esito } : { trovata: false };
  }
}

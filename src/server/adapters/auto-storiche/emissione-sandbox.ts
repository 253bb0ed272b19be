// Deterministic sandbox of the insurer's issue side: the data choose the result, tests inject transport faults.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import { RegistroSandbox, type Trx } from '../sandbox-registro.ts';
import {
  EsitoIncerto, type AutoStoricheEmissione, type EsitoEmissione, type EsitoRicerca, type EsitoStorno, type RichiestaEmissione,
} from './emissione-types.ts';

/**
 * Faults a test may ask for, consumed one per call for the given reference (quotation reference or policy number):
 * - timeout_dopo_commit: the insurer issues, the answer never arrives;
 * - errore_500: the insurer answers 500 and issues nothing;
 * - risposta_doppia: the answer arrives, then the same answer is delivered a second time;
 * - ricerca_non_disponibile: the next lookup by key fails too.
 */
export type GuastoSandbox = 'timeout_dopo_commit' | 'errore_500' | 'risposta_doppia' | 'ricerca_non_disponibile';

/** Faults are the tests' knobs, in this process; the insurer's books are in PostgreSQL (sandbox-registro.ts). */
const guasti = new Map<string, GuastoSandbox[]>();

const SISTEMA = 'auto_storiche';
const numeroPolizza = (n: number) => `AS${String(7000000 + n).padStart(9, '0')}`;

/**
 * The books start past every policy this insurer is known to have issued before they were kept (an install seeded by an
 * older version): those are recorded as issued, with their reversal, so that a restart neither reuses their numbers nor
 * forgets them.
 */
async function avvio(trx: Trx): Promise<number> {
  if (!(await sql<{ t: string | null }>`SELECT to_regclass('polizza_auto_storica')::text AS t`.execute(trx)).rows[0]!.t) return 0;
  await sql`INSERT INTO sandbox_registro (sistema, chiave, operazione, riferimento, numero, esito)
    SELECT ${SISTEMA}, 'pregressa-' || p.id, 'emissione', 'quotazione-' || p.quotazione_id, p.numero_polizza,
      coalesce(p.risposta_compagnia, jsonb_build_object('result', 0, 'Error', '[]'::jsonb, 'verti_policy_number', p.numero_polizza))
    FROM polizza_auto_storica p WHERE p.numero_polizza IS NOT NULL ON CONFLICT DO NOTHING`.execute(trx);
  await sql`INSERT INTO sandbox_registro (sistema, chiave, operazione, numero, esito)
    SELECT ${SISTEMA}, 'pregressa-storno-' || p.id, 'storno', p.numero_polizza, '{"result": 0, "Error": []}'::jsonb
    FROM polizza_auto_storica p WHERE p.numero_polizza IS NOT NULL AND p.stornata ON CONFLICT DO NOTHING`.execute(trx);
  const max = await sql<{ n: number | null }>`SELECT max(substring(numero_polizza from 3)::bigint) - 7000000 AS n
    FROM polizza_auto_storica WHERE numero_polizza ~ '^AS[0-9]{9}$'`.execute(trx);
  return Math.max(Number(max.rows[0]!.n ?? 0), 0);
}

export function impostaGuastiSandbox(riferimento: string, elenco: GuastoSandbox[]): void {
  guasti.set(riferimento, [...elenco]);
}

/** The distinct policies the sandbox insurer of this database issued for a reference (what a test compares with our records). */
export async function polizzeEmesseSandbox(db: Database, riferimento: string): Promise<string[]> {
  const voci = await new RegistroSandbox(db, SISTEMA, avvio).voci<EsitoEmissione>({ riferimento, operazione: 'emissione' });
  return voci.filter((v) => v.esito.result === 0).map((v) => v.numero!);
}

function prossimoGuasto(riferimento: string, ammessi: GuastoSandbox[]): GuastoSandbox | undefined {
  const coda = guasti.get(riferimento);
  if (!coda?.length || !ammessi.includes(coda[0]!)) return undefined;
  return coda.shift();
}

function italiana(data: string): string {
  const [y, m, d] = data.split('-');
  return `${d}/${m}/${y}`;
}

/**
 * The insurer's checks, chosen by the data so that every answer can be reached:
 * a plate starting with ERR is refused (2), one starting with WRN gets a warning (1), a previous policy expiring
 * after the effective date is refused unless the check is switched off.
 */
function valuta(richiesta: RichiestaEmissione): EsitoEmissione | undefined {
  if (!richiesta.veicoli.length) return { result: 2, Error: [{ codError: 'E001', descError: 'Nessun veicolo da assicurare.' }] };
  const errori = richiesta.veicoli.filter((v) => v.targa.toUpperCase().startsWith('ERR'))
    .map((v) => ({ codError: 'E102', descError: `Targa ${v.targa} già assicurata presso altra compagnia.` }));
  if (richiesta.check_atrc_contract_expiration_date) {
    for (const v of richiesta.veicoli) {
      if (v.atrc_contract_expiration_date && v.atrc_contract_expiration_date > richiesta.decorrenza) {
        errori.push({ codError: 'E210', descError: `La polizza precedente del veicolo ${v.targa} scade il ${italiana(v.atrc_contract_expiration_date)}, dopo la decorrenza richiesta.` });
      }
    }
  }
  if (errori.length) return { result: 2, Error: errori };
  const avvisi = richiesta.veicoli.filter((v) => v.targa.toUpperCase().startsWith('WRN'))
    .map((v) => ({ codError: 'W010', descError: `Dati ANIA del veicolo ${v.targa} da verificare prima dell'emissione.` }));
  if (avvisi.length) return { result: 1, Error: avvisi };
  return undefined;
}

export class SandboxAutoStoricheEmissione implements AutoStoricheEmissione {
  private readonly registro: RegistroSandbox;

  /** `consegnaDuplicata` receives the second delivery of an answer (fault risposta_doppia), as a webhook would. */
  constructor(db: Database, private readonly consegnaDuplicata?: (chiave: string, esito: EsitoEmissione) => void) {
    this.registro = new RegistroSandbox(db, SISTEMA, avvio);
  }

  async anteprima(richiesta: RichiestaEmissione): Promise<EsitoEmissione> {
    return valuta(richiesta) ?? { result: 0, Error: [] };
  }

  async emetti(chiave: string, richiesta: RichiestaEmissione): Promise<EsitoEmissione> {
    const guasto = prossimoGuasto(richiesta.riferimento, ['timeout_dopo_commit', 'errore_500', 'risposta_doppia']);
    if (guasto === 'errore_500') throw new EsitoIncerto('La compagnia ha risposto 500 Internal Server Error.', 'http_5xx');
    // The same key answers the same policy; a new policy takes the next number of the insurer's books, never one given before.
    const voce = await this.registro.unaVolta<EsitoEmissione>(chiave, async (prossimo) => {
      const rifiuto = valuta(richiesta);
      if (rifiuto) return { operazione: 'emissione', riferimento: richiesta.riferimento, esito: rifiuto };
      const numero = numeroPolizza(await prossimo());
      return {
        operazione: 'emissione', riferimento: richiesta.riferimento, numero,
        esito: {
          result: 0, verti_policy_number: numero, Error: [],
          infodrive_id: `IDV-${createHash('sha256').update(chiave).digest('hex').slice(0, 10).toUpperCase()}`,
          documenti: [
            { nome: 'Contratto di assicurazione', url: `sandbox://auto-storiche/${numero}/contratto.pdf` },
            { nome: 'Certificato di assicurazione', url: `sandbox://auto-storiche/${numero}/certificato.pdf` },
          ],
        },
      };
    });
    if (voce.operazione !== 'emissione') return { result: 2, Error: [{ codError: 'E409', descError: 'Chiave di idempotenza già usata per un\'altra operazione.' }] };
    if (guasto === 'timeout_dopo_commit') throw new EsitoIncerto('Nessuna risposta dalla compagnia entro il tempo massimo.', 'timeout');
    const risposta = structuredClone(voce.esito);
    if (guasto === 'risposta_doppia' && this.consegnaDuplicata) {
      const again = structuredClone(risposta);
      setImmediate(() => this.consegnaDuplicata!(chiave, again));
    }
    return risposta;
  }

  async storna(chiave: string, numeroPolizza: string): Promise<EsitoStorno> {
    const guasto = prossimoGuasto(numeroPolizza, ['timeout_dopo_commit', 'errore_500']);
    if (guasto === 'errore_500') throw new EsitoIncerto('La compagnia ha risposto 500 Internal Server Error.', 'http_5xx');
    const voce = await this.registro.unaVolta<EsitoStorno>(chiave, async (_prossimo, trx) => {
      // One reversal per policy, whatever the keys: the policy's own lock decides.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${SISTEMA}), hashtext(${numeroPolizza}))`.execute(trx);
      const voci = (await sql<{ operazione: string; esito: { result: number } }>`SELECT operazione, esito FROM sandbox_registro
        WHERE sistema = ${SISTEMA} AND numero = ${numeroPolizza}`.execute(trx)).rows;
      const emessa = voci.some((v) => v.operazione === 'emissione' && v.esito.result === 0);
      const stornata = voci.some((v) => v.operazione === 'storno' && v.esito.result === 0);
      const esito: EsitoStorno = !emessa
        ? { result: 2, Error: [{ codError: 'E404', descError: `Polizza ${numeroPolizza} non trovata.` }] }
        : stornata
          ? { result: 2, Error: [{ codError: 'E409', descError: `La polizza ${numeroPolizza} è già stornata.` }] }
          : { result: 0, Error: [] };
      return { operazione: 'storno', numero: numeroPolizza, esito };
    });
    if (guasto === 'timeout_dopo_commit') throw new EsitoIncerto('Nessuna risposta dalla compagnia entro il tempo massimo.', 'timeout');
    return structuredClone(voce.esito);
  }

  async rigeneraDocumenti(numeroPolizza: string) {
    const esito = (await this.registro.voci<EsitoEmissione>({ numero: numeroPolizza, operazione: 'emissione' })).find((v) => v.esito.result === 0)?.esito;
    if (!esito) return { result: 2 as const, Error: [{ codError: 'E404', descError: `Polizza ${numeroPolizza} non trovata.` }] };
    return { result: 0 as const, Error: [], documenti: structuredClone(esito.documenti ?? []) };
  }

  async cerca(chiave: string): Promise<EsitoRicerca> {
    const voce = await this.registro.voce<EsitoEmissione | EsitoStorno>(chiave);
    const riferimento = voce?.operazione === 'emissione' ? voce.riferimento : voce?.numero;
    if (riferimento && prossimoGuasto(riferimento, ['ricerca_non_disponibile'])) {
      throw new EsitoIncerto('Servizio di ricerca della compagnia non disponibile.', 'http_5xx');
    }
    if (voce?.operazione === 'emissione') return { trovata: true, operazione: 'emissione', esito: structuredClone(voce.esito as EsitoEmissione) };
    if (voce?.operazione === 'storno') return { trovata: true, operazione: 'storno', esito: structuredClone(voce.esito as EsitoStorno) };
    return { trovata: false };
  }
}

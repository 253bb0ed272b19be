// Deterministic sandbox of the insurer's issue side: the data choose the result, tests inject transport faults.
import { createHash } from 'node:crypto';
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

/** The insurer is one system for every app instance of this process: its books live at module level. */
const emissioni = new Map<string, EsitoEmissione>();
const storni = new Map<string, { numero: string; esito: EsitoStorno }>();
const stornate = new Set<string>();
const guasti = new Map<string, GuastoSandbox[]>();
let progressivo = 0;

export function impostaGuastiSandbox(riferimento: string, elenco: GuastoSandbox[]): void {
  guasti.set(riferimento, [...elenco]);
}

/** How many distinct policies the sandbox insurer issued for a reference (what a test compares with our records). */
export function polizzeEmesseSandbox(riferimento: string): string[] {
  return [...emissioni.values()].filter((e) => e.result === 0 && (e as EsitoEmissione & { riferimento?: string }).riferimento === riferimento)
    .map((e) => e.verti_policy_number!);
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
  /** `consegnaDuplicata` receives the second delivery of an answer (fault risposta_doppia), as a webhook would. */
  constructor(private readonly consegnaDuplicata?: (chiave: string, esito: EsitoEmissione) => void) {}

  async anteprima(richiesta: RichiestaEmissione): Promise<EsitoEmissione> {
    return valuta(richiesta) ?? { result: 0, Error: [] };
  }

  async emetti(chiave: string, richiesta: RichiestaEmissione): Promise<EsitoEmissione> {
    const guasto = prossimoGuasto(richiesta.riferimento, ['timeout_dopo_commit', 'errore_500', 'risposta_doppia']);
    if (guasto === 'errore_500') throw new EsitoIncerto('La compagnia ha risposto 500 Internal Server Error.', 'http_5xx');
    let esito = emissioni.get(chiave);
    if (!esito) {
      const rifiuto = valuta(richiesta);
      if (rifiuto) esito = rifiuto;
      else {
        progressivo += 1;
        const numero = `AS${String(7000000 + progressivo).padStart(9, '0')}`;
        esito = {
          result: 0, verti_policy_number: numero, Error: [],
          infodrive_id: `IDV-${createHash('sha256').update(chiave).digest('hex').slice(0, 10).toUpperCase()}`,
          documenti: [
            { nome: 'Contratto di assicurazione', url: `sandbox://auto-storiche/${numero}/contratto.pdf` },
            { nome: 'Certificato di assicurazione', url: `sandbox://auto-storiche/${numero}/certificato.pdf` },
          ],
        };
      }
      emissioni.set(chiave, Object.assign(esito, { riferimento: richiesta.riferimento }));
    }
    if (guasto === 'timeout_dopo_commit') throw new EsitoIncerto('Nessuna risposta dalla compagnia entro il tempo massimo.', 'timeout');
    const risposta = pubblico(esito);
    if (guasto === 'risposta_doppia' && this.consegnaDuplicata) {
      const again = structuredClone(risposta);
      setImmediate(() => this.consegnaDuplicata!(chiave, again));
    }
    return risposta;
  }

  async storna(chiave: string, numeroPolizza: string): Promise<EsitoStorno> {
    const guasto = prossimoGuasto(numeroPolizza, ['timeout_dopo_commit', 'errore_500']);
    if (guasto === 'errore_500') throw new EsitoIncerto('La compagnia ha risposto 500 Internal Server Error.', 'http_5xx');
    let registrato = storni.get(chiave);
    if (!registrato) {
      const emessa = [...emissioni.values()].some((e) => e.verti_policy_number === numeroPolizza);
      const esito: EsitoStorno = !emessa
        ? { result: 2, Error: [{ codError: 'E404', descError: `Polizza ${numeroPolizza} non trovata.` }] }
        : stornate.has(numeroPolizza)
          ? { result: 2, Error: [{ codError: 'E409', descError: `La polizza ${numeroPolizza} è già stornata.` }] }
          : { result: 0, Error: [] };
      if (esito.result === 0) stornate.add(numeroPolizza);
      registrato = { numero: numeroPolizza, esito };
      storni.set(chiave, registrato);
    }
    if (guasto === 'timeout_dopo_commit') throw new EsitoIncerto('Nessuna risposta dalla compagnia entro il tempo massimo.', 'timeout');
    return structuredClone(registrato.esito);
  }

  async rigeneraDocumenti(numeroPolizza: string) {
    const esito = [...emissioni.values()].find((e) => e.verti_policy_number === numeroPolizza);
    if (!esito) return { result: 2 as const, Error: [{ codError: 'E404', descError: `Polizza ${numeroPolizza} non trovata.` }] };
    return { result: 0 as const, Error: [], documenti: structuredClone(esito.documenti ?? []) };
  }

  async cerca(chiave: string): Promise<EsitoRicerca> {
    const emessa = emissioni.get(chiave);
    const riferimento = (emessa as { riferimento?: string } | undefined)?.riferimento ?? storni.get(chiave)?.numero;
    if (riferimento && prossimoGuasto(riferimento, ['ricerca_non_disponibile'])) {
      throw new EsitoIncerto('Servizio di ricerca della compagnia non disponibile.', 'http_5xx');
    }
    if (emessa) return { trovata: true, operazione: 'emissione', esito: pubblico(emessa) };
    const storno = storni.get(chiave);
    if (storno) return { trovata: true, operazione: 'storno', esito: structuredClone(storno.esito) };
    return { trovata: false };
  }
}

function pubblico(esito: EsitoEmissione): EsitoEmissione {
  const { riferimento: _omit, ...rest } = esito as EsitoEmissione & { riferimento?: string };
  return structuredClone(rest);
}

// Deterministic Koala sandbox: imports are numbered, a policy without a tax code is refused, tests can make it unreachable.
// Its books are in PostgreSQL (sandbox-registro.ts): import ids are never given twice, across restarts and instances.
import type { Database } from '../../db/connection.ts';
import { RegistroSandbox } from '../sandbox-registro.ts';
import { KoalaNonRaggiungibile, type DatiEmissioneKoala, type EsitoKoala, type KoalaBroker } from './types.ts';

const SISTEMA = 'koala';
const nonRaggiungibile = new Map<string, number>();

/** The next `volte` resends of this policy find Koala unreachable. */
export function koalaNonRaggiungibileSandbox(numeroPolizza: string, volte = 1): void {
  nonRaggiungibile.set(numeroPolizza, volte);
}

/** Every import the Koala sandbox of this database received for a policy (each resend is one). */
export async function importazioniKoalaSandbox(db: Database, numeroPolizza: string): Promise<string[]> {
  const voci = await new RegistroSandbox(db, SISTEMA).voci<EsitoKoala>({ riferimento: numeroPolizza });
  return voci.filter((v) => v.esito.ok).map((v) => v.numero!);
}

export class SandboxKoala implements KoalaBroker {
  private readonly registro: RegistroSandbox;

  constructor(db: Database) {
    this.registro = new RegistroSandbox(db, SISTEMA);
  }

  async reimportaEmissione(chiave: string, dati: DatiEmissioneKoala): Promise<EsitoKoala> {
    const down = nonRaggiungibile.get(dati.numero_polizza) ?? 0;
    if (down > 0) {
      nonRaggiungibile.set(dati.numero_polizza, down - 1);
      throw new KoalaNonRaggiungibile('Koala non raggiungibile.');
    }
    const voce = await this.registro.unaVolta<EsitoKoala>(chiave, async (prossimo) => {
      if (!dati.codice_fiscale) {
        return { operazione: 'importazione', riferimento: dati.numero_polizza, esito: { ok: false, errori: [`Polizza ${dati.numero_polizza}: codice fiscale del contraente mancante.`] } };
      }
      const id = `KOALA-${String(await prossimo()).padStart(6, '0')}`;
      return { operazione: 'importazione', riferimento: dati.numero_polizza, numero: id, esito: { ok: true, id_importazione: id } };
    });
    return structuredClone(voce.esito);
  }
}

// Deterministic Koala sandbox: imports are numbered, a policy without a tax code is refused, tests can make it unreachable.
import { KoalaNonRaggiungibile, type DatiEmissioneKoala, type EsitoKoala, type KoalaBroker } from './types.ts';

const importazioni = new Map<string, EsitoKoala & { dati: DatiEmissioneKoala }>();
const nonRaggiungibile = new Map<string, number>();
let progressivo = 0;

/** The next `volte` resends of this policy find Koala unreachable. */
export function koalaNonRaggiungibileSandbox(numeroPolizza: string, volte = 1): void {
  nonRaggiungibile.set(numeroPolizza, volte);
}

/** Every import Koala received for a policy (each resend is one). */
export function importazioniKoalaSandbox(numeroPolizza: string): string[] {
  return [...importazioni.values()].filter((i) => i.ok && i.dati.numero_polizza === numeroPolizza).map((i) => (i as { id_importazione: string }).id_importazione);
}

export class SandboxKoala implements KoalaBroker {
  async reimportaEmissione(chiave: string, dati: DatiEmissioneKoala): Promise<EsitoKoala> {
    const down = nonRaggiungibile.get(dati.numero_polizza) ?? 0;
    if (down > 0) {
      nonRaggiungibile.set(dati.numero_polizza, down - 1);
      throw new KoalaNonRaggiungibile('Koala non raggiungibile.');
    }
    const previous = importazioni.get(chiave);
    if (previous) return previous.ok ? { ok: true, id_importazione: previous.id_importazione } : { ok: false, errori: previous.errori };
    let esito: EsitoKoala;
    if (!dati.codice_fiscale) esito = { ok: false, errori: [`Polizza ${dati.numero_polizza}: codice fiscale del contraente mancante.`] };
    else {
      progressivo += 1;
      esito = { ok: true, id_importazione: `KOALA-${String(progressivo).padStart(6, '0')}` };
    }
    importazioni.set(chiave, { ...esito, dati: structuredClone(dati) });
    return esito;
  }
}

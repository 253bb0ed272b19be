// Deterministic sandbox of the historic-car insurer: prices with the tariff declared in schemas/_reference.
import type { AutoStoricheInsurer, EsitoQuotazione, RichiestaQuotazione } from './types.ts';

export interface Tariffa {
  classiValore: Array<{ classe: number; fino_a: number | null }>;
  premioBase: Record<string, number[]>;
  fattoreEta: Array<{ da: number; a: number | null; fattore: number }>;
  zone: { fattori: Record<string, number>; predefinita: number; province: Record<string, string[]> };
  furto: { valoreAssicurato: number; tasso: number };
  imposte: number;
  dirittiBroker: number;
  etaMinima: { predefinita: number; perTipologia: Record<string, number>; perTipoAnia: Record<string, number>; nomi: Record<string, string> };
  prodotto: { label: string; chiave: string };
}

const cents = (euro: number) => Math.round(euro * 100);

export function zonaDi(tariffa: Tariffa, provincia: string): number {
  const found = Object.entries(tariffa.zone.province).find(([, sigle]) => sigle.includes(provincia.toUpperCase()));
  return found ? Number(found[0]) : tariffa.zone.predefinita;
}

/** The minimum age and the words naming the class, or undefined when the general rule applies. */
function etaMinima(tariffa: Tariffa, tipologiaModello?: string, tipoAnia?: string): { anni: number; nome?: string } {
  const byType = tipologiaModello ? tariffa.etaMinima.perTipologia[tipologiaModello.toUpperCase()] : undefined;
  if (byType) return { anni: byType, nome: tariffa.etaMinima.nomi[tipologiaModello!.toUpperCase()] };
  const byAnia = tipoAnia ? tariffa.etaMinima.perTipoAnia[tipoAnia] : undefined;
  if (byAnia) return { anni: byAnia, nome: tariffa.etaMinima.nomi[tipoAnia!] };
  return { anni: tariffa.etaMinima.predefinita };
}

export class SandboxAutoStoriche implements AutoStoricheInsurer {
  constructor(private readonly tariffa: Tariffa) {}

  async quota(richiesta: RichiestaQuotazione): Promise<EsitoQuotazione> {
    const t = this.tariffa;
    const anno = richiesta.oggi.getFullYear();
    const zona = zonaDi(t, richiesta.provincia);
    const errori: Array<{ veicolo: number; motivo: string }> = [];
    const dettaglio: Array<{ premio_centesimi: number; furto_centesimi: number }> = [];
    const eta: number[] = [];
    richiesta.veicoli.forEach((v, i) => {
      const anni = anno - v.anno;
      eta.push(anni);
      const minimo = etaMinima(t, v.tipologia_modello, v.tipologia_ania);
      if (anni < minimo.anni) {
        errori.push({
          veicolo: i,
          motivo: `Veicolo non assicurabile: ${v.marca} ${v.modello} del ${v.anno} ha ${anni} anni, ${minimo.nome ? `per ${minimo.nome} ` : ''}ne servono almeno ${minimo.anni}.`,
        });
        return;
      }
      const classe = t.classiValore.find((c) => c.fino_a === null || v.valore_centesimi <= cents(c.fino_a))!.classe;
      const base = (t.premioBase[v.tipologia_ania ?? ''] ?? t.premioBase.altro!)[classe - 1]!;
      const fattoreEta = t.fattoreEta.find((f) => anni >= f.da && (f.a === null || anni <= f.a))!.fattore;
      const fattoreZona = t.zone.fattori[String(zona)]!;
      const rc = cents(base * fattoreEta * fattoreZona);
      const furto = v.furto ? cents(t.furto.valoreAssicurato * t.furto.tasso * fattoreZona) : 0;
      dettaglio.push({ premio_centesimi: rc, furto_centesimi: furto });
    });
    if (errori.length) return { ok: false, errori };
    const imponibile = dettaglio.reduce((sum, d) => sum + d.premio_centesimi + d.furto_centesimi, 0);
    return {
      ok: true,
      premio_compagnia_centesimi: Math.round(imponibile * (1 + t.imposte)),
      diritti_centesimi: cents(t.dirittiBroker),
      zona,
      eta_massima: Math.max(...eta),
      eta_minima: Math.min(...eta),
      dettaglio,
    };
  }
}

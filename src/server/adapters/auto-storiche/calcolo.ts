// Quotation pricing through the historic-car insurer's adapter (POST /api/quotazioni/calcolo, and repricing at issue): vehicles from the models, the insurer's answer, previews in cents.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import { invalid } from '../../errors.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import { SandboxAutoStoriche } from './sandbox.ts';
import { tariffa } from './tariffa.ts';
import type { AutoStoricheInsurer, VeicoloDaQuotare } from './types.ts';

export { tariffa };

/** The insurer's pricing: only the sandbox exists until the insurer's API is reachable (AUTO_STORICHE_ADAPTER admits only 'sandbox'). */
export function insurer(): AutoStoricheInsurer {
  return new SandboxAutoStoriche(tariffa);
}

const COLOUR_RANK = { v: 0, g: 1, r: 2 } as const;
type Colour = keyof typeof COLOUR_RANK;

function colourOf(modelColour: unknown): Colour {
  const c = String(modelColour ?? '').toLowerCase();
  return c === 'verde' ? 'v' : c === 'giallo' ? 'g' : 'r';
}

/** What a calculation prices: changing any of them after a calculation makes it stale. */
export const PRICING_INPUTS = ['veicoli_storici', 'provincia_codice', 'minoreAnni', 'competenze'];

export interface CalcoloInput {
  veicoli_storici?: Array<Record<string, unknown>>;
  provincia_codice?: string | null;
  minoreAnni?: boolean | null;
  competenze?: number | null;
}

export interface CalcoloResult {
  colore: Colour;
  premio: number;
  premio_verti: number;
  preventivi: Array<Record<string, unknown>>;
  veicoli_storici: Array<Record<string, unknown>>;
}

export async function calcola(db: Database, input: CalcoloInput, oggi = new Date()): Promise<CalcoloResult> {
  const veicoli = input.veicoli_storici ?? [];
  const errors: Record<string, string[]> = {};
  if (!veicoli.length) errors.veicoli_storici = ['Inserisci almeno un veicolo storico.'];
  if (!input.provincia_codice) errors.provincia_codice = ['Campo Obbligatorio.'];
  if (Object.keys(errors).length) throw invalid(errors);

  // Spec 001 §5: every historic vehicle needs its plate and its ANIA type before pricing.
  veicoli.forEach((v, i) => {
    if (!v.targa) errors[`veicoli_storici.${i}.targa`] = ['Campo Obbligatorio.'];
    else if (!v.tipologia_ania) errors[`veicoli_storici.${i}.tipologia_ania`] = [`non hai compilato la tipologia di veicolo per la targa ${String(v.targa)}`];
  });
  if (Object.keys(errors).length) throw invalid(errors);

  const ids = veicoli.map((v) => Number(v.auto_storica_id)).filter((id) => Number.isInteger(id) && id > 0);
  const models = ids.length
    ? (await sql<{ id: number; valore_b: number | null; colore: string | null; nome_tipologia: string | null }>`
        SELECT id, valore_b, colore, nome_tipologia FROM autostoriche WHERE id = ANY(${ids})`.execute(db)).rows
    : [];
  const byId = new Map(models.map((m) => [m.id, m]));
  const enriched = veicoli.map((v, i): Record<string, unknown> & { colore: Colour; tipologia_modello?: string } => {
    const model = v.auto_storica_id ? byId.get(Number(v.auto_storica_id)) : undefined;
    if (v.auto_storica_id && !model) errors[`veicoli_storici.${i}.auto_storica_id`] = ['Modello non trovato tra le auto storiche.'];
    // Without a catalogued model there is no colour rating: red, so an approver looks at it.
    return { ...v, valore: model?.valore_b ?? v.valore ?? 0, colore: model ? colourOf(model.colore) : 'r', tipologia_modello: model?.nome_tipologia ?? undefined };
  });
  if (Object.keys(errors).length) throw invalid(errors);

  const richiesta: VeicoloDaQuotare[] = enriched.map((v) => ({
    marca: String(v.marca ?? ''), modello: String(v.modello ?? ''), anno: Number(v.anno),
    tipologia_ania: v.tipologia_ania ? String(v.tipologia_ania) : undefined,
    tipologia_modello: v.tipologia_modello ?? undefined,
    valore_centesimi: toCents(Number(v.valore)), furto: v.furto === true,
  }));
  const esito = await insurer().quota({
    veicoli: richiesta, provincia: String(input.provincia_codice), minoreAnni: input.minoreAnni === true,
    competenze_centesimi: toCents(input.competenze ?? 0), oggi,
  });
  if (!esito.ok) throw invalid(Object.fromEntries(esito.errori.map((e) => [`veicoli_storici.${e.veicolo}.anno`, [e.motivo]])), 'Quotazione non disponibile per uno o più veicoli.');

  const competenze = toCents(input.competenze ?? 0);
  const premioBase = esito.premio_compagnia_centesimi + esito.diritti_centesimi;
  const colore = enriched.reduce<Colour>((worst, v) => (COLOUR_RANK[v.colore] > COLOUR_RANK[worst] ? v.colore : worst), 'v');
  const preventivo = {
    label: tariffa.prodotto.label,
    prodotto: tariffa.prodotto.chiave,
    premio_compagnia: fromCents(esito.premio_compagnia_centesimi),
    diritti_del_broker: fromCents(esito.diritti_centesimi),
    premio_base: fromCents(premioBase),
    competenze: fromCents(competenze),
    premio_totale: fromCents(premioBase + competenze),
    minore_anni: input.minoreAnni === true,
    eta_veicolo: esito.eta_minima,
    zona: esito.zona,
  };
  return {
    colore,
    premio: preventivo.premio_totale,
    premio_verti: preventivo.premio_compagnia,
    preventivi: [preventivo],
    veicoli_storici: enriched.map(({ tipologia_modello: _, ...v }) => v),
  };
}

// Coverage rules of the fast quotation (spec 002 §3.7, §4.1), pure functions over the one catalogue in garanzie.json.
import catalogo from './garanzie.json' with { type: 'json' };

export type VehicleCategory = 'Auto' | 'MotoLess50cc' | 'MotoMore50cc';
export type GruppoMassimali = 'Auto' | 'Moto';

export interface Massimale {
  value: number;
  label: string;
  persone?: number;
  cose?: number;
}

export interface Garanzia {
  code: string;
  description: string;
  PackageCode: string;
  Requires: string[];
  /** At least one of these (P49 needs one roadside assistance, and the two exclude each other). */
  RequiresOneOf?: string[];
  Excludes: string[];
  AvailableForAuto: boolean;
  AvailableForMoto: boolean;
  HasMassimale: boolean;
  /** "rc" = the liability limits of the category; otherwise the coverage's own list. */
  Massimale?: Record<GruppoMassimali, 'rc' | Massimale[]>;
  HasScopertoMinimo: boolean;
  Obbligatoria?: boolean;
}

/** A coverage as the request form sends it (spec 002 §3.7). */
export interface CoverageSel {
  code: string;
  description?: string;
  selected?: boolean;
  value?: number | null;
  coInsurance?: boolean;
  PackageCode?: string;
}

export interface Catalogo {
  categorie: Array<{ code: VehicleCategory; label: string; massimali: GruppoMassimali }>;
  pacchetti: Record<string, string>;
  predefinita: { code: string; value: number; coInsurance: boolean };
  promozioni: Array<{ code: string; label: string; sconto: number }>;
  massimaliRc: Record<GruppoMassimali, Massimale[]>;
  garanzie: Garanzia[];
}

export const CATALOGO = catalogo as unknown as Catalogo;
const BY_CODE = new Map(CATALOGO.garanzie.map((g) => [g.code, g]));
export const VEHICLE_CATEGORIES = CATALOGO.categorie.map((c) => c.code);
export const PROMOZIONI = CATALOGO.promozioni.map((p) => p.code);
export const PROMO_PREDEFINITA = 'QP_STANDARD';

export function garanzia(code: string): Garanzia | undefined {
  return BY_CODE.get(code);
}

export function gruppo(category: string): GruppoMassimali {
  return CATALOGO.categorie.find((c) => c.code === category)?.massimali ?? 'Auto';
}

export function disponibile(code: string, category: string): boolean {
  const g = BY_CODE.get(code);
  if (!g) return false;
  return gruppo(category) === 'Auto' ? g.AvailableForAuto : g.AvailableForMoto;
}

/** The liability limits a coverage offers for a category (empty when it has none). */
export function massimali(code: string, category: string): Massimale[] {
  const g = BY_CODE.get(code);
  if (!g?.HasMassimale || !g.Massimale) return [];
  const own = g.Massimale[gruppo(category)];
  return own === 'rc' ? CATALOGO.massimaliRc[gruppo(category)] : own;
}

export function label(code: string): string {
  const g = BY_CODE.get(code);
  return g ? `${g.code} ${g.description}` : code;
}

/** The default selection of a new request: P01 at 6 000 000 with coInsurance. */
export function selezionePredefinita(): CoverageSel[] {
  const p = CATALOGO.predefinita;
  return [coverage(p.code, p.value, p.coInsurance)];
}

function coverage(code: string, value?: number | null, coInsurance = false): CoverageSel {
  const g = BY_CODE.get(code)!;
  return { code, description: g.description, selected: true, value: value ?? null, coInsurance, PackageCode: g.PackageCode };
}

/** P94 first, then by package code (coverages without a package after the packaged ones), then by code. */
export function ordina<T extends { code: string; PackageCode?: string }>(list: T[]): T[] {
  const pack = (c: T) => c.PackageCode ?? BY_CODE.get(c.code)?.PackageCode ?? '';
  const rank = (c: T) => (pack(c) === 'P94' ? 0 : pack(c) ? 1 : 2);
  return [...list].sort((a, b) => rank(a) - rank(b) || pack(a).localeCompare(pack(b)) || a.code.localeCompare(b.code));
}

/** Codes of the selected coverages of a request. */
export function selezionate(list: CoverageSel[] | undefined): CoverageSel[] {
  return (list ?? []).filter((c) => c.selected !== false);
}

/**
 * Selecting a coverage adds what it requires (transitively) and removes what any added one
 * excludes, together with whatever required a removed one; the result is ordered.
 */
export function seleziona(current: CoverageSel[], code: string, category: string): CoverageSel[] {
  if (!disponibile(code, category)) return ordina(current);
  const chosen = new Map(selezionate(current).map((c) => [c.code, c]));
  const added: string[] = [];
  const add = (c: string) => {
    if (added.includes(c)) return;
    added.push(c);
    const g = BY_CODE.get(c)!;
    for (const r of g.Requires) add(r);
    if (g.RequiresOneOf?.length && !g.RequiresOneOf.some((r) => chosen.has(r) || added.includes(r))) add(g.RequiresOneOf[0]!);
  };
  add(code);
  for (const c of added) {
    if (!chosen.has(c)) {
      const limits = massimali(c, category);
      chosen.set(c, coverage(c, limits[0]?.value ?? null, c === CATALOGO.predefinita.code ? CATALOGO.predefinita.coInsurance : false));
    }
  }
  const removed = new Set<string>();
  for (const c of added) for (const x of BY_CODE.get(c)!.Excludes) if (chosen.has(x) && !added.includes(x)) removed.add(x);
  // Whatever still requires a removed coverage cannot stay either.
  let changed = true;
  while (changed) {
    changed = false;
    for (const c of chosen.keys()) {
      if (removed.has(c) || added.includes(c)) continue;
      if (BY_CODE.get(c)?.Requires.some((r) => removed.has(r))) {
        removed.add(c);
        changed = true;
      }
    }
  }
  for (const c of removed) chosen.delete(c);
  return ordina([...chosen.values()]);
}

/** Deselecting removes only that coverage (spec 002 §4.1); verifica() then says what no longer holds. */
export function deseleziona(current: CoverageSel[], code: string): CoverageSel[] {
  return ordina(selezionate(current).filter((c) => c.code !== code));
}

export interface Violazione {
  code: string;
  message: string;
}

/** Every rule a selection breaks, each naming the coverage; empty when the selection may be priced. */
export function verifica(list: CoverageSel[] | undefined, category: string): Violazione[] {
  const out: Violazione[] = [];
  const sel = selezionate(list);
  const codes = new Set(sel.map((c) => c.code));
  const seen = new Set<string>();
  for (const c of sel) {
    const g = BY_CODE.get(c.code);
    if (!g) {
      out.push({ code: c.code, message: `La garanzia ${c.code} non esiste.` });
      continue;
    }
    if (seen.has(c.code)) out.push({ code: c.code, message: `La garanzia ${label(c.code)} è indicata più volte.` });
    seen.add(c.code);
    if (!disponibile(c.code, category)) out.push({ code: c.code, message: `La garanzia ${label(c.code)} non è disponibile per la categoria ${category}.` });
    for (const r of g.Requires) if (!codes.has(r)) out.push({ code: c.code, message: `La garanzia ${label(c.code)} richiede ${label(r)}.` });
    if (g.RequiresOneOf?.length && !g.RequiresOneOf.some((r) => codes.has(r))) {
      out.push({ code: c.code, message: `La garanzia ${label(c.code)} richiede una tra ${g.RequiresOneOf.map(label).join(', ')}.` });
    }
    for (const x of g.Excludes) if (codes.has(x)) out.push({ code: c.code, message: `La garanzia ${label(c.code)} esclude ${label(x)}.` });
    const limits = massimali(c.code, category);
    // A fixed limit (Tutela Legale 15.000, Infortuni 100.000) needs no choice: no value means that one.
    const fixed = limits.length === 1 && (c.value === undefined || c.value === null);
    if (limits.length && !fixed && !limits.some((m) => m.value === c.value)) {
      out.push({ code: c.code, message: `Massimale non ammesso per la garanzia ${label(c.code)}: scegli tra ${limits.map((m) => m.label).join('; ')}.` });
    }
  }
  for (const g of CATALOGO.garanzie) {
    if (g.Obbligatoria && !codes.has(g.code)) out.push({ code: g.code, message: `La garanzia ${label(g.code)} è obbligatoria.` });
  }
  return out;
}

// The customer's public quotation form: its schema from the entity plus the public view, and the rules of spec 001 §5
// that JSON Schema cannot say, run by the server to enforce and by the page to show the same messages.
import type { JsonSchema } from '../../definitions/types.ts';

export type FieldErrors = Record<string, string[]>;

export interface PublicStep {
  titolo: string;
  descrizione?: string;
  fields: string[];
  /** The step lists the pre-contract notices in force (before and beside the consents). */
  informative?: boolean;
}

/** A notice shown to the customer, as the public link answers it and as a consent record names it. */
export interface ShownNotice {
  id: number;
  collection_name: string;
  titolo: string;
  name: string;
  versione: string | null;
  valido_dal: string | null;
  sha256?: string;
  url?: string;
}

export interface PublicView {
  fasi: Record<'form' | 'documenti', string>;
  messaggi: { linkNonValido: string };
  parametri: { parameter1: JsonSchema };
  informative: {
    risorsa: string;
    collezioni: string[];
    prodotto: { campo: string; valore: string; attivi?: string[] };
    messaggio: string;
  };
  sola_lettura: string[];
  veicoli_storici: { lettura: string[]; scrittura: string[] };
  schema: JsonSchema & { properties: Record<string, JsonSchema> };
}

export interface ConsentDeclaration {
  versione: string;
  facoltativo?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Entity keywords under view keywords; a view value of null removes the entity's keyword (an enum replaced by oneOf). */
function overlay(base: unknown, top: unknown): unknown {
  if (!isObject(base) || !isObject(top)) return top === undefined ? base : top;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(top)) {
    if (value === null) delete out[key];
    else out[key] = key === 'properties' || key === 'items' ? overlay(base[key], value) : isObject(value) && isObject(base[key]) && key !== 'x-messages' ? overlay(base[key], value) : value;
  }
  if (isObject(top.properties) && isObject(base.properties)) {
    const props: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(base.properties)) props[name] = overlay(prop, (top.properties as Record<string, unknown>)[name] ?? {});
    out.properties = props;
  }
  return out;
}

/** The public form's schema: only the view's properties, each the entity's definition with the view's keywords on top. */
export function publicSchema(entity: JsonSchema, view: PublicView): JsonSchema {
  const entityProps = (entity.properties ?? {}) as Record<string, JsonSchema>;
  const properties: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(view.schema.properties)) {
    const base = entityProps[name];
    const merged = base ? overlay(base, prop) as Record<string, unknown> : { ...prop };
    // The customer never sees what the server computes (row colours, ...).
    delete merged.readOnly;
    if (isObject(merged.items) && isObject(merged.items.properties)) {
      const items = merged.items as Record<string, unknown> & { properties: Record<string, unknown> };
      if (name === 'veicoli_storici') {
        items.properties = Object.fromEntries(view.veicoli_storici.lettura.filter((f) => f in items.properties).map((f) => {
          const p = { ...(items.properties[f] as Record<string, unknown>) };
          if (!view.veicoli_storici.scrittura.includes(f)) p.readOnly = true;
          return [f, p];
        }));
      }
    }
    properties[name] = merged;
  }
  const { properties: _, ...rest } = view.schema;
  return { ...rest, type: 'object', properties } as JsonSchema;
}

export function consentsOf(schema: JsonSchema): Array<[string, ConsentDeclaration & { testo: string }]> {
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)
    .filter(([, p]) => isObject(p['x-consenso']))
    .map(([name, p]) => [name, { ...(p['x-consenso'] as unknown as ConsentDeclaration), testo: String(p.title ?? name) }]);
}

/** Fields of steps 0..step (the server checks a step together with every step before it). */
export function fieldsUpTo(steps: PublicStep[], step: number): Set<string> {
  return new Set(steps.slice(0, step + 1).flatMap((s) => s.fields));
}

/**
 * Spec 001 §5 rules beyond JSON Schema: each historic vehicle needs plate and ANIA type (the alert names the plate),
 * and the daily-use vehicles listed are as many as declared.
 */
export function publicRules(data: Record<string, unknown>, fields: Set<string>): FieldErrors {
  const errors: FieldErrors = {};
  if (fields.has('veicoli_storici')) {
    const storici = Array.isArray(data.veicoli_storici) ? data.veicoli_storici as Array<Record<string, unknown>> : [];
    storici.forEach((v, i) => {
      const targa = typeof v.targa === 'string' ? v.targa.trim() : '';
      if (!targa) (errors[`veicoli_storici.${i}.targa`] ??= []).push('Campo Obbligatorio.');
      else if (!v.tipologia_ania) (errors[`veicoli_storici.${i}.tipologia_ania`] ??= []).push(`non hai compilato la tipologia di veicolo per la targa ${targa}`);
    });
  }
  if (fields.has('veicoli_moderni') && typeof data.quotidiano === 'number') {
    const moderni = Array.isArray(data.veicoli_moderni) ? data.veicoli_moderni : [];
    if (moderni.length !== data.quotidiano) {
      errors.veicoli_moderni = [`Indica i dati di ${data.quotidiano} ${data.quotidiano === 1 ? 'veicolo' : 'veicoli'} di uso quotidiano.`];
    }
  }
  return errors;
}

/** Modern-vehicle rows follow the declared daily use: blank rows added or removed at the end (spec 001 §5). */
export function resizeModerni(rows: unknown, count: number): Array<Record<string, unknown>> {
  const list = Array.isArray(rows) ? [...rows as Array<Record<string, unknown>>] : [];
  while (list.length < count) list.push({});
  return list.slice(0, Math.max(0, count));
}

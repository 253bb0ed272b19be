// How a history entry's changes read to a person, on a record's timeline and on the 'Storico' desk: the field's title
// and 'prima → dopo' formatted as the form shows them, a reference by its record's label.
import { displayValue } from './formBody.ts';
import { useLabels } from '../api/hooks.ts';
import { useDefinitions } from '../lib/definitions.ts';
import { fillTemplate } from '../lib/format.ts';
import { optionTitles } from '../../shared/enumTitle.ts';
import desk from '../../shared/storico/desk.json';
import type { JsonSchema, RecordData, ResourceDef } from '../types.ts';

/** A resource's history routes (issue 31: the same under every resource's path). */
export function storicoRoutes(def: ResourceDef) {
  const timeline = `${def.resource.api.path}/{id}/storico`;
  return { timeline, ripristina: `${timeline}/{entryId}/ripristina` };
}

export interface StoricoModifica { campo: string; da?: unknown; a?: unknown; nascosto?: boolean }

/** Labels of referenced records: target resource name → id → label. */
export type Etichette = Map<string, Map<string, string>>;

/** The schema of a change's field, also inside rows ('veicoli_storici.1.targa'). */
function propOf(def: ResourceDef | undefined, campo: string): JsonSchema | undefined {
  let prop: JsonSchema | undefined = def?.schema;
  for (const part of campo.split('.')) prop = /^\d+$/.test(part) ? (prop?.items as JsonSchema | undefined) : (prop?.properties?.[part] as JsonSchema | undefined);
  return prop;
}

/** A field's title as the form labels it; in a row, with the row's place: 'Veicoli storici 2 · Targa'. */
function titoloCampo(def: ResourceDef | undefined, campo: string): string {
  const parts = campo.split('.');
  const titles: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (/^\d+$/.test(part)) titles[titles.length - 1] += ` ${Number(part) + 1}`;
    else titles.push((propOf(def, parts.slice(0, i + 1).join('.'))?.title as string | undefined) ?? part);
  }
  return titles.join(' · ');
}

/** The record ids each referenced resource must label for these changes (only targets the user may list). */
export function riferimenti(def: ResourceDef | undefined, modifiche: StoricoModifica[], resources: ResourceDef[]): Array<{ target: ResourceDef; ids: string[] }> {
  const wanted = new Map<string, Set<string>>();
  for (const m of modifiche) {
    const ref = propOf(def, m.campo)?.['x-ref'];
    if (typeof ref !== 'string' || m.nascosto) continue;
    for (const v of [m.da, m.a]) if (v !== null && v !== undefined && v !== '') (wanted.get(ref) ?? wanted.set(ref, new Set()).get(ref)!).add(String(v));
  }
  return [...wanted].flatMap(([name, ids]) => {
    const target = resources.find((r) => r.name === name);
    return target && target.can.list ? [{ target, ids: [...ids].sort() }] : [];
  });
}

/** A referenced record's label as the reference widget writes it (its recordTitle), else '#id'. */
export function etichetta(target: ResourceDef, row: RecordData): string {
  return fillTemplate(target.resource.recordTitle ?? '', row) || `#${String(row.id)}`;
}

function valore(def: ResourceDef | undefined, campo: string, value: unknown, labels: Etichette | undefined): string {
  const prop = propOf(def, campo);
  const ref = prop?.['x-ref'];
  if (typeof ref === 'string' && value !== null && value !== undefined && value !== '') {
    return labels?.get(ref)?.get(String(value)) ?? `#${String(value)}`;
  }
  // A whole structure (an insurer's request, a list of rows) is summed up: its fields read in their own entries.
  if (Array.isArray(value)) return value.length === 1 ? '1 elemento' : `${value.length} elementi`;
  if (value !== null && typeof value === 'object') return 'dati compilati';
  return displayValue(prop, value);
}

/** 'Campo: prima → dopo' (a secret or unreadable field: 'valore riservato'). */
export function modificaTesto(def: ResourceDef | undefined, m: StoricoModifica, labels?: Etichette): string {
  const title = titoloCampo(def, m.campo);
  if (m.nascosto) return `${title}: valore riservato`;
  return `${title}: ${valore(def, m.campo, m.da, labels)} → ${valore(def, m.campo, m.a, labels)}`;
}

/** The labels of the records a page of history entries refers to (the user's own read of each). */
export function useStoricoLabels(defOf: ResourceDef | ((risorsa: string) => ResourceDef | undefined), entries: Array<{ risorsa?: string; modifiche: StoricoModifica[] }> | undefined) {
  const { definitions } = useDefinitions();
  const resources = definitions?.resources ?? [];
  const wanted = new Map<string, { target: ResourceDef; ids: Set<string> }>();
  for (const entry of entries ?? []) {
    const def = typeof defOf === 'function' ? defOf(entry.risorsa ?? '') : defOf;
    for (const { target, ids } of riferimenti(def, entry.modifiche, resources)) {
      const slot = wanted.get(target.name) ?? wanted.set(target.name, { target, ids: new Set() }).get(target.name)!;
      ids.forEach((id) => slot.ids.add(id));
    }
  }
  const asked = [...wanted.values()].map(({ target, ids }) => ({ resource: target.resource, name: target.name, ids: [...ids].sort() }));
  return useLabels(asked, (name, row) => etichetta(wanted.get(name)!.target, row)).data;
}

const deskProps = desk.schema.properties as Record<string, JsonSchema>;
const TITOLI = { azione: optionTitles(deskProps.azione as Parameters<typeof optionTitles>[0]), origine: optionTitles(deskProps.origine as Parameters<typeof optionTitles>[0]) };

/** An entry's action or origin by its title (the desk's schema declares them): 'Creazione', 'Personale'. */
export function titoloVoce(kind: 'azione' | 'origine', value: string | null | undefined): string {
  return value ? (TITOLI[kind]?.get(value) ?? value) : '';
}


// Pure helpers for form.ui.json: sections from "ui:layout", fields hidden by "ui:hideWhen"/"ui:showWhen", titles by "ui:titleWhen".
import type { LayoutSection } from '../types.ts';

export const OTHER_SECTION_TITLE = 'Altri dati';

type UiNode = Record<string, unknown> | undefined;

const holds = (formData: Record<string, unknown>, other: string, expected: unknown) =>
  Array.isArray(expected) ? expected.includes(formData[other]) : formData[other] === expected;

/**
 * "ui:hideWhen": {other: value | [values]} hides the field when any listed field holds (one of) the value(s);
 * "ui:showWhen" (same shape) shows it only while every listed field does, so an unset choice hides it too.
 */
export function isHiddenBy(fieldUi: UiNode, formData: Record<string, unknown> | undefined): boolean {
  const hide = fieldUi?.['ui:hideWhen'] as Record<string, unknown> | undefined;
  const show = fieldUi?.['ui:showWhen'] as Record<string, unknown> | undefined;
  if (show && !Object.entries(show).every(([other, expected]) => holds(formData ?? {}, other, expected))) return true;
  if (!hide || !formData) return false;
  return Object.entries(hide).some(([other, expected]) => holds(formData, other, expected));
}

/** "ui:titleWhen": {when: {other: value | [values]}, title} relabels the field while every condition holds (sesso A → 'Ragione Sociale'). */
export function conditionalTitle(fieldUi: UiNode, formData: Record<string, unknown> | undefined): string | undefined {
  const rule = fieldUi?.['ui:titleWhen'] as { when?: Record<string, unknown>; title?: string } | undefined;
  if (!rule?.when || typeof rule.title !== 'string') return undefined;
  return Object.entries(rule.when).every(([other, expected]) => holds(formData ?? {}, other, expected)) ? rule.title : undefined;
}

export function hiddenFields(uiSchema: UiNode, formData: Record<string, unknown> | undefined): Set<string> {
  const hidden = new Set<string>();
  for (const [key, node] of Object.entries(uiSchema ?? {})) {
    if (!key.startsWith('ui:') && node && typeof node === 'object' && isHiddenBy(node as UiNode, formData)) hidden.add(key);
  }
  return hidden;
}

/** The declared sections, restricted to existing fields, plus a last section for fields no section names. */
export function buildSections(layout: LayoutSection[] | undefined, fields: string[], skip: Set<string> = new Set()): LayoutSection[] {
  const available = fields.filter((f) => !skip.has(f));
  const known = new Set(available);
  const placed = new Set<string>();
  const sections: LayoutSection[] = [];
  for (const section of layout ?? []) {
    const present = section.fields.filter((f) => known.has(f) && !placed.has(f));
    present.forEach((f) => placed.add(f));
    if (present.length) sections.push({ title: section.title, fields: present });
  }
  const rest = available.filter((f) => !placed.has(f));
  if (rest.length) sections.push({ title: layout?.length ? OTHER_SECTION_TITLE : '', fields: rest });
  return sections;
}

/** The top-level field an rjsf id (root_comune_nascita_id, root_resp_nome) belongs to: the longest matching name. */
export function fieldOfId(id: string | undefined, fields: string[]): string | undefined {
  if (!id?.startsWith('root_')) return undefined;
  const rest = id.slice('root_'.length);
  return fields.filter((f) => rest === f || rest.startsWith(`${f}_`)).sort((a, b) => b.length - a.length)[0];
}

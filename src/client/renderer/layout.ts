// Pure helpers for form.ui.json: sections from "ui:layout" and fields hidden by "ui:hideWhen".
import type { LayoutSection } from '../types.ts';

export const OTHER_SECTION_TITLE = 'Altri dati';

type UiNode = Record<string, unknown> | undefined;

/** "ui:hideWhen": {other: value | [values]} hides the field when any listed field holds (one of) the value(s). */
export function isHiddenBy(fieldUi: UiNode, formData: Record<string, unknown> | undefined): boolean {
  const rule = fieldUi?.['ui:hideWhen'] as Record<string, unknown> | undefined;
  if (!rule || !formData) return false;
  return Object.entries(rule).some(([other, expected]) =>
    Array.isArray(expected) ? expected.includes(formData[other]) : formData[other] === expected,
  );
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

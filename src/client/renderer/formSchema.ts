// Turns an entity schema and its form.ui.json into what rjsf renders: editable fields only, widgets by name.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { widgetEntry } from '../widgets/registry.ts';
import { enumTitle } from '../../shared/enumTitle.ts';
import type { FormUi, JsonSchema, LayoutSection } from '../types.ts';

/** rjsf must not pick the first oneOf option as a default: an unset enum stays unset. */
export const DEFAULTS_BEHAVIOUR = { constAsDefaults: 'skipOneOf' } as const;

export interface PreparedForm {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** Top-level properties the user edits (what a create/update body may carry). */
  fields: string[];
  /** Top-level server-owned properties the layout names: shown, read-only, never sent. */
  readOnly: string[];
}

/** Properties the server owns; a client that sends them gets a 422. */
const SERVER_OWNED = new Set(['version']);

function isEditable(name: string, prop: JsonSchema): boolean {
  return !SERVER_OWNED.has(name) && prop.readOnly !== true;
}

function isChoice(prop: JsonSchema): boolean {
  return Array.isArray(prop.enum) || (Array.isArray(prop.oneOf) && (prop.oneOf as JsonSchema[]).every((o) => 'const' in o));
}

/** The widget a property gets: explicit ui:widget, then x-widget, then what its annotations imply. */
export function widgetNameFor(prop: JsonSchema, fieldUi: Record<string, unknown> | undefined): string | undefined {
  const explicit = fieldUi?.['ui:widget'] ?? prop['x-widget'];
  if (typeof explicit === 'string') return explicit;
  if (prop['x-uppercase'] === true) return 'uppercase';
  if (isChoice(prop)) return 'select';
  if (prop.type === 'boolean') return 'switch';
  if (prop.format === 'date') return 'date';
  if (prop.format === 'date-time') return 'datetime';
  if (prop.writeOnly === true || prop.format === 'password') return 'password';
  return undefined;
}

/** Fields a form.ui.json layout places in its sections. */
function laidOut(formUi: Record<string, unknown>): Set<string> {
  const sections = (formUi['ui:layout'] ?? []) as LayoutSection[];
  return new Set(sections.flatMap((section) => section.fields ?? []));
}

function prepareObject(schema: JsonSchema, formUi: Record<string, unknown>, path: string, top: boolean): { schema: JsonSchema; uiSchema: UiSchema; readOnly: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const uiSchema: UiSchema = {};
  const readOnly: string[] = [];
  const placed = top ? laidOut(formUi) : new Set<string>();
  for (const [key, value] of Object.entries(formUi)) if (key.startsWith('ui:')) uiSchema[key] = value;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (top && !isEditable(name, prop)) {
      // A server-owned field the analyst placed in the layout (an e-mail's recipient and text) is read, not typed.
      if (SERVER_OWNED.has(name) || !placed.has(name)) continue;
      readOnly.push(name);
    }
    if (!top && prop.readOnly === true) continue;
    const fieldPath = path ? `${path}.${name}` : name;
    const fieldUi = (formUi[name] ?? {}) as Record<string, unknown>;
    if (prop.type === 'object' && prop.properties) {
      const nested = prepareObject(prop, fieldUi, fieldPath, false);
      properties[name] = nested.schema;
      uiSchema[name] = nested.uiSchema;
      continue;
    }
    properties[name] = prop;
    const widget = widgetNameFor(prop, fieldUi);
    // Throws, naming the field, when the definition asks for a widget the registry lacks.
    if (widget) widgetEntry(widget, fieldPath);
    uiSchema[name] = widget ? { ...fieldUi, 'ui:widget': widget } : { ...fieldUi };
    // A bare enum reads as words, not codes (DIPENDENTE_TEMPO_INDETERMINATO → Dipendente tempo indeterminato).
    if (Array.isArray(prop.enum) && !prop.oneOf && fieldUi['ui:enumNames'] === undefined) {
      (uiSchema[name] as Record<string, unknown>)['ui:enumNames'] = (prop.enum as unknown[]).map(enumTitle);
    }
    // A computed field ("x-computed") is shown, never typed: SchemaForm recomputes it.
    if (typeof prop['x-computed'] === 'string' || readOnly.includes(name)) (uiSchema[name] as Record<string, unknown>)['ui:readonly'] = true;
  }
  const keep = new Set(Object.keys(properties).filter((name) => !readOnly.includes(name)));
  const required = (schema.required ?? []).filter((name) => keep.has(name));
  return { schema: { ...schema, properties, required }, uiSchema, readOnly };
}

export function prepareForm(schema: JsonSchema, formUi: FormUi, activeField?: string): PreparedForm {
  const prepared = prepareObject(schema, formUi, '', true);
  const uiSchema: UiSchema = {
    ...prepared.uiSchema,
    'ui:submitButtonOptions': { norender: true },
    // The active toggle lives in the action bar (spec 000 §2.5), not among the fields.
    'ui:skip': activeField ? [activeField] : [],
  };
  const fields = Object.keys(prepared.schema.properties ?? {}).filter((name) => !prepared.readOnly.includes(name));
  return { schema: prepared.schema as RJSFSchema, uiSchema, fields, readOnly: prepared.readOnly };
}

export function layoutOf(uiSchema: UiSchema): LayoutSection[] | undefined {
  return uiSchema['ui:layout'] as LayoutSection[] | undefined;
}

// Pure helpers of the customer's public form: one step's schema out of the public view, choices narrowed by other answers.
import type { FormUi, JsonSchema, RecordData } from '../../../types.ts';
import type { PublicStep } from '../../../../shared/domains/quotazione/pubblico.ts';

type Schema = JsonSchema & { allOf?: Array<Record<string, unknown>>; required?: string[] };
type Conditional = { if?: { properties?: Record<string, unknown> }; then?: Schema; else?: Schema };

/** A branch's required fields of this step; choices it restricts are left to "ui:optionsWhen" (an enum there would hide the titles). */
const keepRequired = (branch: Schema | undefined, fields: Set<string>, narrowedByUi: Set<string>): Schema | undefined => {
  if (!branch) return undefined;
  const properties = Object.fromEntries(Object.entries(branch.properties ?? {}).filter(([name]) => fields.has(name) && !narrowedByUi.has(name)));
  return { ...branch, properties, required: (branch.required ?? []).filter((name) => fields.has(name)) };
};

/** "ui:optionsWhen": {other: {value: [allowed]}} keeps only the allowed choices while the other field holds that value. */
function narrowed(prop: JsonSchema, fieldUi: Record<string, unknown> | undefined, data: RecordData): JsonSchema {
  const rule = fieldUi?.['ui:optionsWhen'] as Record<string, Record<string, unknown[]>> | undefined;
  if (!rule || !Array.isArray(prop.oneOf)) return prop;
  let options = prop.oneOf as Array<{ const?: unknown }>;
  for (const [other, byValue] of Object.entries(rule)) {
    const allowed = byValue[String(data[other])];
    if (allowed) options = options.filter((o) => allowed.includes(o.const));
  }
  return { ...prop, oneOf: options };
}

/** The schema of one step: its fields, its required ones, and the conditions that only speak of its fields. */
export function stepSchema(full: Schema, ui: FormUi, step: PublicStep, data: RecordData): JsonSchema {
  const fields = new Set(step.fields);
  const narrowedByUi = new Set(step.fields.filter((f) => (ui[f] as Record<string, unknown> | undefined)?.['ui:optionsWhen']));
  const properties = Object.fromEntries(
    step.fields.filter((f) => full.properties?.[f]).map((f) => [f, narrowed(full.properties![f]!, ui[f] as Record<string, unknown> | undefined, data)]),
  );
  const allOf = ((full.allOf ?? []) as Conditional[])
    .filter((c) => Object.keys(c.if?.properties ?? {}).every((f) => fields.has(f)))
    .map((c) => ({ ...c, then: keepRequired(c.then, fields, narrowedByUi), else: keepRequired(c.else, fields, narrowedByUi) }));
  return { type: 'object', properties, required: (full.required ?? []).filter((f) => fields.has(f)), ...(allOf.length ? { allOf } : {}) } as JsonSchema;
}

/** The step's uiSchema: the field entries of the ui file, and one section titled like the step. */
export function stepUi(ui: FormUi, step: PublicStep): FormUi {
  const out: FormUi = {};
  for (const [key, value] of Object.entries(ui)) if (!key.startsWith('ui:') && !key.startsWith('$')) out[key] = value;
  out['ui:layout'] = [{ title: step.titolo, fields: step.fields }];
  return out;
}

/** Fields whose value narrows another field's choices: a change of these rebuilds the schema. */
export function controllingFields(ui: FormUi): string[] {
  const out = new Set<string>();
  for (const node of Object.values(ui)) {
    const rule = (node as Record<string, unknown> | null)?.['ui:optionsWhen'];
    if (rule && typeof rule === 'object') Object.keys(rule).forEach((f) => out.add(f));
  }
  return [...out];
}

export function pick(data: RecordData, fields: Iterable<string>): RecordData {
  const out: RecordData = {};
  for (const f of fields) if (data[f] !== undefined) out[f] = data[f];
  return out;
}

// Pure pieces of the fast-quotation stepper: the step forms cut out of the entity schema, the person switches, errors per form.
import type { ErrorSchema } from '@rjsf/utils';
import type { FormUi, JsonSchema } from '../../types.ts';
import { tipiIndirizzo } from '../../../shared/rca/richiesta.ts';

export type Richiesta = {
  fastFlowData: Record<string, unknown> & { personData: Record<string, unknown> };
  coverages: Array<Record<string, unknown> & { code: string }>;
  addresses: Array<Record<string, unknown>>;
  contacts: Array<Record<string, unknown>>;
  privacyData?: Record<string, unknown>;
};

/** Fields of the 'Quotazione Veloce' form; the promotion is chosen with the coverages, the person has its own form. */
export const DATI_FIELDS = ['vehicleCategory', 'plate', 'birthdate', 'effectDate', 'insuranceSituation', 'bonusMalus'];
const HIDDEN_JURIDIC = ['surname', 'birthDate', 'maritalStatus', 'fiscalCode'];

export interface StepForms {
  dati: JsonSchema;
  persona: JsonSchema;
  indirizzo: JsonSchema;
  contatto: JsonSchema;
}

/** The three shared forms of spec 002 §2.6 and the step-2 data, as parts of the quotation_request definition. */
export function stepForms(entity: JsonSchema, gender: unknown): StepForms {
  const request = entity.properties!.quotation_request!;
  const fast = request.properties!.fastFlowData!;
  const dati: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(DATI_FIELDS.map((f) => [f, fast.properties![f]!])),
    required: (fast.required ?? []).filter((f) => DATI_FIELDS.includes(f)),
  };
  const address = request.properties!.addresses!.items!;
  const allowed = new Set(tipiIndirizzo(gender));
  const addressType = address.properties!.addressType!;
  const indirizzo: JsonSchema = {
    ...address,
    properties: {
      ...address.properties,
      // Address types allowed by the person kind (spec 002 §4.1).
      addressType: { ...addressType, oneOf: (addressType.oneOf as Array<{ const: string }>).filter((o) => allowed.has(o.const)) },
    },
  };
  const contact = request.properties!.contacts!.items!;
  // The contact form shows the Email only; its type and the unused principal flag ride along as hidden fields (contattoUi),
  // declared, so the form does not offer them as extra keys named by their code.
  const { value, type, isPrincipal } = contact.properties!;
  const contatto: JsonSchema = { ...contact, properties: { value: value!, type: type!, isPrincipal: isPrincipal! }, required: ['value'] };
  return { dati, persona: personaSchema(fast.properties!.personData!, gender), indirizzo, contatto };
}

/** The person form of one kind: a legal person has name (Ragione Sociale) and Partita IVA, others the rest. */
export function personaSchema(person: JsonSchema, gender: unknown): JsonSchema {
  const juridic = gender === 'Juridic';
  const keep = Object.keys(person.properties ?? {}).filter((f) => (juridic ? !HIDDEN_JURIDIC.includes(f) : f !== 'vatNumber'));
  const branch = (juridic ? person.then : person.else) as JsonSchema | undefined;
  const { if: _if, then: _then, else: _else, ...rest } = person;
  return {
    ...rest,
    // Values typed before a switch of kind stay in the data; personaPulita leaves them out when sending.
    additionalProperties: true,
    properties: Object.fromEntries(keep.map((f) => [f, person.properties![f]!])),
    required: [...(person.required ?? []), ...(branch?.required ?? [])],
  };
}

/** Person form switches: a legal person shows 'Ragione Sociale' and Partita IVA only; others the reverse. */
export function personaUi(gender: unknown): FormUi {
  const juridic = gender === 'Juridic';
  return {
    gender: { 'ui:widget': 'radio' },
    name: { 'ui:title': juridic ? 'Ragione Sociale' : 'Nome' },
  };
}

export const contattoUi: FormUi = { type: { 'ui:widget': 'hidden' }, isPrincipal: { 'ui:widget': 'hidden' } };

/** Values a hidden field may still hold after a switch of person kind are not sent. */
export function personaPulita(p: Record<string, unknown>): Record<string, unknown> {
  if (p.gender === 'Juridic') {
    const { gender, name, vatNumber } = p;
    return Object.fromEntries(Object.entries({ gender, name, vatNumber }).filter(([, v]) => v !== undefined));
  }
  const { vatNumber: _vat, ...rest } = p;
  return rest;
}

export type FormName = 'dati' | 'persona' | 'indirizzo' | 'contatto' | 'garanzie' | 'altro';

/** Server/validator errors keyed 'fastFlowData.personData.name' → the form that shows them and its own path. */
export function formOf(path: string): { form: FormName; field: string } {
  if (path.startsWith('fastFlowData.personData.')) return { form: 'persona', field: path.slice('fastFlowData.personData.'.length) };
  if (path.startsWith('fastFlowData.')) return { form: 'dati', field: path.slice('fastFlowData.'.length) };
  const address = /^addresses\.\d+\.(.+)$/.exec(path);
  if (address) return { form: 'indirizzo', field: address[1]! };
  const contact = /^contacts\.\d+\.(.+)$/.exec(path);
  if (contact) return { form: 'contatto', field: contact[1]! };
  if (path.startsWith('coverages')) return { form: 'garanzie', field: path };
  return { form: 'altro', field: path };
}

/** Flat field errors split into one rjsf error schema per form. */
export function errorSchemas(errors: Record<string, string[]>): Partial<Record<FormName, ErrorSchema>> {
  const out: Partial<Record<FormName, ErrorSchema>> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const { form, field } = formOf(path);
    let node = (out[form] ??= {}) as Record<string, unknown>;
    for (const part of field.split('.')) node = (node[part] ??= {}) as Record<string, unknown>;
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), ...messages];
  }
  return out;
}

/** JSON-pointer-ish rjsf property ('.fastFlowData.plate') → 'fastFlowData.plate'. */
export function propertyPath(property: string | undefined): string {
  return String(property ?? '').replace(/^\./, '').replace(/\[(\d+)\]/g, '.$1').replace(/\['([^']+)'\]/g, '.$1');
}

// The fast-quotation request in canonical form, and the step-2 rules both sides apply (spec 002 §2.6, §3.5, §4.1, §5).
import type { JsonSchema } from '../definitions/types.ts';
import { oggiIso } from '../dates.ts';
import { PROMO_PREDEFINITA, selezionePredefinita } from './garanzie.ts';

export const DATA_PASSATA = 'La data è già passata.';

/** A legal person gets headquarters (and other seats unless restricted); others residency (and other residency). */
export function tipiIndirizzo(gender: unknown, restricted = false): string[] {
  if (gender === 'Juridic') return restricted ? ['CompanyHeadquarters'] : ['CompanyHeadquarters', 'CompanyOther'];
  return restricted ? ['PermanentResidency'] : ['PermanentResidency', 'OtherResidency'];
}

/** The ISTAT code as the insurer wants it: 6 digits, zero-padded ('58091' or 58091 → '058091'). */
export function padIstat(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const text = String(value).trim();
  return /^\d{1,6}$/.test(text) ? text.padStart(6, '0') : text;
}

/** Plate as typed → plate as sent: letters and digits only, upper case ('ab 123 cd' → 'AB123CD'). */
export function formatTarga(value: unknown): string {
  return String(value ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** An empty request of the stepper: category Auto, promotion QP_STANDARD, P01 selected, privacy answers true. */
export function richiestaVuota(today = oggiIso()): Record<string, unknown> {
  return {
    fastFlowData: {
      vehicleCategory: 'Auto', plate: '', convention: PROMO_PREDEFINITA, effectDate: today, bonusMalus: 14,
      insuranceSituation: 'AlreadyInsuredATR', personData: { gender: 'Male', name: '' },
    },
    coverages: selezionePredefinita(),
    addresses: [{ addressType: 'PermanentResidency', streetType: 'Via', streetName: '', number: '', zipCode: '' }],
    contacts: [{ type: 'Email', isPrincipal: true, value: '' }],
    privacyData: { question1: true, question2: true, question3: true },
  };
}

/**
 * Trims strings (empty ones dropped, so "required" speaks), upper-cases what the schema marks x-uppercase,
 * renames x-aliases (value_contact → value), pads the municipality code and formats the plate; any depth.
 */
export function normalizzaRichiesta(value: unknown, schema: JsonSchema | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => normalizzaRichiesta(item, schema?.items));
  if (value && typeof value === 'object') {
    const props = schema?.properties ?? {};
    const aliases = new Map<string, string>();
    for (const [name, prop] of Object.entries(props)) for (const a of (prop['x-aliases'] as string[] | undefined) ?? []) aliases.set(a, name);
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const name = aliases.get(key) ?? key;
      if (name !== key && name in (value as Record<string, unknown>)) continue;
      let next = normalizzaRichiesta(v, props[name]);
      if (name === 'cityIstat') next = padIstat(next);
      if (name === 'plate' && typeof next === 'string') next = formatTarga(next);
      if (next !== undefined) out[name] = next;
    }
    return out;
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    return schema?.['x-uppercase'] === true ? trimmed.toUpperCase() : trimmed;
  }
  return value;
}

export interface StepErrors {
  [field: string]: string[];
}

/** Rules JSON Schema cannot say: effect date not past, address types allowed for the person kind. */
export function verificaRichiesta(request: Record<string, unknown>, today = oggiIso()): StepErrors {
  const errors: StepErrors = {};
  const data = (request.fastFlowData ?? {}) as Record<string, unknown>;
  const effect = data.effectDate;
  if (typeof effect === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(effect) && effect < today) errors['fastFlowData.effectDate'] = [DATA_PASSATA];
  const gender = (data.personData as Record<string, unknown> | undefined)?.gender;
  const allowed = tipiIndirizzo(gender);
  ((request.addresses ?? []) as Array<Record<string, unknown>>).forEach((a, i) => {
    if (typeof a?.addressType === 'string' && a.addressType !== 'SiviSivo' && !allowed.includes(a.addressType)) {
      errors[`addresses.${i}.addressType`] = [gender === 'Juridic' ? 'Per una persona giuridica indica la sede.' : 'Per una persona fisica indica la residenza.'];
    }
  });
  return errors;
}

// Look-up widgets: 'comune' (ISTAT municipality autocomplete) and 'reference' (a record of another resource via x-ref).
import { can } from '../lib/access.ts';
import { useCallback, useMemo } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { api, isApiError, getOne } from '../api/dataProvider.ts';
import { fillTemplate, padIstat } from '../lib/format.ts';
import type { ResourceDef } from '../types.ts';
import { describedBy } from './aria.ts';
import { Autocomplete, LookupUnavailable } from './Autocomplete.tsx';
import type { Option } from './Autocomplete.tsx';

interface Comune {
  codice: string | number;
  nome: string;
  provincia?: string;
}

const COMUNE_PATH = '/api/autocomplete/comune';
const comuneLabel = (c: Comune) => (c.provincia ? `${c.nome} (${c.provincia})` : c.nome);

/** The municipality list may answer 404 until the ISTAT reference data lands. */
async function lookupComuni(base: string, search: string, signal: AbortSignal): Promise<Comune[]> {
  try {
    return (await api.lookup<Comune>(base, { search }, signal)).data ?? [];
  } catch (err) {
    if (isApiError(err, 'NOT_FOUND')) throw new LookupUnavailable(err.message);
    throw err;
  }
}

function commonProps(props: WidgetProps) {
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  return {
    id: props.id,
    name: props.htmlName || props.id,
    value: props.value,
    required: props.required,
    disabled: props.disabled || props.readonly,
    invalid,
    autoFocus: props.autofocus,
    describedBy: describedBy(props.id, { error: invalid }),
    onChange: (value: unknown) => props.onChange(value),
    onBlur: (value: unknown) => props.onBlur(props.id, value),
    onFocus: (value: unknown) => props.onFocus(props.id, value),
  };
}

const comuneFallback = {
  // Until the ISTAT reference data lands the user can still type the code.
  parse: (text: string) => {
    const digits = text.replace(/\D/g, '');
    if (!digits) return undefined;
    return digits.length <= 6 && digits.length >= 4 ? padIstat(digits) : text;
  },
  hint: 'Elenco dei comuni non disponibile: inserisci il codice ISTAT (6 cifre).',
  inputMode: 'numeric' as const,
};

export function ComuneWidget(props: WidgetProps) {
  // A form outside the login (the customer's link) names its own look-up prefix in formContext.
  const prefix = (props.registry.formContext as { lookupBase?: string } | undefined)?.lookupBase;
  const base = prefix ? `${prefix}/comune` : COMUNE_PATH;
  const search = useCallback(async (text: string, signal: AbortSignal): Promise<Option[]> => {
    return (await lookupComuni(base, text, signal)).map((c) => ({ value: padIstat(c.codice), label: comuneLabel(c) }));
  }, [base]);
  // An unknown code (or no reference data yet) simply stays shown as the code.
  const describe = useCallback(async (value: string | number, signal: AbortSignal) => {
    const body = await api.item<Comune>(`${base}/${encodeURIComponent(padIstat(value))}`, signal);
    return body.data ? comuneLabel(body.data) : undefined;
  }, [base]);
  return <Autocomplete {...commonProps(props)} search={search} describe={describe} fallback={comuneFallback} />;
}

interface LookupContext {
  resources?: ResourceDef[];
  labels?: Record<string, unknown>;
}

export function ReferenceWidget(props: WidgetProps) {
  const ref = props.schema['x-ref'] as string | undefined;
  const { resources, labels } = (props.registry.formContext as LookupContext | undefined) ?? {};
  // The label the server read with the record (<field>__label), for the value it was read with.
  const knownValue = labels?.[props.name];
  const knownLabel = labels?.[`${props.name}__label`];
  const target = useMemo(() => resources?.find((r) => r.name === ref), [resources, ref]);
  const titleOf = useCallback((row: Record<string, unknown>) => fillTemplate(target?.resource.recordTitle ?? '{id}', row) || `#${String(row.id)}`, [target]);
  const search = useCallback(
    async (text: string, signal: AbortSignal): Promise<Option[]> => {
      if (!target) return [];
      const body = await api.lookup<Record<string, unknown>>(target.resource.api.path, { search: text, per_page: 10 }, signal);
      return (body.data ?? []).map((row) => ({ value: row.id as number, label: titleOf(row) }));
    },
    [target, titleOf],
  );
  const describe = useCallback(
    async (value: string | number) => {
      if (typeof knownLabel === 'string' && String(knownValue) === String(value)) return knownLabel;
      return can(target, 'read') ? titleOf(await getOne(target!.resource, value)) : undefined;
    },
    [target, titleOf, knownValue, knownLabel],
  );
  const integer = props.schema.type === 'integer' || props.schema.type === 'number';
  const fallback = useMemo(
    () => ({
      parse: (text: string) => (text.trim() === '' ? undefined : integer && /^\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim()),
      hint: `Elenco ${target?.resource.title ?? ref ?? ''} non disponibile: inserisci il codice numerico.`.replace(/\s+/g, ' '),
      inputMode: integer ? ('numeric' as const) : ('text' as const),
    }),
    [integer, target, ref],
  );
  return <Autocomplete {...commonProps(props)} search={search} describe={describe} fallback={fallback} unavailable={!target || !can(target, 'list')} />;
}

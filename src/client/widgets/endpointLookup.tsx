// 'lookup' widget: a combobox fed by a look-up endpoint named in form.ui.json ("ui:options": {"path": "/api/autocomplete/...{id}"}).
import { can } from '../lib/access.ts';
import { useCallback, useMemo } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { api, getOne } from '../api/dataProvider.ts';
import { fillTemplate } from '../lib/format.ts';
import type { ResourceDef } from '../types.ts';
import { describedBy } from './aria.ts';
import { Autocomplete } from './Autocomplete.tsx';
import type { Option } from './Autocomplete.tsx';

interface LookupItem {
  id: string | number;
  label: string;
}

interface LookupContext {
  resources?: ResourceDef[];
  recordId?: string;
}

/** "{id}" takes the edited record's id; a record not saved yet drops that path segment (the endpoint's "any record" form). */
export function lookupPath(template: string, recordId: string | undefined): string {
  if (recordId) return template.replace('{id}', encodeURIComponent(recordId));
  return template.replace(/\/?\{id\}/, '');
}

export function EndpointLookupWidget(props: WidgetProps) {
  const context = (props.registry.formContext ?? {}) as LookupContext;
  const template = String(props.options.path ?? '');
  const path = lookupPath(template, context.recordId);
  const ref = props.schema['x-ref'] as string | undefined;
  const target = useMemo(() => context.resources?.find((r) => r.name === ref), [context.resources, ref]);

  const search = useCallback(
    async (text: string, signal: AbortSignal): Promise<Option[]> =>
      ((await api.lookup<LookupItem>(path, { search: text }, signal)).data ?? []).map((item) => ({ value: item.id, label: item.label })),
    [path],
  );
  // The endpoint names the current value when it still offers it; otherwise the referenced record does.
  const describe = useCallback(
    async (value: string | number, signal: AbortSignal) => {
      const offered = (await api.lookup<LookupItem>(path, {}, signal)).data?.find((item) => String(item.id) === String(value));
      if (offered) return offered.label;
      if (can(target, 'read')) return fillTemplate(target!.resource.recordTitle ?? '{id}', await getOne(target!.resource, value));
      return undefined;
    },
    [path, target],
  );
  const integer = props.schema.type === 'integer' || props.schema.type === 'number';
  const fallback = useMemo(
    () => ({
      parse: (text: string) => (text.trim() === '' ? undefined : integer && /^\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim()),
      hint: 'Elenco non disponibile: inserisci il codice numerico.',
      inputMode: integer ? ('numeric' as const) : ('text' as const),
    }),
    [integer],
  );
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  return (
    <Autocomplete
      id={props.id}
      name={props.htmlName || props.id}
      value={props.value}
      required={props.required}
      disabled={props.disabled || props.readonly}
      invalid={invalid}
      autoFocus={props.autofocus}
      describedBy={describedBy(props.id, { error: invalid })}
      search={search}
      describe={describe}
      fallback={fallback}
      onChange={(value) => props.onChange(value)}
      onBlur={(value) => props.onBlur(props.id, value)}
      onFocus={(value) => props.onFocus(props.id, value)}
    />
  );
}

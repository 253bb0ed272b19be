// SWR hooks over the data layer: pages read with useGetList/useGetOne/useGetMany and write with useMutation,
// never with useState/useEffect fetching. Keys name the resource's path, so a write revalidates its readers.
import { useCallback, useState } from 'react';
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr';
import { api, callRoute, cerca, getList, getMany, getMedia, getOne, summary, type CercaHit, type DashboardData, type ListParams, type RequestOptions } from './dataProvider.ts';
import type { MediaList, Page, RecordData, ResourceConfig } from '../types.ts';

const READ_DEFAULTS: SWRConfiguration = { revalidateOnFocus: false, shouldRetryOnError: false };

/** The cache key of a list page; the generic list screen and custom pages share it. */
export function listKey(resource: ResourceConfig, params: ListParams): [string, string, string] {
  return ['list', resource.api.path, JSON.stringify(params)];
}

/** A page of a resource; nothing is fetched while `resource` or `params` is missing (no permission, no id yet). */
export function useGetList(resource: ResourceConfig | undefined, params: ListParams | null | undefined, config: SWRConfiguration<Page> = {}) {
  return useSWR<Page>(resource && params ? listKey(resource, params) : null, () => getList(resource!, params!), { ...READ_DEFAULTS, ...config });
}

/** Totals of a resource's list as filtered; revalidated with the resource's lists (key 'list'). */
export function useSummary<T>(resource: ResourceConfig | undefined, params: Pick<ListParams, 'search' | 'filters'> | null) {
  return useSWR<T>(resource && params ? ['list', resource.api.path, `riepilogo:${JSON.stringify(params)}`] : null, () => summary<T>(resource!, params!), READ_DEFAULTS);
}

/** One record of a resource by id. */
export function useGetOne(resource: ResourceConfig | undefined, id: string | number | undefined, config: SWRConfiguration<RecordData> = {}) {
  return useSWR<RecordData>(resource && id !== undefined ? ['one', resource.api.path, String(id)] : null, () => getOne(resource!, id!), {
    ...READ_DEFAULTS,
    ...config,
  });
}

/** Records of a resource by id, in one call, as a map (e.g. the names behind the foreign keys of a table). */
export function useGetMany(resource: ResourceConfig | undefined, ids: unknown[] | undefined) {
  const wanted = ids ? [...new Set(ids.filter((v) => v !== null && v !== undefined && v !== '').map(String))].sort() : undefined;
  return useSWR<Map<unknown, RecordData>>(resource && wanted ? ['many', resource.api.path, wanted.join(',')] : null, () => getMany(resource!, wanted!.map(Number)), READ_DEFAULTS);
}

/**
 * Labels of records of several resources at once (a history's references): one getMany per resource, one cache key.
 * `label` turns a record into its label; what the user may not read stays unlabelled.
 */
export function useLabels(wanted: Array<{ resource: ResourceConfig; name: string; ids: string[] }>, label: (name: string, row: RecordData) => string) {
  const key = wanted.length ? ['labels', JSON.stringify(wanted.map((w) => [w.resource.api.path, w.ids]))] : null;
  return useSWR<Map<string, Map<string, string>>>(
    key,
    async () => {
      const out = new Map<string, Map<string, string>>();
      await Promise.all(
        wanted.map(async ({ resource, name, ids }) => {
          const rows = await getMany(resource, ids.map(Number)).catch(() => new Map<unknown, RecordData>());
          out.set(name, new Map([...rows.values()].map((row) => [String(row.id), label(name, row)])));
        }),
      );
      return out;
    },
    READ_DEFAULTS,
  );
}

/** The files of a record and the collections it may hold; nothing is fetched without an id. */
export function useGetMedia(resource: ResourceConfig | undefined, id: string | number | undefined) {
  return useSWR<MediaList>(resource && id !== undefined ? ['media', resource.api.path, String(id)] : null, () => getMedia(resource!, id!), READ_DEFAULTS);
}

/**
 * A GET of a feature's route (routePath); nothing is fetched while `params` is null (no id yet, not allowed). Every
 * param is part of the cache key, so one the path does not use (a record's version) still asks again when it changes.
 */
export function useRoute<T>(
  template: string, params: Record<string, unknown> | null, config: SWRConfiguration<T> = {}, options: Pick<RequestOptions, 'query' | 'label' | 'noRedirect'> = {},
) {
  return useSWR<T>(
    params ? ['route', template, JSON.stringify(params), JSON.stringify(options.query ?? {})] : null,
    () => callRoute<T>('GET', template, params!, options),
    { ...READ_DEFAULTS, ...config },
  );
}

/** A read that posts its question (a draft to preview): cached by the body, the last answer kept while the next loads. */
export function usePostedRoute<T>(template: string, body: unknown) {
  return useSWR<T>(
    body !== undefined ? ['route', 'POST', template, JSON.stringify(body)] : null,
    () => callRoute<T>('POST', template, {}, { body }),
    { ...READ_DEFAULTS, keepPreviousData: true },
  );
}

/** Searches from this many characters, as the server does (shorter text finds nothing). */
export const CERCA_MIN = 3;

/** The top bar's search of `text` (already debounced by the caller); nothing is fetched below CERCA_MIN characters. */
export function useCerca(text: string) {
  const q = text.trim();
  return useSWR<CercaHit[]>(q.length >= CERCA_MIN ? ['cerca', q] : null, () => cerca(q), { ...READ_DEFAULTS, keepPreviousData: true });
}

/** The dashboard's figures (charts and card counts). */
export function useDashboardData() {
  return useSWR<DashboardData>(['dashboard'], () => api.dashboard(), READ_DEFAULTS);
}

/** Revalidates every list, record and map of these resources. */
export function useInvalidate() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (...resources: ResourceConfig[]) => {
      const paths = new Set(resources.map((r) => r.api.path));
      return mutate((key) => Array.isArray(key) && ['list', 'one', 'many'].includes(String(key[0])) && paths.has(String(key[1])));
    },
    [mutate],
  );
}

/**
 * A write through the data layer: `run(call)` marks busy, awaits the call, then revalidates the readers of the
 * resources it touches. Errors are rethrown for the caller's message (422 fields, 409 conflicts).
 */
export function useMutation(...touches: Array<ResourceConfig | undefined>) {
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<T> => {
      setBusy(true);
      try {
        const result = await call();
        await invalidate(...touches.filter((r): r is ResourceConfig => r !== undefined));
        return result;
      } finally {
        setBusy(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the touched resources are compared by path
    [invalidate, touches.map((r) => r?.api.path).join('|')],
  );
  return { run, busy };
}

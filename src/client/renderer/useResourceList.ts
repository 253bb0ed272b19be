// Headless list controller: URL-held params, server page via the data provider, delete, column preferences.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { useDebouncedCallback } from 'use-debounce';
import { api, remove } from '../api/dataProvider.ts';
import { useGetList } from '../api/hooks.ts';
import type { ListParams } from '../api/dataProvider.ts';
import type { RecordData, ResourceDef } from '../types.ts';
import { readListState, writeListState } from './listParams.ts';

export type ListState = Required<ListParams>;

export interface ResourceListOptions {
  /**
   * An embedded list (a tab of a record's screen): its state lives in the component, not in the page's address, and
   * these filters narrow every request (the server applies row scope on top). null: nothing to ask yet (no rows).
   */
  embedded?: { filters: Record<string, string> | null; sort?: string };
}

export function useResourceList(def: ResourceDef, options: ResourceListOptions = {}) {
  const { embedded } = options;
  const [address, setAddress] = useSearchParams();
  const [own, setOwn] = useState(() => new URLSearchParams(embedded?.sort ? { sort: embedded.sort } : {}));
  const query = embedded ? own : address;
  const setQuery = useCallback(
    (next: URLSearchParams, opts?: { replace?: boolean }) => (embedded ? setOwn(next) : setAddress(next, opts)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only whether the list is embedded matters
    [Boolean(embedded), setAddress],
  );
  const state = useMemo(() => readListState(query, def.list), [query, def.list]);
  const fixed = embedded?.filters;
  const asked = useMemo(
    () => (embedded ? (fixed ? { ...state, filters: { ...state.filters, ...fixed } } : null) : state),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fixed filters by value
    [state, Boolean(embedded), JSON.stringify(fixed)],
  );
  const { data, error, isLoading, isValidating, mutate } = useGetList(def.resource, asked, { keepPreviousData: true });

  // Each change is a history entry, so the back button walks through searches, sorts and pages.
  const apply = useCallback(
    (patch: Partial<ListState>, options: { keepPage?: boolean; replace?: boolean } = {}) => {
      const next: ListState = { ...state, ...patch, page: patch.page ?? (options.keepPage ? state.page : 1) };
      setQuery(writeListState(next, def.list), { replace: options.replace });
    },
    [state, setQuery, def.list],
  );

  // A page past the end (after deletes, or a stale bookmark) falls back to the last one.
  useEffect(() => {
    if (data && data.last_page >= 1 && state.page > data.last_page) apply({ page: data.last_page }, { replace: true });
  }, [data, state.page, apply]);

  // The row leaves the list at once (spec 002 §2.2); a refusal puts it back and the caller shows the message.
  const removeRow = useCallback(
    async (row: RecordData) => {
      let result: Awaited<ReturnType<typeof remove>> | undefined;
      const without = (current: typeof data) =>
        (current ? { ...current, data: current.data.filter((r) => r.id !== row.id), total: Math.max(0, current.total - 1) } : current) as NonNullable<typeof data>;
      await mutate(
        async (current) => {
          result = await remove(def.resource, row.id as number);
          return without(current);
        },
        { optimisticData: without, rollbackOnError: true, populateCache: true, revalidate: true },
      );
      return result!;
    },
    [def.resource, mutate],
  );

  return {
    state,
    rows: data?.data ?? [],
    total: data?.total ?? 0,
    totalIsEstimate: data?.total_is_estimate === true,
    lastPage: data?.last_page ?? 1,
    loading: isLoading || isValidating,
    error: error as Error | undefined,
    setPage: (page: number) => apply({ page }),
    setPerPage: (perPage: number) => apply({ perPage }),
    setSort: (sort: string) => apply({ sort }, { keepPage: true }),
    setSearch: (search: string) => apply({ search }),
    setFilter: (field: string, value: string) => apply({ filters: { ...state.filters, [field]: value } }),
    clearFilters: () => apply({ filters: {}, search: '' }),
    /** A saved filter: its search, filters and sort at once. */
    applyFilters: (saved: Pick<ListState, 'search' | 'sort' | 'filters'>) => apply({ search: saved.search, sort: saved.sort, filters: saved.filters }),
    removeRow,
    refresh: () => mutate(),
  };
}

/** Column order, width and visibility per user, kept through /api/preferences/{key}. */
export function useColumnPreferences<T>(key: string) {
  const { data, isLoading } = useSWR(['preference', key], () => api.getPreference<T>(key).catch(() => undefined), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  // Dragging a column fires many events: store once it settles; leaving the page stores what still waits.
  const save = useDebouncedCallback((value: T) => void api.putPreference(key, value).catch(() => undefined), 500, { flushOnExit: true });
  return { value: data, loaded: !isLoading, save };
}

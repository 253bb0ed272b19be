// List state <-> URL query (page, per_page, sort, search, filter[field]) so back/forward and bookmarks work.
import type { ListParams } from '../api/dataProvider.ts';
import type { ListColumn, ListConfig } from '../types.ts';

export const DEFAULT_PER_PAGE = 15;
export const PAGE_SIZES = [15, 25, 50, 100];

function positiveInt(text: string | null, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Rows per page: a positive number, or -1 for every row (the server streams them). */
function pageSize(text: string | null, fallback: number): number {
  return text === '-1' ? -1 : positiveInt(text, fallback);
}

/** list.json "filters": filters that are no column (e.g. a plate among a quotation's vehicles), applied by the server. */
export function extraFilters(list: ListConfig): ListColumn[] {
  const filters = (list as ListConfig & { filters?: ListColumn[] }).filters;
  return Array.isArray(filters) ? filters.filter((f) => f.filter) : [];
}

export function readListState(query: URLSearchParams, list: ListConfig): Required<ListParams> {
  const filters: Record<string, string> = {};
  const allowed = new Set([...list.columns, ...extraFilters(list)].filter((c) => c.filter).map((c) => c.field));
  for (const [key, value] of query) {
    const match = /^filter\[(.+)\]$/.exec(key);
    if (match && allowed.has(match[1]) && value !== '') filters[match[1]] = value;
  }
  return {
    page: positiveInt(query.get('page'), 1),
    perPage: pageSize(query.get('per_page'), list.perPage ?? DEFAULT_PER_PAGE),
    sort: query.get('sort') ?? list.defaultSort ?? '',
    search: query.get('search') ?? '',
    filters,
  };
}

/** Only what differs from the list's defaults goes in the URL, so a plain list has a plain address. */
export function writeListState(state: Required<ListParams>, list: ListConfig): URLSearchParams {
  const query = new URLSearchParams();
  if (state.search) query.set('search', state.search);
  for (const [field, value] of Object.entries(state.filters).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== '') query.set(`filter[${field}]`, value);
  }
  if (state.sort && state.sort !== (list.defaultSort ?? '')) query.set('sort', state.sort);
  if (state.perPage !== (list.perPage ?? DEFAULT_PER_PAGE)) query.set('per_page', String(state.perPage));
  if (state.page > 1) query.set('page', String(state.page));
  return query;
}

/** "-id,cognome" → [{field:'id', dir:'desc'}, {field:'cognome', dir:'asc'}]. */
export function parseSort(sort: string): Array<{ field: string; dir: 'asc' | 'desc' }> {
  return sort
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (part.startsWith('-') ? { field: part.slice(1), dir: 'desc' as const } : { field: part, dir: 'asc' as const }));
}

export function formatSort(items: Array<{ field: string; dir: 'asc' | 'desc' }>): string {
  return items.map((item) => (item.dir === 'desc' ? `-${item.field}` : item.field)).join(',');
}

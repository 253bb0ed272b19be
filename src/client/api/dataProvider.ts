// The only way screens reach the server: bearer token, JSON, cache-busting GETs and the error catalogue (spec 000 §8).
import { msg } from '../messages.ts';
import type { Page, RecordData, ResourceConfig } from '../types.ts';
import { endSession, getToken } from './session.ts';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Handlers {
  onSessionExpired: () => void;
  onMaintenance: () => void;
}

// The router installs these at start-up so this module stays free of React.
const handlers: Handlers = { onSessionExpired: () => {}, onMaintenance: () => {} };

export function setApiHandlers(next: Partial<Handlers>): void {
  Object.assign(handlers, next);
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** The login call answers 401/503 itself: do not redirect. */
  noRedirect?: boolean;
  /** Prefix of the 404 alert, e.g. the resource name. */
  label?: string;
  signal?: AbortSignal;
  /** The request outlives the page (saves flushed on beforeunload). */
  keepalive?: boolean;
}

function buildUrl(path: string, query: Query | undefined, bust: boolean): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  // Spec 000 §7: GET calls carry a timestamp so no cache answers them.
  if (bust) params.append('_t', String(Date.now()));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // A FormData body (file upload) sets its own multipart boundary.
  const multipart = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query, method === 'GET'), {
      method,
      headers,
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      cache: 'no-store',
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, msg.networkError, {});
  }
  let body: Record<string, unknown> = {};
  const text = await response.text();
  if (text) {
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { message: text };
    }
  }
  if (response.ok) return body as T;

  const message = typeof body.message === 'string' ? body.message : '';
  const errors = (body.errors && typeof body.errors === 'object' ? body.errors : {}) as FieldErrors;
  if (!options.noRedirect && (response.status === 401 || message === 'Unauthenticated.')) {
    endSession({ expired: true });
    handlers.onSessionExpired();
    throw new ApiError(401, msg.sessionExpired, {}, body);
  }
  if (!options.noRedirect && response.status === 503) {
    handlers.onMaintenance();
    throw new ApiError(503, message || msg.maintenance, {}, body);
  }
  if (response.status === 404) {
    throw new ApiError(404, options.label ? `${options.label}: ${msg.notFound}` : msg.notFound, {}, body);
  }
  if (response.status === 403) throw new ApiError(403, message || msg.forbidden, errors, body);
  throw new ApiError(response.status, message || msg.genericError, errors, body);
}

/** A stored file (document preview and download): the bytes as a Blob, with the same session and errors. */
export async function requestFile(path: string): Promise<Blob> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  } catch {
    throw new ApiError(0, msg.networkError, {});
  }
  if (!response.ok) {
    if (response.status === 401) {
      endSession({ expired: true });
      handlers.onSessionExpired();
      throw new ApiError(401, msg.sessionExpired);
    }
    throw new ApiError(response.status, response.status === 404 ? msg.notFound : msg.genericError);
  }
  return response.blob();
}

// ---- Generic CRUD (react-admin style data provider) ----

export interface ListParams {
  page: number;
  perPage: number;
  sort?: string;
  search?: string;
  filters?: Record<string, string>;
}

export interface Saved {
  message: string;
  data: { model?: RecordData } & RecordData;
}

function listQuery(params: ListParams): Query {
  const query: Query = { page: params.page, per_page: params.perPage, sort: params.sort, search: params.search };
  for (const [field, value] of Object.entries(params.filters ?? {})) {
    if (value !== '') query[`filter[${field}]`] = value;
  }
  return query;
}

export function getList(resource: ResourceConfig, params: ListParams, signal?: AbortSignal): Promise<Page> {
  return request<Page>('GET', resource.api.path, { query: listQuery(params), label: resource.singular ?? resource.title, signal });
}

export async function getOne(resource: ResourceConfig, id: string | number): Promise<RecordData> {
  const body = await request<{ data: RecordData }>('GET', `${resource.api.path}/${encodeURIComponent(String(id))}`, {
    label: resource.singular ?? resource.title,
  });
  return body.data;
}

export function create(resource: ResourceConfig, data: RecordData): Promise<Saved> {
  return request<Saved>('POST', resource.api.path, { body: data, label: resource.singular ?? resource.title });
}

export function update(resource: ResourceConfig, id: string | number, data: RecordData): Promise<Saved> {
  return request<Saved>('PUT', `${resource.api.path}/${encodeURIComponent(String(id))}`, {
    body: data,
    label: resource.singular ?? resource.title,
  });
}

export function remove(resource: ResourceConfig, id: string | number): Promise<{ message: string }> {
  return request<{ message: string }>('DELETE', `${resource.api.path}/${encodeURIComponent(String(id))}`, {
    label: resource.singular ?? resource.title,
  });
}

/** The saved record from a POST/PUT answer ({data:{model}}), tolerant of a bare {data}. */
export function savedRecord(saved: Saved): RecordData {
  return (saved.data?.model ?? saved.data ?? {}) as RecordData;
}

// ---- Shell calls ----

export interface Environment {
  maintenance: boolean;
  appName?: string;
  ambiente?: string;
}

export const api = {
  environment: () => request<Environment>('GET', '/api/environment', { noRedirect: true }),
  login: (email: string, password: string) =>
    request<{ token: string; permissions: string[]; roles: string[]; user: import('../types.ts').SessionUser; environment: Record<string, unknown> }>(
      'POST',
      '/api/login',
      { body: { email, password }, noRedirect: true },
    ),
  logout: () => request<{ message: string }>('GET', '/api/api_logout', { noRedirect: true }),
  definitions: () => request<import('../types.ts').DefinitionsPayload>('GET', '/api/definitions'),
  updateAccount: (body: { name?: string; password_attuale?: string; password?: string }) =>
    request<{ message: string; data: { user: import('../types.ts').SessionUser } }>('PUT', '/api/account', { body }),
  getPreference: async <T>(key: string): Promise<T | undefined> => {
    try {
      const body = await request<{ data?: { value?: T } }>('GET', `/api/preferences/${encodeURIComponent(key)}`);
      return body.data?.value ?? undefined;
    } catch (err) {
      // No stored preference yet is not an error for the user.
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  },
  putPreference: (key: string, value: unknown) => request<unknown>('PUT', `/api/preferences/${encodeURIComponent(key)}`, { body: { value } }),
  /** One item of a look-up, e.g. GET /api/autocomplete/comune/{codice} → {data: item}. */
  item: <T>(path: string, signal?: AbortSignal) => request<{ data: T }>('GET', path, { signal }),
  /** Autocomplete and reference look-ups: any GET under /api answering {data: [...]}. */
  lookup: <T>(path: string, query: Query, signal?: AbortSignal) => request<{ data: T[] }>('GET', path, { query, signal }),
};

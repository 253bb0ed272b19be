// The only way screens reach the server: bearer token, JSON, cache-busting GETs and the error catalogue (spec 000 §8).
import { msg } from '../messages.ts';
import type { MediaItem, MediaList, Page, RecordData, ResourceConfig } from '../types.ts';
import { endSession, getToken, markMfaRequired } from './session.ts';
import { ERROR_CODES, type ErrorCode } from '../../shared/error-codes.ts';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  /** The server's stable code (src/shared/error-codes.ts): screens decide on it, never on the message. */
  readonly code: ErrorCode | undefined;

  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = typeof body.code === 'string' && (ERROR_CODES as readonly string[]).includes(body.code) ? (body.code as ErrorCode) : undefined;
  }
}

/** Whether `error` is the server's refusal with `code`. */
export const isApiError = (error: unknown, code: ErrorCode): error is ApiError => error instanceof ApiError && error.code === code;

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

// The definitions version of the last answer and of the definitions loaded: a change applied live shows as a
// difference, and the next write first reloads the definitions (the screens re-render; a form keeps its values).
const definitionsVersion = { seen: '', loaded: '' };
let reloadDefinitions: (() => Promise<unknown>) | undefined;

/** The definitions' loader (useDefinitions) makes itself known, to be called when the server's set changed. */
export function onDefinitionsChanged(reload: (() => Promise<unknown>) | undefined): void {
  reloadDefinitions = reload;
}

let reloading: Promise<unknown> | undefined;

async function currentDefinitions(): Promise<void> {
  if (!reloadDefinitions || !definitionsVersion.loaded || definitionsVersion.seen === definitionsVersion.loaded) return;
  reloading ??= reloadDefinitions().catch(() => {}).finally(() => {
    reloading = undefined;
  });
  await reloading;
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

/** Sends one call with the token and the cache rules; a network failure becomes the catalogue's message. */
async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // A FormData body (file upload) sets its own multipart boundary.
  const multipart = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') await currentDefinitions();
  try {
    const response = await fetch(buildUrl(path, options.query, method === 'GET'), {
      method,
      headers,
      body: options.body === undefined ? undefined : multipart ? (options.body as FormData) : JSON.stringify(options.body),
      cache: 'no-store',
      signal: options.signal,
      keepalive: options.keepalive,
    });
    const seen = response.headers.get('x-definizioni-versione');
    if (seen && seen !== definitionsVersion.seen) {
      definitionsVersion.seen = seen;
      // Heard of a new set: the screens take it now (in the background); a write in flight keeps the set it was made on.
      if (definitionsVersion.loaded && seen !== definitionsVersion.loaded) void currentDefinitions();
    }
    return response;
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, msg.networkError, {});
  }
}

async function bodyOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { message: text };
  }
}

/** The error catalogue of spec 000 §8 for a failed answer. */
function failure(response: Response, body: Record<string, unknown>, options: RequestOptions): ApiError {
  const message = typeof body.message === 'string' ? body.message : '';
  const errors = (body.errors && typeof body.errors === 'object' ? body.errors : {}) as FieldErrors;
  const code = body.code;
  if (!options.noRedirect && code === 'UNAUTHENTICATED') {
    endSession({ expired: true });
    handlers.onSessionExpired();
    return new ApiError(401, msg.sessionExpired, {}, body);
  }
  // Only maintenance leads to the maintenance page: a third party unavailable (also 503) is the screen's message.
  if (!options.noRedirect && code === 'MAINTENANCE') {
    handlers.onMaintenance();
    return new ApiError(503, message || msg.maintenance, {}, body);
  }
  if (!options.noRedirect && code === 'MFA_REQUIRED') {
    markMfaRequired();
    return new ApiError(403, message || msg.forbidden, {}, body);
  }
  if (code === 'NOT_FOUND') return new ApiError(404, options.label ? `${options.label}: ${msg.notFound}` : msg.notFound, {}, body);
  if (code === 'FORBIDDEN') return new ApiError(403, message || msg.forbidden, errors, body);
  return new ApiError(response.status, message || msg.genericError, errors, body);
}

export async function request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  const body = await bodyOf(response);
  if (response.ok) return body as T;
  throw failure(response, body, options);
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
  // A refusal is JSON like any other answer: the same catalogue decides on its code.
  if (!response.ok) throw failure(response, await bodyOf(response), {});
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
  /** Advice that did not block the save, per field (e.g. a phone without +39). */
  warnings?: Record<string, string[]>;
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

export function update(resource: ResourceConfig, id: string | number, data: RecordData, options: Pick<RequestOptions, 'keepalive'> = {}): Promise<Saved> {
  return request<Saved>('PUT', `${resource.api.path}/${encodeURIComponent(String(id))}`, {
    body: data,
    label: resource.singular ?? resource.title,
    ...options,
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

/** Records by id in one call (filter[id]=1,2,3), as a map; nothing asked, nothing fetched. */
export async function getMany(resource: ResourceConfig, ids: unknown[]): Promise<Map<unknown, RecordData>> {
  const wanted = [...new Set(ids.filter((v) => v !== null && v !== undefined && v !== ''))];
  if (!wanted.length) return new Map();
  const page = await getList(resource, { page: 1, perPage: -1, filters: { id: wanted.join(',') } });
  return new Map(page.data.map((row) => [row.id, row]));
}

// ---- Custom verbs: every call beyond CRUD goes through one of these, never a URL built in a page ----

export interface ActionAnswer {
  message?: string;
  data?: { model?: RecordData } & RecordData;
}

const labelOf = (resource: ResourceConfig) => resource.singular ?? resource.title;

/**
 * A feature's own route (spec-fixed paths such as '/api/emissione_appendice_esclusione/{id}/{targa}', or a workflow
 * event's meta.path) with its {placeholders} filled from `params`, each encoded: pages name routes, never build URLs.
 */
export function routePath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/** A call to a feature's route (see routePath). */
export function callRoute<T = ActionAnswer>(method: string, template: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<T> {
  return request<T>(method, routePath(template, params), options);
}
const recordPath = (resource: ResourceConfig, id: string | number) => `${resource.api.path}/${encodeURIComponent(String(id))}`;

/** A workflow event's route (POST {path}/{route}/{id}); without an id, the manual form with the id in the body (cambioStato). */
export function transition(resource: ResourceConfig, route: string, id: string | number | undefined, body: RecordData = {}): Promise<ActionAnswer> {
  const base = `${resource.api.path}/${route}`;
  const path = id === undefined ? base : `${base}/${encodeURIComponent(String(id))}`;
  return request<ActionAnswer>('POST', path, { body, label: labelOf(resource) });
}

/** The record's workflow: status, events the user may send, warnings, history (GET {path}/{id}/workflow). */
export function getWorkflow<T = unknown>(resource: ResourceConfig, id: string | number): Promise<T> {
  return request<T>('GET', `${recordPath(resource, id)}/workflow`, { label: labelOf(resource) });
}

/** A calculation of the resource (POST {path}/calcolo), stored on the record when the body carries its id. */
export function calcola<T = ActionAnswer>(resource: ResourceConfig, body: RecordData): Promise<T> {
  return request<T>('POST', `${resource.api.path}/calcolo`, { body, label: labelOf(resource) });
}

function formOf(file: Blob, fileField: string, fields: Record<string, string | Blob>, fileName?: string): FormData {
  const form = new FormData();
  // Plain fields first: the server may read them before the file streams (e.g. cancella).
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (fileName) form.append(fileField, file, fileName);
  else form.append(fileField, file);
  return form;
}

/** A file imported into the resource (POST {path}/import, multipart: file plus fields). */
export interface ImportOptions {
  /** Rows read and valid so far, as the server reports them (the answer becomes a stream of progress lines). */
  onProgress?: (progress: { letti: number; validi: number }) => void;
  /** Aborting closes the connection: the server rolls the import back. */
  signal?: AbortSignal;
}

export async function importFile<T = { message: string }>(resource: ResourceConfig, file: Blob, fields: Record<string, string> = {}, options: ImportOptions = {}): Promise<T> {
  const path = `${resource.api.path}/import`;
  if (!options.onProgress) return request<T>('POST', path, { body: formOf(file, 'file', fields), label: labelOf(resource), signal: options.signal });
  const requestOptions: RequestOptions = { body: formOf(file, 'file', fields), label: labelOf(resource), signal: options.signal, query: { progress: '1' } };
  const response = await send('POST', path, requestOptions);
  if (!response.ok || !response.body) throw failure(response, await bodyOf(response), requestOptions);
  // NDJSON: {letti, validi} lines, then {fine, status, ...the answer}.
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (value) buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>;
      buffered = buffered.slice(newline + 1);
      if (line.fine) {
        const { fine: _f, status, ...body } = line;
        if (status === 200) return body as T;
        throw failure(new Response(null, { status: Number(status) || 500 }), body, requestOptions);
      }
      options.onProgress({ letti: Number(line.letti), validi: Number(line.validi) });
    }
    if (done) throw new ApiError(0, msg.networkError, {});
  }
}

/** A document uploaded to an upload endpoint (multipart: the file in `fileField`, default "file", plus fields). */
export function upload<T = ActionAnswer>(path: string, file: Blob, fields: Record<string, string> = {}, fileField = 'file', fileName?: string): Promise<T> {
  return request<T>('POST', path, { body: formOf(file, fileField, fields, fileName) });
}

// ---- Files of a record, on the paths its definition declares (resource.json "media") ----

function mediaPath(resource: ResourceConfig, kind: 'list' | 'upload', id?: string | number): string {
  const declared = resource.media?.paths?.[kind]?.[0];
  const path = declared ?? (kind === 'list' ? `${resource.api.path}/:id/media` : `${resource.api.path}/upload`);
  return id === undefined ? path : path.replace(':id', encodeURIComponent(String(id)));
}

/** Where a record's files are listed and uploaded (the paths its definition declares), for the documents panel. */
export function mediaPaths(resource: ResourceConfig, id: string | number): { list: string; upload: string } {
  return { list: mediaPath(resource, 'list', id), upload: mediaPath(resource, 'upload') };
}

/** The files of a record, with the collections it may hold. */
export function getMedia(resource: ResourceConfig, id: string | number): Promise<MediaList> {
  return request<MediaList>('GET', mediaPath(resource, 'list', id), { label: labelOf(resource) });
}

/** Uploads one file to a record's collection (the file in the field the definition names, "file" by default). */
export function uploadMedia(
  resource: ResourceConfig,
  file: File,
  fields: { id: string | number; collection: string; model?: string; tag?: string; nome_file?: string },
): Promise<{ message: string; data: { media: MediaItem } }> {
  const text: Record<string, string> = { id: String(fields.id), collection: fields.collection, model: fields.model ?? resource.media?.model ?? '' };
  if (fields.tag) text.tag = fields.tag;
  text.nome_file = fields.nome_file?.trim() || file.name;
  return request('POST', mediaPath(resource, 'upload'), { body: formOf(file, resource.media?.fileField ?? 'file', text, file.name) });
}

/** Deletes a stored file by the address the server gave for it. */
export function removeMedia(item: Pick<MediaItem, 'url'>): Promise<{ message: string }> {
  return request('DELETE', item.url);
}

/** A file from the server with the session's token: its bytes and the name of Content-Disposition. */
export async function download(path: string, query?: Query): Promise<{ blob: Blob; filename?: string }> {
  const options: RequestOptions = { query };
  const response = await send('GET', path, options);
  if (!response.ok) throw failure(response, await bodyOf(response), options);
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  const filename = match ? decodeURIComponent(match[1] ?? match[2] ?? '') : undefined;
  return { blob: await response.blob(), filename };
}

/** The list's filters and search without paging: what a summary, a printout or an export of the list covers. */
function filteredQuery(params: Pick<ListParams, 'search' | 'filters'>): Query {
  const { page: _page, per_page: _perPage, sort: _sort, ...rest } = listQuery({ page: 1, perPage: 1, ...params });
  return rest;
}

/** Totals of a list as filtered (GET {path}/riepilogo), e.g. a statement's totals by group. */
export async function summary<T>(resource: ResourceConfig, params: Pick<ListParams, 'search' | 'filters'>): Promise<T> {
  return (await request<{ data: T }>('GET', `${resource.api.path}/riepilogo`, { query: filteredQuery(params), label: labelOf(resource) })).data;
}

/** A document of the list as filtered (GET {path}/{name}, e.g. pdf, export?formato=csv). */
export function listFile(resource: ResourceConfig, name: string, params: Pick<ListParams, 'search' | 'filters'>, extra: Query = {}) {
  return download(`${resource.api.path}/${name}`, { ...filteredQuery(params), ...extra });
}

/** A document of one record (GET {path}/{id}/{name}, e.g. a receipt's pdf). */
export function recordFile(resource: ResourceConfig, id: string | number, name: string) {
  return download(`${recordPath(resource, id)}/${name}`);
}

/** An action on one record (POST {path}/{id}/{action}, e.g. a title's storno). */
export function recordAction(resource: ResourceConfig, id: string | number, action: string, body: RecordData = {}): Promise<ActionAnswer> {
  return request<ActionAnswer>('POST', `${recordPath(resource, id)}/${action}`, { body, label: labelOf(resource) });
}

export interface ExportProgress {
  /** Bytes received so far. */
  bytes: number;
  /** Rows received (CSV: one line each; XLSX: unknown until the end). */
  rows?: number;
  /** Rows the export will hold (X-Total-Count). */
  total?: number;
}

export interface ExportOptions {
  format: 'csv' | 'xlsx';
  /** The columns shown, in order (their fields). */
  columns?: string[];
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

/** The rows of a list's search and filters as a CSV or XLSX file, read as the server streams it (GET <path>/export). */
export async function exportList(resource: ResourceConfig, params: Omit<ListParams, 'page' | 'perPage'>, options: ExportOptions): Promise<{ blob: Blob; filename?: string }> {
  const { page: _p, per_page: _pp, ...query } = listQuery({ ...params, page: 1, perPage: 1 });
  const requestOptions: RequestOptions = { query: { ...query, format: options.format, columns: options.columns?.join(',') }, signal: options.signal, label: labelOf(resource) };
  const response = await send('GET', `${resource.api.path}/export`, requestOptions);
  if (!response.ok) throw failure(response, await bodyOf(response), requestOptions);
  const totalHeader = response.headers.get('x-total-count');
  const total = totalHeader === null ? undefined : Number(totalHeader);
  const parts: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.byteLength;
      if (options.format === 'csv') for (const byte of value) if (byte === 10) lines++;
      options.onProgress?.({ bytes, total, rows: options.format === 'csv' ? Math.max(0, lines - 1) : undefined });
    }
  }
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const blob = reader ? new Blob(parts as BlobPart[], { type }) : await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  return { blob, filename: match ? decodeURIComponent(match[1] ?? match[2] ?? '') : undefined };
}

/** The data layer in one object (react-admin's dataProvider): CRUD verbs and the custom ones. */
export const dataProvider = {
  getList,
  getOne,
  getMany,
  create,
  update,
  remove,
  transition,
  workflow: getWorkflow,
  calcola,
  importFile,
  upload,
  download,
  getMedia,
  uploadMedia,
  removeMedia,
  export: exportList,
  summary,
  listFile,
  recordFile,
  recordAction,
  lookup: <T>(path: string, query: Query = {}, signal?: AbortSignal) => request<{ data: T[] }>('GET', path, { query, signal }),
  cerca,
};

/** One result of the top bar's search: `tipo` is the resource, `route` the screen that opens the record. */
export interface CercaHit {
  tipo: string;
  id: number;
  label: string;
  route: string;
}

/** GET /api/cerca?q=: records of every kind the user may list, a few per kind, within their row scope. */
export async function cerca(q: string, signal?: AbortSignal): Promise<CercaHit[]> {
  return (await request<{ data: CercaHit[] }>('GET', '/api/cerca', { query: { q }, signal })).data;
}

// ---- Shell calls ----

/** GET /api/dashboard: amounts in cents; a part is null when the user may not read its resource. */
export interface DashboardData {
  premi: { anno: number; mesi: number[]; anno_precedente: number; mesi_precedente: number[] } | null;
  quotazioni: Array<{ id: number; code?: string; nome: string; totale: number }> | null;
  titoli_scaduti: Array<{ fascia: string; numero: number; importo: number }> | null;
  conteggi: { titoli_scaduti?: number | null; documenti_mancanti?: number | null };
}

export interface Environment {
  maintenance: boolean;
  appName?: string;
  ambiente?: string;
}

export interface LoginAnswer {
  token: string;
  permissions: string[];
  roles: string[];
  user: import('../types.ts').SessionUser;
  environment: Record<string, unknown>;
  mfa_da_attivare?: boolean;
}

/** One of the own live sessions ('Sessioni attive'). */
export interface OwnSession {
  id: number;
  creata: string;
  ultimo_uso: string;
  dispositivo: string | null;
  indirizzo: string | null;
  corrente: boolean;
}

export const api = {
  environment: () => request<Environment>('GET', '/api/environment', { noRedirect: true }),
  /** The session, or (two-step verification on) the token of the second step. */
  login: (email: string, password: string) =>
    request<LoginAnswer | { mfa_richiesta: true; token_mfa: string }>('POST', '/api/login', { body: { email, password }, noRedirect: true }),
  /** The second step: a code of the authenticator app or a recovery code. */
  loginCode: (token_mfa: string, codice: string) => request<LoginAnswer>('POST', '/api/login/mfa', { body: { token_mfa, codice }, noRedirect: true }),
  logout: () => request<{ message: string }>('GET', '/api/api_logout', { noRedirect: true }),
  definitions: async () => {
    const payload = await request<import('../types.ts').DefinitionsPayload>('GET', '/api/definitions');
    definitionsVersion.loaded = definitionsVersion.seen;
    return payload;
  },
  /** The dashboard's charts and card counts, in the user's scope. */
  dashboard: () => request<{ data: DashboardData }>('GET', '/api/dashboard').then((r) => r.data),
  updateAccount: (body: { name?: string; password_attuale?: string; password?: string }) =>
    request<{ message: string; data: { user: import('../types.ts').SessionUser } }>('PUT', '/api/account', { body }),
  /** Two-step verification of the own account. */
  mfaState: () => request<{ attiva: boolean; richiesta: boolean; esente: boolean }>('GET', '/api/account/mfa'),
  mfaStart: (password: string) => request<{ secret: string; otpauth_url: string; qr: string }>('POST', '/api/account/mfa/attiva', { body: { password } }),
  mfaConfirm: (codice: string) => request<{ message: string; codici_recupero: string[] }>('POST', '/api/account/mfa/conferma', { body: { codice } }),
  mfaOff: (password: string, codice: string) => request<{ message: string }>('DELETE', '/api/account/mfa', { body: { password, codice } }),
  sessions: () => request<{ data: OwnSession[] }>('GET', '/api/account/sessioni').then((r) => r.data),
  endSession: (id: number) => request<{ message: string }>('DELETE', `/api/account/sessioni/${id}`),
  endOtherSessions: () => request<{ message: string }>('DELETE', '/api/account/sessioni'),
  /** The single sign-on provider's name, or null when it is not configured. */
  sso: () => request<{ nome: string | null }>('GET', '/api/sso', { noRedirect: true }),
  /** The one-time ticket the provider's round trip left in the address, for the session. */
  ssoSession: (biglietto: string) => request<LoginAnswer>('POST', '/api/sso/sessione', { body: { biglietto }, noRedirect: true }),
  /** 'Password dimenticata?': the same answer whether the address exists or not. */
  passwordForgotten: (email: string) => request<{ message: string }>('POST', '/api/password/dimenticata', { body: { email }, noRedirect: true }),
  passwordReset: (token: string, password: string) => request<{ message: string }>('POST', '/api/password/reimposta', { body: { token, password }, noRedirect: true }),
  getPreference: async <T>(key: string): Promise<T | undefined> => {
    try {
      const body = await request<{ data?: { value?: T } }>('GET', `/api/preferences/${encodeURIComponent(key)}`);
      return body.data?.value ?? undefined;
    } catch (err) {
      // No stored preference yet is not an error for the user.
      if (isApiError(err, 'NOT_FOUND')) return undefined;
      throw err;
    }
  },
  putPreference: (key: string, value: unknown) => request<unknown>('PUT', `/api/preferences/${encodeURIComponent(key)}`, { body: { value } }),
  /** One item of a look-up, e.g. GET /api/autocomplete/comune/{codice} → {data: item}. */
  item: <T>(path: string, signal?: AbortSignal) => request<{ data: T }>('GET', path, { signal }),
  /** Autocomplete and reference look-ups: any GET under /api answering {data: [...]}. */
  lookup: <T>(path: string, query: Query, signal?: AbortSignal) => request<{ data: T[] }>('GET', path, { query, signal }),
  /** A form's validator, compiled by the server (no eval here): the module's function of the run-time helpers. */
  formValidator: async <T = Record<string, unknown>>(schema: unknown) => {
    const { url } = await request<{ url: string }>('POST', '/api/validators', { body: { schema }, noRedirect: true });
    const module = (await import(/* @vite-ignore */ url)) as { default: (require: (name: string) => unknown) => T };
    return module.default;
  },
};

// Session kept in sessionStorage (spec 000 §4): token plus permissions, roles, user and environment flags.
import type { Grants } from '../../shared/permissions.ts';
import { hasPermission } from '../../shared/permissions.ts';
import type { SessionData, SessionUser } from '../types.ts';

const TOKEN_KEY = 'token';
const DATA_KEY = 'session';

type Listener = () => void;
const listeners = new Set<Listener>();
let cached: { token: string | null; data: SessionData | null } | undefined;

function storage(): Storage | undefined {
  return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
}

function read(): { token: string | null; data: SessionData | null } {
  if (cached) return cached;
  const raw = storage()?.getItem(TOKEN_KEY) ?? null;
  // The old client could store the literal text "undefined": it means no session.
  const token = raw && raw !== 'undefined' && raw !== 'null' ? raw : null;
  let data: SessionData | null;
  try {
    const json = storage()?.getItem(DATA_KEY);
    data = json ? (JSON.parse(json) as SessionData) : null;
  } catch {
    data = null;
  }
  cached = { token, data: token ? data : null };
  return cached;
}

function emit(): void {
  cached = undefined;
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return read().token;
}

export function getSessionData(): SessionData | null {
  return read().data;
}

/** A stable snapshot for useSyncExternalStore. */
export function getSnapshot(): { token: string | null; data: SessionData | null } {
  return read();
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startSession(token: string, data: SessionData): void {
  storage()?.setItem(TOKEN_KEY, token);
  storage()?.setItem(DATA_KEY, JSON.stringify(data));
  emit();
}

export function updateUser(user: SessionUser): void {
  const data = getSessionData();
  if (!data) return;
  storage()?.setItem(DATA_KEY, JSON.stringify({ ...data, user }));
  emit();
}

/** The server refused with MFA_REQUIRED (or the enrolment ended): the guard follows this flag. */
export function markMfaRequired(required = true): void {
  const data = getSessionData();
  if (!data || Boolean(data.mfa_da_attivare) === required) return;
  storage()?.setItem(DATA_KEY, JSON.stringify({ ...data, mfa_da_attivare: required }));
  emit();
}

const EXPIRED_KEY = 'sessionExpired';

/** Ends the session; `expired` leaves a note so the login page can say why the user is back there. */
export function endSession(options: { expired?: boolean } = {}): void {
  storage()?.removeItem(TOKEN_KEY);
  storage()?.removeItem(DATA_KEY);
  if (options.expired) storage()?.setItem(EXPIRED_KEY, '1');
  emit();
}

export function wasExpired(): boolean {
  return storage()?.getItem(EXPIRED_KEY) === '1';
}

export function clearExpired(): void {
  storage()?.removeItem(EXPIRED_KEY);
}

export function getGrants(): Grants | undefined {
  const data = getSessionData();
  return data ? { permissions: data.permissions ?? [], roles: data.roles ?? [] } : undefined;
}

/** Client-side check used to hide what the server would refuse anyway. */
export function can(expression: string | undefined): boolean {
  return hasPermission(expression, getGrants());
}

// Sessions: opaque bearer tokens stored as SHA-256 hashes, login throttling, role and permission sync.
import crypto, { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { AuthUser } from './user.ts';
import type { InstanceCache, SessionRow } from '../cache.ts';

export const USERS_RESOURCE = 'utente';

const FAILURE_WINDOW_MINUTES = 15;
const MAX_FAILURES_PER_PAIR = 5;
const MAX_FAILURES_PER_IP = 30;
// The account as a whole: after 10 failures from anywhere each attempt waits 1 s, 2 s, 4 s, ... up to 8 s.
const SLOW_AFTER_FAILURES_PER_EMAIL = 10;
const SLOW_MAX_MS = 8000;

// Every authenticated request hashes its token: the one-shot crypto.hash (Node >= 20.12) skips building a Hash object.
const sha256Hex: (text: string) => string = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha256', text, 'hex')
  : (text) => createHash('sha256').update(text).digest('hex');

export function tokenHash(token: string): string {
  return sha256Hex(token);
}

/** Where a session was opened from, for the owner's list of sessions. */
export interface SessionOrigin {
  userAgent?: string;
  address?: string;
  /** Opened through the identity provider (single sign-on), whose verification counts as the second step. */
  sso?: boolean;
}

/** A session lasting `ttlHours` (TOKEN_TTL_HOURS). */
export async function issueToken(db: Database, userId: number, ttlHours: number, origin: SessionOrigin = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insertInto('auth_token').values({
    token_hash: tokenHash(token),
    user_id: userId,
    expires_at: sql`now() + make_interval(hours => ${ttlHours})`,
    user_agent: origin.userAgent?.slice(0, 500) ?? null,
    address: origin.address?.slice(0, 100) ?? null,
    sso: origin.sso === true,
  }).execute();
  return token;
}

export const SESSION_EXPIRED = 'Sessione scaduta. Effettua nuovamente il login.';

/** How often a session's last use is written: once a minute at most, so a GET does not cost a write each time. */
export function touchIntervalMs(idleMs: number): number {
  return Math.min(60_000, idleMs / 4);
}

/** Records a session's use (the idle timeout counts from it); the cache trigger ignores this column. */
export async function touchSession(db: Database, tokenId: number): Promise<void> {
  await db.updateTable('auth_token').set({ used_at: sql`now()` }).where('id', '=', tokenId).execute();
}

async function permissionsByRole(db: Database, cache?: InstanceCache): Promise<Map<string, string[]>> {
  const cached = cache?.permissionsByRole();
  if (cached) return cached;
  const generation = cache?.generation ?? 0;
  const rows = await db.selectFrom('auth_role_permission').select(['role', 'permission']).execute();
  const permissions = new Map<string, string[]>();
  for (const row of rows as Array<{ role: string; permission: string }>) permissions.set(row.role, [...(permissions.get(row.role) ?? []), row.permission]);
  cache?.rememberRoles(permissions, generation);
  return permissions;
}

// The union of some roles' permissions, worked out once per set of roles for as long as the role table is the same.
const unions = new WeakMap<Map<string, string[]>, Map<string, string[]>>();
function permissionsOf(byRole: Map<string, string[]>, roles: string[]): string[] {
  let known = unions.get(byRole);
  if (!known) unions.set(byRole, (known = new Map()));
  const key = roles.join('\n');
  let permissions = known.get(key);
  if (!permissions) known.set(key, (permissions = [...new Set(roles.flatMap((role) => byRole.get(role) ?? []))].sort()));
  return permissions;
}

// A cached session answers the same user object for as long as the role table is the same: built once, not per request.
// Frozen, as every request of the session shares it.
const users = new WeakMap<SessionRow, { byRole: Map<string, string[]>; user: AuthUser }>();

function userOf(row: SessionRow, byRole: Map<string, string[]>): AuthUser {
  const known = users.get(row);
  if (known?.byRole === byRole) return known.user;
  const { expiresAt: _expiresAt, usedAt: _usedAt, ...rest } = row;
  const user = Object.freeze({ ...rest, permissions: permissionsOf(byRole, row.roles) });
  users.set(row, { byRole, user });
  return user;
}

/** The cached session of a token hash, with its user, when the cache holds both; undefined when it must be read. */
export function cachedSession(hash: string, cache: InstanceCache): { row: SessionRow; user: AuthUser } | undefined {
  const row = cache.session(hash);
  const byRole = row && cache.permissionsByRole();
  return byRole ? { row, user: userOf(row, byRole) } : undefined;
}

/** The user of a session the cache holds, with its roles' permissions cached too; undefined when it must be read. */
export function cachedUser(token: string, cache: InstanceCache): AuthUser | undefined {
  return cachedSession(tokenHash(token), cache)?.user;
}

/**
 * The session behind a live token of an active account, with the permissions of all their roles, read from the
 * database (and remembered by the cache): revocation, deactivation and role changes evict it on every instance (cache.ts).
 */
export async function sessionForHash(db: Database, hash: string, cache?: InstanceCache): Promise<{ row: SessionRow; user: AuthUser } | undefined> {
  const generation = cache?.generation ?? 0;
  const result = await sql<SessionRow>`
    SELECT u.id, u.email, u.name, u.collaboratore_id, t.id::int AS "tokenId", coalesce(u.ruoli, '[]'::jsonb) AS roles,
      (extract(epoch FROM t.expires_at) * 1000)::float8 AS "expiresAt", (extract(epoch FROM t.used_at) * 1000)::float8 AS "usedAt",
      (NOT t.sso AND EXISTS (SELECT 1 FROM auth_role r WHERE r.mfa_richiesta AND coalesce(u.ruoli, '[]'::jsonb) ? r.name)
        AND NOT EXISTS (SELECT 1 FROM auth_mfa m WHERE m.user_id = u.id AND m.attiva)
        AND NOT EXISTS (SELECT 1 FROM auth_mfa_esenzione e WHERE e.user_id = u.id)) AS "mfaDaAttivare"
    FROM auth_token t JOIN ${sql.table(USERS_RESOURCE)} u ON u.id = t.user_id
    WHERE t.token_hash = ${hash} AND t.revoked_at IS NULL AND t.expires_at > now() AND u.attivo`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  cache?.rememberSession(hash, row, generation);
  return { row, user: userOf(row, await permissionsByRole(db, cache)) };
}

/** The user behind a live token (the cache's copy when it holds one), without the idle check of `authenticate`. */
export async function userForToken(db: Database, token: string, cache?: InstanceCache): Promise<AuthUser | undefined> {
  const hash = tokenHash(token);
  const row = cache?.session(hash);
  if (row) return userOf(row, await permissionsByRole(db, cache));
  return (await sessionForHash(db, hash, cache))?.user;
}

export async function revokeToken(db: Database, tokenId: number): Promise<void> {
  await db.updateTable('auth_token').set({ revoked_at: sql`now()` }).where('id', '=', tokenId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user but `keep` (the one changing the password keeps theirs). */
export async function revokeUserTokens(db: Database, userId: number, keep?: number): Promise<void> {
  let query = db.updateTable('auth_token').set({ revoked_at: sql`now()` }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keep !== undefined) query = query.where('id', '!=', keep);
  await query.execute();
}

export interface ThrottleKeys {
  /** The account from this address: the pair a guesser is refused on, so a stranger cannot lock the owner out. */
  pair: string;
  /** The account from anywhere: slowed down, never refused. */
  email: string;
  /** The address against any account: refused (password spraying). */
  ip: string;
}

export function throttleKeys(email: string, ip: string): ThrottleKeys {
  const account = email.trim().toLowerCase();
  return { pair: `pair:${account}|${ip}`, email: `email:${account}`, ip: `ip:${ip}` };
}

/**
 * The state of this login attempt's counters, kept in PostgreSQL so every instance sees the same:
 * refused when the pair or the address failed too often; otherwise delayed once the account as a whole did.
 * `slowBaseMs` (LOGIN_SLOW_BASE_MS): the first delay, doubling per further failure. The delay is a turn on the account,
 * not a pause per request: each attempt reserves the next free moment (auth_login_slot, one atomic statement, every
 * instance), so 20 guesses in parallel run one after the other, a delay apart, instead of all after one delay.
 */
export async function throttled(db: Database, keys: ThrottleKeys, slowBaseMs: number): Promise<{ refused: boolean; delayMs: number }> {
  const rows = await sql<{ key: string; n: number }>`
    SELECT key, count(*)::int AS n FROM auth_login_failure
    WHERE key IN (${keys.pair}, ${keys.email}, ${keys.ip}) AND at > now() - make_interval(mins => ${FAILURE_WINDOW_MINUTES})
    GROUP BY key`.execute(db);
  const count = (key: string) => rows.rows.find((r) => r.key === key)?.n ?? 0;
  const refused = count(keys.pair) >= MAX_FAILURES_PER_PAIR || count(keys.ip) >= MAX_FAILURES_PER_IP;
  const beyond = count(keys.email) - SLOW_AFTER_FAILURES_PER_EMAIL;
  if (refused || beyond < 0) return { refused, delayMs: 0 };
  const spacing = Math.min(slowBaseMs * 2 ** beyond, SLOW_MAX_MS);
  // clock_timestamp(), not now(): the moment of this statement, whatever transaction runs it.
  const turn = await sql<{ wait: number }>`
    INSERT INTO auth_login_slot (key, next_at) VALUES (${keys.email}, clock_timestamp() + make_interval(secs => ${spacing / 1000}))
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(auth_login_slot.next_at, clock_timestamp()) + make_interval(secs => ${spacing / 1000})
    RETURNING (extract(epoch FROM next_at - clock_timestamp()) * 1000)::float8 AS wait`.execute(db);
  return { refused, delayMs: Math.max(0, Math.ceil(turn.rows[0]!.wait)) };
}

export const THROTTLE_MESSAGE = `Troppi tentativi di accesso. Riprova tra ${FAILURE_WINDOW_MINUTES} minuti.`;

export async function recordFailure(db: Database, keys: ThrottleKeys): Promise<void> {
  await db.insertInto('auth_login_failure').values([{ key: keys.pair }, { key: keys.email }, { key: keys.ip }]).execute();
  await sql`DELETE FROM auth_login_failure WHERE at < now() - interval '1 day'`.execute(db);
  await sql`DELETE FROM auth_login_slot WHERE next_at < now() - interval '1 day'`.execute(db);
}

/** The right password clears the account's counters (not the address's, which may be guessing other accounts). */
export async function clearFailures(db: Database, keys: ThrottleKeys): Promise<void> {
  await db.deleteFrom('auth_login_failure').where('key', 'in', [keys.pair, keys.email]).execute();
  await sql`DELETE FROM auth_login_slot WHERE key = ${keys.email}`.execute(db);
}

export interface RolesFile {
  permissions: Array<{ name: string; description?: string }>;
  roles: Array<{ name: string; title: string; permissions: string[]; mfa_richiesta?: boolean }>;
}

/** The roles file is the truth: roles and grants are made to match it at every start. */
export async function syncRoles(db: Database, file: RolesFile): Promise<void> {
  // Inside a caller's transaction (a live change of the definitions) or in one of its own.
  const within = <T>(run: (trx: Database) => Promise<T>) => (db.isTransaction ? run(db) : db.transaction().execute(run));
  await within(async (trx) => {
    for (const p of file.permissions) {
      await trx.insertInto('auth_permission').values({ name: p.name, description: p.description ?? '' })
        .onConflict((oc) => oc.column('name').doUpdateSet({ description: p.description ?? '' })).execute();
    }
    for (const role of file.roles) {
      const mfa = role.mfa_richiesta === true;
      await trx.insertInto('auth_role').values({ name: role.name, title: role.title, mfa_richiesta: mfa })
        .onConflict((oc) => oc.column('name').doUpdateSet({ title: role.title, mfa_richiesta: mfa })).execute();
      await trx.deleteFrom('auth_role_permission').where('role', '=', role.name).execute();
      if (role.permissions.length) {
        await trx.insertInto('auth_role_permission').values(role.permissions.map((permission) => ({ role: role.name, permission }))).execute();
      }
    }
  });
}

// What one app instance keeps in memory (sessions, grants, settings), owned by that app and never by a module, so
// two apps in one process share nothing. Other instances' changes arrive by LISTEN app_cache (triggers of
// migration 0002 send them at commit); while that listener is down, sessions are read from the database every time.
import pg from 'pg';
import type { AuthUser } from './auth/user.ts';
import { AnchorCache } from './resources/anchors.ts';

export const CACHE_CHANNEL = 'app_cache';
/** An upper bound even with the listener up: a missed notification cannot keep a session alive longer than this. */
const SESSION_TTL_MS = 30_000;
const ROLES_TTL_MS = 30_000;
/** Settings without the listener: the bound on how late another instance's change is seen. */
const SETTING_TTL_MS = 2_000;
const MAX_SESSIONS = 10_000;
/** How long a large table's size estimate serves its list pages before pg_class is read again. */
const ESTIMATE_TTL_MS = 5_000;
const RECONNECT_MS = 1_000;

/** usedAt: the last use this instance knows of (ms), moved forward in place when this instance records a use. */
export type SessionRow = Omit<AuthUser, 'permissions'> & { roles: string[]; expiresAt: number; usedAt: number };

export class InstanceCache {
  private readonly sessions = new Map<string, { row: SessionRow; at: number }>();
  private roles?: { at: number; value: Map<string, string[]> };
  private readonly settings = new Map<string, { at: number; value: unknown }>();
  private readonly estimates = new Map<string, { at: number; value: number }>();
  /** Deep pages' anchors, per list, valid while their table's change generation holds. */
  readonly anchors = new AnchorCache();
  private client?: pg.Client;
  private closed = false;
  private retry?: NodeJS.Timeout;
  /** Writes this instance answered, and how many of them the listener is known to have caught up with. */
  private writes = 0;
  private synced = 0;
  private settling?: Promise<void>;
  /** True while notifications are being received: only then may sessions be served from memory. */
  listening = false;
  /**
   * Counts invalidations: a value read from the database is remembered only if none arrived meanwhile
   * (a logout notified while its session was being read must not be cached back).
   */
  generation = 0;

  /** A write request of this instance has committed: its own notifications may still be on their way. */
  noteWrite(): void {
    this.writes++;
  }

  /** A write of this instance may have ended sessions the listener has not heard of yet: settle() before trusting them. */
  get unsettled(): boolean {
    return this.listening && this.synced < this.writes;
  }

  /**
   * After a write of this instance, one round trip on the listening connection: PostgreSQL delivers the notifications
   * committed before a statement ahead of its answer, so the next request cannot see a session that write ended.
   */
  async settle(): Promise<void> {
    while (this.unsettled) {
      // One round trip at a time on that connection; a request arriving meanwhile waits for it, then checks again.
      if (!this.settling) {
        const target = this.writes;
        this.settling = this.client!.query('SELECT 1').then(
          () => { this.synced = Math.max(this.synced, target); },
          () => {}, // the listener is lost: 'listening' is already false and sessions are read from the database
        ).finally(() => { this.settling = undefined; });
      }
      await this.settling;
    }
  }

  session(tokenHash: string): SessionRow | undefined {
    if (!this.listening) return undefined;
    const hit = this.sessions.get(tokenHash);
    if (!hit) return undefined;
    const now = Date.now();
    if (now - hit.at > SESSION_TTL_MS || hit.row.expiresAt <= now) {
      this.sessions.delete(tokenHash);
      return undefined;
    }
    return hit.row;
  }

  rememberSession(tokenHash: string, row: SessionRow, generation: number): void {
    if (!this.listening || generation !== this.generation) return;
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    this.sessions.set(tokenHash, { row, at: Date.now() });
  }

  forgetSession(tokenHash: string): void {
    this.generation++;
    this.sessions.delete(tokenHash);
  }

  forgetUser(userId: number): void {
    for (const [key, { row }] of this.sessions) if (row.id === userId) this.sessions.delete(key);
  }

  permissionsByRole(): Map<string, string[]> | undefined {
    if (this.roles && Date.now() - this.roles.at < ROLES_TTL_MS) return this.roles.value;
    return undefined;
  }

  rememberRoles(value: Map<string, string[]>, generation: number): void {
    if (generation !== this.generation) return;
    this.roles = { at: Date.now(), value };
  }

  /** A setting's cached value ({value}), or undefined when it must be read again. */
  setting(key: string): { value: unknown } | undefined {
    const hit = this.settings.get(key);
    if (!hit) return undefined;
    // With the listener up a change evicts the entry at once; the TTL still bounds a missed one.
    if (Date.now() - hit.at > (this.listening ? 30_000 : SETTING_TTL_MS)) return undefined;
    return { value: hit.value };
  }

  rememberSetting(key: string, value: unknown, generation: number): void {
    if (generation !== this.generation) return;
    this.settings.set(key, { at: Date.now(), value });
  }

  /** A large table's row estimate (pg_class), shared by its list pages for ESTIMATE_TTL_MS: an estimate either way. */
  estimate(table: string): number | undefined {
    const hit = this.estimates.get(table);
    if (!hit || Date.now() - hit.at > ESTIMATE_TTL_MS) return undefined;
    return hit.value;
  }

  rememberEstimate(table: string, rows: number): void {
    this.estimates.set(table, { at: Date.now(), value: rows });
  }

  clear(): void {
    this.generation++;
    this.sessions.clear();
    this.settings.clear();
    this.roles = undefined;
  }

  /** Applies one notification: 'token:<hash>', 'user:<id>', 'setting:<key>', 'roles'; any other kind ('sessions') clears all. */
  invalidate(payload: string): void {
    const [kind, ...rest] = payload.split(':');
    const value = rest.join(':');
    this.generation++;
    if (kind === 'token') this.forgetSession(value);
    else if (kind === 'user') this.forgetUser(Number(value));
    else if (kind === 'setting') this.settings.delete(value);
    else if (kind === 'roles') this.roles = undefined;
    else this.clear();
  }

  /** Holds one connection of its own on LISTEN app_cache; reconnects after a loss (forgetting everything meanwhile). */
  async listen(config: pg.ClientConfig): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(config);
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.clear();
      this.client = undefined;
      client.end().catch(() => {});
      if (!this.closed) this.retry = setTimeout(() => void this.listen(config).catch(() => {}), RECONNECT_MS);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === CACHE_CHANNEL) this.invalidate(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
      // What was cached before this connection listened may have changed unseen.
      this.clear();
      this.listening = true;
    } catch (error) {
      lost();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.clear();
    await client?.end().catch(() => {});
    await this.anchors.settled();
  }
}

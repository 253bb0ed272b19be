// Per-row save queue for tables edited in place: edits merge and wait for a pause, saves of one row go out one after the other.
import type { RecordData } from '../../types.ts';

export type Patch = Record<string, unknown>;
export type RowId = string | number;

export interface SendResult {
  record: RecordData;
}

export interface RowSavesOptions {
  /** Pause after the last edit before saving (spec 000 §7: 1000 ms for mandate rows). */
  delay: number;
  /** Sends one patch with the version the row has on the server. */
  send: (id: RowId, patch: Patch, version: number | undefined) => Promise<SendResult>;
  onSaved?: (id: RowId, record: RecordData, patch: Patch) => void;
  onError?: (id: RowId, error: unknown, patch: Patch) => void;
  /** Errors after which the row's later saves still make sense (a 422 leaves the version as it was). */
  keepsVersion?: (error: unknown) => boolean;
}

interface RowState {
  /** Edits waiting for the pause. */
  pending?: Patch;
  timer?: ReturnType<typeof setTimeout>;
  /** Patches due, in order, not sent yet. */
  queue: Patch[];
  sending: boolean;
  version?: number;
  /** The user's latest values not yet confirmed by a save: an answer to an older save must not undo them. */
  unconfirmed: Patch;
}

export class RowSaves {
  private rows = new Map<RowId, RowState>();

  constructor(private readonly options: RowSavesOptions) {}

  private state(id: RowId): RowState {
    let row = this.rows.get(id);
    if (!row) {
      row = { queue: [], sending: false, unconfirmed: {} };
      this.rows.set(id, row);
    }
    return row;
  }

  private busy(row: RowState): boolean {
    return row.sending || row.queue.length > 0 || Boolean(row.pending);
  }

  /**
   * The version a (re)loaded row has on the server; ignored while the row has saves of its own under way,
   * unless `force` (the row was reloaded after a failed save, and what waits now applies to that version).
   */
  setVersion(id: RowId, version: number | undefined, options: { force?: boolean } = {}): void {
    const row = this.state(id);
    if (options.force || !this.busy(row)) row.version = version;
  }

  /**
   * Records an edit. Typing waits for the pause; an `immediate` edit (a toggle) first queues what is pending,
   * then itself, so the server sees them in order (a commission is changed before the row is switched off).
   */
  edit(id: RowId, patch: Patch, options: { immediate?: boolean } = {}): void {
    const row = this.state(id);
    row.unconfirmed = { ...row.unconfirmed, ...patch };
    if (options.immediate) {
      this.flush(id);
      row.queue.push({ ...patch });
      this.pump(id);
      return;
    }
    row.pending = { ...row.pending, ...patch };
    clearTimeout(row.timer);
    row.timer = setTimeout(() => this.flush(id), this.options.delay);
  }

  hasPending(id?: RowId): boolean {
    const rows = id === undefined ? [...this.rows.values()] : [this.rows.get(id)].filter((r): r is RowState => Boolean(r));
    return rows.some((row) => this.busy(row));
  }

  /** Drops what waits for a row (it is being deleted). */
  cancel(id: RowId): void {
    const row = this.rows.get(id);
    if (!row) return;
    clearTimeout(row.timer);
    row.pending = undefined;
    row.queue = [];
    row.unconfirmed = {};
  }

  /** Queues the row's pending edit now instead of after the pause. */
  flush(id: RowId): void {
    const row = this.state(id);
    clearTimeout(row.timer);
    if (row.pending) row.queue.push(row.pending);
    row.pending = undefined;
    this.pump(id);
  }

  private pump(id: RowId): void {
    const row = this.state(id);
    if (row.sending) return;
    const patch = row.queue.shift();
    if (!patch) return;
    row.sending = true;
    this.options
      .send(id, patch, row.version)
      .then(({ record }) => {
        if (typeof record.version === 'number') row.version = record.version;
        this.saved(id, row, record, patch);
      })
      .catch((error: unknown) => {
        // After a conflict the later patches carry a stale version: the screen reloads the row instead.
        if (!this.options.keepsVersion?.(error)) {
          row.queue = [];
          row.unconfirmed = {};
        }
        this.options.onError?.(id, error, patch);
      })
      .finally(() => {
        row.sending = false;
        this.pump(id);
      });
  }

  /** Reports a save with the values typed since laid over the server's answer. */
  private saved(id: RowId, row: RowState, record: RecordData, patch: Patch): void {
    for (const [field, value] of Object.entries(patch)) if (row.unconfirmed[field] === value) delete row.unconfirmed[field];
    this.options.onSaved?.(id, { ...record, ...row.unconfirmed }, patch);
  }

  /**
   * Sends everything that waits. When the page is going away (`unloading`) nothing can wait for an answer:
   * each patch leaves at once with the version it will meet, one more for every save ahead of it.
   */
  flushAll(options: { unloading?: boolean } = {}): void {
    for (const [id, row] of this.rows) {
      if (!options.unloading) {
        this.flush(id);
        continue;
      }
      clearTimeout(row.timer);
      const patches = [...row.queue, ...(row.pending ? [row.pending] : [])];
      row.queue = [];
      row.pending = undefined;
      const base = row.version === undefined ? undefined : row.version + (row.sending ? 1 : 0);
      patches.forEach((patch, i) => {
        void this.options
          .send(id, patch, base === undefined ? undefined : base + i)
          .then(({ record }) => this.saved(id, row, record, patch))
          .catch((error: unknown) => this.options.onError?.(id, error, patch));
      });
    }
  }

  /** Resolves once no row has anything pending, queued or in flight (tests, and callers that must wait). */
  async settled(): Promise<void> {
    while ([...this.rows.values()].some((row) => row.sending || row.queue.length > 0)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

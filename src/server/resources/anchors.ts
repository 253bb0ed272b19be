// Page anchors: every K-th row of a list in its order (its sort values and id; K 25, more for a list of over 250 000
// rows so it keeps at most 10 000), read in one walk of the (column, id) index and kept by the instance while the
// table's change generation (db/list-generation.ts) stays where it was. A page by number then seeks after the anchor before
// it and skips fewer than K rows, at any depth and either end. The walk is made once per generation and list, beside
// the requests: until it ends, pages skip their offset.
import type { KeyValue } from './keyset.ts';

export interface Anchors {
  /** The table's change generation the walk saw (same snapshot). */
  generation: number;
  /** How many rows the list has: exact, so the pager's total is too. */
  rows: number;
  /** Rows between anchors: the most a page skips. */
  every: number;
  /** keys[i]: the sort values of row (i + 1) * every, in the list's order. */
  keys: KeyValue[][];
}

export class AnchorCache {
  private readonly entries = new Map<string, Anchors>();
  private readonly building = new Map<string, Promise<void>>();

  private readonly walks = new Map<string, { ended: number; took: number }>();

  /** `capacity`: lists kept, the least recently used dropped; `now`: the clock (ms). */
  constructor(private readonly capacity = 32, private readonly now: () => number = () => performance.now()) {}

  /** The anchors last walked for `list`, whatever their generation (the caller checks it). */
  peek(list: string): Anchors | undefined {
    const kept = this.entries.get(list);
    if (kept) {
      this.entries.delete(list);
      this.entries.set(list, kept);
    }
    return kept;
  }

  /**
   * The anchors of `list` at `generation`, or undefined while they are walked again (once, however many ask): the
   * page then skips its offset as before, and no request waits for a walk of the whole list after each write.
   */
  anchors(list: string, generation: number, walk: () => Promise<Anchors>): Anchors | undefined {
    const kept = this.peek(list);
    if (kept && kept.generation === generation) return kept;
    const last = this.walks.get(list);
    // A table written all day would otherwise be walked after every write: at most a tenth of the time per list.
    if (!this.building.has(list) && !(last && this.now() - last.ended < 10 * last.took)) {
      const started = this.now();
      const built = walk().then((anchors) => {
        this.entries.delete(list);
        if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(list, anchors);
      }, () => {
        // A walk that failed (the app closing, a statement timeout) is tried again by the next deep page.
      }).finally(() => {
        this.building.delete(list);
        if (this.walks.size >= 4 * this.capacity) this.walks.delete(this.walks.keys().next().value!);
        this.walks.set(list, { ended: this.now(), took: this.now() - started });
      });
      this.building.set(list, built);
    }
    return undefined;
  }

  /** Once every walk under way has ended (the app waits for them before closing its pool). */
  async settled(): Promise<void> {
    while (this.building.size) await Promise.all(this.building.values());
  }

  /** Where a page at `offset` starts: after the anchor at or before it, skipping what is left (no anchor: from the start). */
  static seek(anchors: Anchors, offset: number): { after?: KeyValue[]; skip: number } {
    const index = Math.min(Math.floor(offset / anchors.every), anchors.keys.length);
    if (index === 0) return { skip: offset };
    return { after: anchors.keys[index - 1]!, skip: offset - index * anchors.every };
  }
}

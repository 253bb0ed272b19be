// The page anchors' cache: where a page starts from them, one walk however many ask, and nothing stale served.
import { describe, expect, it } from 'vitest';
import { AnchorCache, type Anchors } from '../../src/server/resources/anchors.ts';

const anchorsAt = (generation: number): Anchors => ({ generation, rows: 25, every: 10, keys: [['B', 10], ['D', 20]] });

describe('page anchors', () => {
  it('a page starts after the anchor at or before its offset and skips the rest', () => {
    const anchors = anchorsAt(1);
    expect(AnchorCache.seek(anchors, 0)).toEqual({ skip: 0 });
    expect(AnchorCache.seek(anchors, 9)).toEqual({ skip: 9 });
    // Row 10 (1-based) is the first anchor: offset 10 is the row after it.
    expect(AnchorCache.seek(anchors, 10)).toEqual({ after: ['B', 10], skip: 0 });
    expect(AnchorCache.seek(anchors, 17)).toEqual({ after: ['B', 10], skip: 7 });
    expect(AnchorCache.seek(anchors, 24)).toEqual({ after: ['D', 20], skip: 4 });
    // Past the last anchor the last one serves, skipping further (an empty page beyond the end).
    expect(AnchorCache.seek(anchors, 40)).toEqual({ after: ['D', 20], skip: 20 });
  });

  it('walks once however many ask, serves only the generation walked, and walks again after a change', async () => {
    let clock = 0;
    const cache = new AnchorCache(32, () => clock);
    let walks = 0;
    const walk = (generation: number) => async () => {
      walks++;
      return anchorsAt(generation);
    };
    expect(cache.anchors('l', 1, walk(1))).toBeUndefined();
    expect(cache.anchors('l', 1, walk(1))).toBeUndefined();
    await cache.settled();
    expect(walks).toBe(1);
    expect(cache.anchors('l', 1, walk(1))?.generation).toBe(1);
    // A write moved the generation: the kept anchors are not served, and are walked again.
    clock += 1;
    expect(cache.anchors('l', 2, walk(2))).toBeUndefined();
    await cache.settled();
    expect(walks).toBe(2);
    expect(cache.peek('l')?.generation).toBe(2);
  });

  it('walks a list again only after ten times its last walk has passed', async () => {
    let clock = 0;
    const cache = new AnchorCache(32, () => clock);
    let walks = 0;
    const walk = (generation: number) => async () => {
      walks++;
      clock += 50; // the walk takes 50 ms
      return anchorsAt(generation);
    };
    cache.anchors('l', 1, walk(1));
    await cache.settled();
    clock += 100;
    expect(cache.anchors('l', 2, walk(2))).toBeUndefined();
    await cache.settled();
    expect(walks).toBe(1);
    clock += 400;
    cache.anchors('l', 2, walk(2));
    await cache.settled();
    expect([walks, cache.peek('l')?.generation]).toEqual([2, 2]);
  });

  it('a walk that fails leaves nothing kept and is tried again', async () => {
    let clock = 0;
    const cache = new AnchorCache(32, () => clock);
    expect(cache.anchors('l', 1, async () => { throw new Error('chiusa'); })).toBeUndefined();
    await cache.settled();
    expect(cache.peek('l')).toBeUndefined();
    clock += 1;
    cache.anchors('l', 1, async () => anchorsAt(1));
    await cache.settled();
    expect(cache.peek('l')?.generation).toBe(1);
  });

  it('keeps its capacity, dropping the list used least recently', async () => {
    const cache = new AnchorCache(2);
    for (const list of ['a', 'b']) cache.anchors(list, 1, async () => anchorsAt(1));
    await cache.settled();
    cache.peek('a');
    cache.anchors('c', 1, async () => anchorsAt(1));
    await cache.settled();
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')].map(Boolean)).toEqual([true, false, true]);
  });
});

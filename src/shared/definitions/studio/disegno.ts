// Where the studio's workflow diagram puts things: each state's box (column = BFS depth, see schemaFlusso), one line per
// pair of states, each event's label at its line's middle or the nearest free place: deterministic, and no label covers
// a box or another label.
import type { Arco, Nodo, Schema } from './flussi.ts';

export const COL = 330;
export const ROW = 150;
export const W = 190;
export const H = 58;
export const M = 30;

export const xy = (n: Nodo) => ({ x: M + n.colonna * COL, y: M + n.riga * ROW });

/** One arrow: forward ones run right side to left side; the others bend around, each at its own height. */
function path(da: Nodo, a: Nodo, k: number): { d: string; lx: number; ly: number } {
  const p = xy(da);
  const q = xy(a);
  if (a.colonna > da.colonna) {
    const x1 = p.x + W;
    const y1 = p.y + H / 2;
    const x2 = q.x;
    const y2 = q.y + H / 2;
    const mx = (x1 + x2) / 2;
    return { d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2 - 2},${y2}`, lx: mx, ly: (y1 + y2) / 2 };
  }
  // Backwards or in the same column: from the bottom of one box to the bottom of the other, bowing below.
  const x1 = p.x + W / 2 + 12;
  const y1 = p.y + H;
  const x2 = q.x + W / 2 - 12;
  const y2 = q.y + H;
  const bow = 40 + (k % 4) * 12;
  const ym = Math.max(y1, y2) + bow;
  return { d: `M${x1},${y1} C${x1},${ym} ${x2},${ym} ${x2},${y2 + 2}`, lx: (x1 + x2) / 2, ly: ym - bow / 4 };
}

export interface Box { x: number; y: number; w: number; h: number }
export const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Where each arrow's label goes: at its arrow's middle, else the nearest free place above or below (labels and boxes
 * never overlap), in the machine's order: the same machine is always drawn the same way.
 */
function placeLabels(archi: Arco[], anchors: Map<string, { lx: number; ly: number }>, nodi: Nodo[]): Map<string, Box> {
  const taken: Box[] = nodi.map((n) => ({ ...xy(n), w: W, h: H }));
  const out = new Map<string, Box>();
  for (const arco of archi) {
    const anchor = anchors.get(arco.id);
    if (!anchor) continue;
    const w = Math.max(arco.etichetta.length * 6.6, arco.guardia ? (arco.guardia.length + 2) * 5.6 : 0) + 6;
    const h = arco.guardia ? 28 : 16;
    let placed: Box | undefined;
    for (let step = 0; step < 400 && !placed; step++) {
      const dy = (step % 2 ? 1 : -1) * Math.ceil(step / 2) * 8;
      const box = { x: anchor.lx - w / 2, y: anchor.ly - h / 2 + dy, w, h };
      if (box.y > 2 && box.x > 2 && !taken.some((t) => overlaps(t, box))) placed = box;
    }
    placed ??= { x: anchor.lx - w / 2, y: anchor.ly - h / 2, w, h };
    taken.push(placed);
    out.set(arco.id, placed);
  }
  return out;
}

export interface Freccia {
  arco: Arco;
  /** The line, drawn once for the arrows between the same two states. */
  d?: string;
  anchor: { lx: number; ly: number };
  box: Box;
}

export function disegnoFlusso(schema: Schema): { frecce: Freccia[]; width: number; height: number } {
  const byState = new Map(schema.nodi.map((n) => [n.stato, n]));
  const archi = schema.archi.filter((a) => byState.has(a.a));
  const paths = new Map<string, { d?: string; lx: number; ly: number }>();
  const pairs = new Map<string, { d: string; lx: number; ly: number }>();
  for (const arco of archi) {
    const pair = `${arco.da}>${arco.a}`;
    const first = !pairs.has(pair);
    if (first) pairs.set(pair, path(byState.get(arco.da)!, byState.get(arco.a)!, pairs.size));
    paths.set(arco.id, { ...pairs.get(pair)!, d: first ? pairs.get(pair)!.d : undefined });
  }
  const labels = placeLabels(archi, paths, schema.nodi);
  const width = Math.max(M * 2 + (Math.max(0, ...schema.nodi.map((n) => n.colonna)) * COL) + W, ...[...labels.values()].map((b) => b.x + b.w + M));
  const height = Math.max(M * 2 + Math.max(1, ...schema.nodi.map((n) => n.riga + 1)) * ROW + 40, ...[...labels.values()].map((b) => b.y + b.h + M));
  return { frecce: archi.map((arco) => ({ arco, d: paths.get(arco.id)!.d, anchor: paths.get(arco.id)!, box: labels.get(arco.id)! })), width, height };
}

// Self and total time per function of a V8 .cpuprofile (node --cpu-prof), heaviest first: where a request's time goes.
import { readFileSync } from 'node:fs';

// PER=<requests profiled>: also each line's time per request (µs), from the profile's own sampling interval.
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[]; hitCount: number }
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: Node[]; startTime: number; endTime: number; samples: number[] };
const per = Number(process.env.PER) || 0;
const sampleUs = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/src\//, 'src/')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
const walk = (n: Node, stack: Set<string>): number => {
  let sum = n.hitCount;
  for (const c of n.children ?? []) sum += walk(byId.get(c)!, new Set([...stack, label(n)]));
  const key = label(n);
  self.set(key, (self.get(key) ?? 0) + n.hitCount);
  if (!stack.has(key)) total.set(key, (total.get(key) ?? 0) + sum);
  return sum;
};
all = walk(profile.nodes[0]!, new Set());
// Shares are of the busy samples: how idle the thread was depends on the load, not on the code.
const idleNodes = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)');
const idle = idleNodes.reduce((sum, n) => sum + n.hitCount, 0);
console.log(`${all} samples, ${((idle / all) * 100).toFixed(1)}% idle; shares below are of the ${all - idle} busy samples`);
for (const n of idleNodes) {
  self.delete(label(n));
  total.delete(label(n));
}
total.set('(root) :0', all - idle);
all -= idle;
const filter = process.argv[3] ? new RegExp(process.argv[3]) : undefined;
const show = (title: string, map: Map<string, number>) => {
  console.log(title);
  for (const [k, v] of [...map].filter(([k]) => !filter || filter.test(k)).sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP) || 30)) {
    const us = per ? `${((v * sampleUs) / per).toFixed(1).padStart(7)} µs/req  ` : '';
    console.log(`${((v / all) * 100).toFixed(1).padStart(5)}%  ${us}${k}`);
  }
};
show('self', self);
show('total', total);
// Self time by where the code lives (a package, a folder of src/, Node's own, a native call such as writev): which layer costs.
const area = (n: Node) => {
  const url = n.callFrame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src|scripts)\/(.*\/)?/.exec(url);
  if (own) return `${own[1]}/${own[2] ?? ''}`;
  if (url.startsWith('node:')) return 'node internals';
  return url ? url : `native ${n.callFrame.functionName}`;
};
const byArea = new Map<string, number>();
for (const n of profile.nodes) if (n.callFrame.functionName !== '(idle)') byArea.set(area(n), (byArea.get(area(n)) ?? 0) + n.hitCount);
show('self by area', byArea);

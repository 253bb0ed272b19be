// V8 settings of a server process: applied by the entry point (main.ts) and by the benchmarks that run the app in-process.
import v8 from 'node:v8';

/**
 * No allocation-site pretenuring. After a large result set V8 allocates pg's row objects straight in the old generation;
 * a single-row read then keeps its values (strings, dates) alive through two scavenges into it, about 1 KB per get by id.
 * Scavenges took 1.1 ms instead of 0.6 ms, and the old generation filled towards a mark-compact (3-8 ms) every ~20 s.
 */
export function tuneRuntime(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}

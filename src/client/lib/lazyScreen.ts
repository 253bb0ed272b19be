// Lazy screens that fail loudly: a chunk that cannot be fetched, or is still not there after the timeout of
// spec 002 §8 (120 000 ms), becomes the error 'Loading chunk failed', which the route's error page shows with a reload.
import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

export const CHUNK_TIMEOUT_MS = 120_000;
export const CHUNK_FAILED = 'Loading chunk failed';

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super(CHUNK_FAILED, { cause });
    this.name = 'ChunkLoadError';
  }
}

/** The timeout in force: the spec's, unless a test shortened it (window.__chunkTimeoutMs, set before the app starts). */
function timeoutMs(): number {
  const override = (globalThis as { __chunkTimeoutMs?: unknown }).__chunkTimeoutMs;
  return typeof override === 'number' && override > 0 ? override : CHUNK_TIMEOUT_MS;
}

/** An import that settles within the timeout, or fails as ChunkLoadError. */
export function loadChunk<T>(factory: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), timeoutMs());
    factory().then(
      (module) => (clearTimeout(timer), resolve(module)),
      (error: unknown) => (clearTimeout(timer), reject(new ChunkLoadError(error))),
    );
  });
}

/** React.lazy with the chunk timeout and the failure the error page recognises. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyScreen<T extends ComponentType<any>>(factory: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => loadChunk(factory));
}

export function isChunkError(error: unknown): boolean {
  return error instanceof ChunkLoadError || (error instanceof Error && /Loading chunk|dynamically imported module|Importing a module script failed/i.test(error.message));
}

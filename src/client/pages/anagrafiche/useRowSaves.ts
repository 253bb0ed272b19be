// React side of RowSaves: one queue per table, flushed when the table unmounts (navigation) and when the page unloads.
import { useEffect, useRef } from 'react';
import { isApiError, update } from '../../api/dataProvider.ts';
import type { ResourceConfig } from '../../types.ts';
import { RowSaves } from './rowSaves.ts';
import type { Patch, RowId, RowSavesOptions, SendResult } from './rowSaves.ts';

/**
 * PUT of a patch with the row's version through the data provider. Every save is keepalive, so one
 * already on its way still reaches the server when the user reloads or closes the tab.
 */
export function putPatch(resource: ResourceConfig) {
  return async (id: RowId, patch: Patch, version: number | undefined): Promise<SendResult> => {
    const body = version === undefined ? patch : { ...patch, version };
    const saved = await update(resource, id, body, { keepalive: true });
    return { record: (saved.data?.model ?? saved.data ?? {}) as SendResult['record'] };
  };
}

/** A refused value (422) leaves the record's version unchanged, so the row's later saves still apply. */
const keepsVersion = (error: unknown) => isApiError(error, 'VALIDATION');

export function useRowSaves(options: Omit<RowSavesOptions, 'keepsVersion'>): RowSaves {
  // Callbacks change on every render; the queue keeps calling the latest ones.
  const latest = useRef(options);
  latest.current = options;
  const queue = useRef<RowSaves | null>(null);
  if (!queue.current) {
    queue.current = new RowSaves({
      delay: options.delay,
      keepsVersion,
      send: (...args) => latest.current.send(...args),
      onSaved: (...args) => latest.current.onSaved?.(...args),
      onError: (...args) => latest.current.onError?.(...args),
    });
  }
  useEffect(() => {
    const saves = queue.current!;
    // No edit is lost when the user reloads or closes the tab before the pause ends.
    const onLeave = () => saves.flushAll({ unloading: true });
    window.addEventListener('beforeunload', onLeave);
    window.addEventListener('pagehide', onLeave);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      window.removeEventListener('pagehide', onLeave);
      // Leaving the screen inside the app: what waits goes now (the app stays, so answers still arrive).
      saves.flushAll();
    };
  }, []);
  return queue.current;
}

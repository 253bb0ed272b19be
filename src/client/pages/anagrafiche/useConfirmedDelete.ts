// Delete-after-confirm for the rows of a tab table: the row asked about, the busy flag, the notice, the reload.
import { useState } from 'react';
import { remove } from '../../api/dataProvider.ts';
import { useNotify } from '../../lib/notify.tsx';
import { msg } from '../../messages.ts';
import type { ResourceConfig } from '../../types.ts';

/** Call it before any early return (it is a hook); `resource` may be missing while the user lacks the permission. */
export function useConfirmedDelete<Row>(resource: ResourceConfig | undefined, idOf: (row: Row) => number, done: string, reload: () => Promise<unknown>, before?: (row: Row) => void) {
  const notify = useNotify();
  const [toDelete, setToDelete] = useState<Row | null>(null);
  const [deleting, setDeleting] = useState(false);
  const confirmDelete = async () => {
    if (!toDelete || !resource) return;
    setDeleting(true);
    try {
      before?.(toDelete);
      const result = await remove(resource, idOf(toDelete));
      notify('success', result.message || done);
      setToDelete(null);
      await reload();
    } catch (err) {
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    } finally {
      setDeleting(false);
    }
  };
  return { toDelete, setToDelete, deleting, confirmDelete };
}

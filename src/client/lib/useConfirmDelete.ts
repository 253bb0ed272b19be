// Delete after a confirmation, for every table: the row asked about, the busy flag, the notice, and the
// readers of the resource revalidated through the data layer (useMutation).
import { useState } from 'react';
import { remove } from '../api/dataProvider.ts';
import { useMutation } from '../api/hooks.ts';
import { useNotify } from './notify.tsx';
import { msg } from '../messages.ts';
import type { ResourceConfig } from '../types.ts';
import type { ConfirmDialogProps } from './ConfirmDialog.tsx';

export interface ConfirmDeleteOptions<Row> {
  /** Success notice when the server sends no message. */
  done: string;
  /** The question, naming the row. */
  question: (row: Row) => string;
  /** Before the call (e.g. drop the row's pending saves). */
  before?: (row: Row) => void;
  /** After the server deleted it (e.g. drop the row from local state). */
  after?: (row: Row) => void;
}

/** Call it before any early return (it is a hook); `resource` may be missing while the user lacks the permission. */
export function useConfirmDelete<Row>(resource: ResourceConfig | undefined, idOf: (row: Row) => string | number, options: ConfirmDeleteOptions<Row>) {
  const notify = useNotify();
  const { run, busy } = useMutation(resource);
  const [toDelete, setToDelete] = useState<Row | null>(null);
  const confirm = async () => {
    if (toDelete === null || !resource) return;
    const row = toDelete;
    try {
      options.before?.(row);
      const result = await run(() => remove(resource, idOf(row)));
      options.after?.(row);
      notify('success', result.message || options.done);
      setToDelete(null);
    } catch (err) {
      // A refusal closes the question: the server's message says why, and asking again would change nothing.
      setToDelete(null);
      notify('danger', err instanceof Error ? err.message : msg.genericError);
    }
  };
  /** Spread on <ConfirmDialog>. */
  const dialog: ConfirmDialogProps = {
    show: toDelete !== null,
    title: msg.confirmDelete,
    text: toDelete !== null ? options.question(toDelete) : '',
    confirmLabel: 'Elimina',
    busy,
    onConfirm: () => void confirm(),
    onCancel: () => setToDelete(null),
  };
  return { ask: setToDelete, toDelete, deleting: busy, dialog };
}

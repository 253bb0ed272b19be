// The list's filters and search as the generic list holds them in the URL, for a toolbar action that works on what the user sees.
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { readListState } from '../../renderer/listParams.ts';
import type { ResourceDef } from '../../types.ts';

export function useListaCorrente(def: ResourceDef) {
  const [query] = useSearchParams();
  return useMemo(() => {
    const state = readListState(query, def.list);
    return { search: state.search, filters: state.filters };
  }, [query, def.list]);
}

/** Opens a downloaded file in a new tab (a PDF to print) or saves it (CSV, XLSX). */
export function apriFile(file: { blob: Blob; filename?: string }, save: boolean): void {
  const url = URL.createObjectURL(file.blob);
  if (save) {
    const a = document.createElement('a');
    a.href = url;
    a.download = file.filename ?? 'export';
    a.click();
  } else window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

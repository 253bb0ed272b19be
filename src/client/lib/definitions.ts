// Definitions of the logged-in user (resources, menu) from GET /api/definitions, cached by SWR.
import { useEffect } from 'react';
import useSWR from 'swr';
import { api, onDefinitionsChanged } from '../api/dataProvider.ts';
import type { DefinitionsPayload, ResourceDef } from '../types.ts';

export const DEFINITIONS_KEY = '/api/definitions';

export function useDefinitions() {
  const { data, error, isLoading, mutate } = useSWR<DefinitionsPayload>(DEFINITIONS_KEY, () => api.definitions(), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  // A change applied live on the server: the data layer reloads them before the next write.
  useEffect(() => {
    onDefinitionsChanged(() => mutate());
  }, [mutate]);
  return { definitions: data, error: error as Error | undefined, isLoading, reload: mutate };
}

export function findResource(definitions: DefinitionsPayload | undefined, name: string): ResourceDef | undefined {
  return definitions?.resources.find((r) => r.name === name);
}

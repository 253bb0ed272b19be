// Definitions of the logged-in user (resources, menu) from GET /api/definitions, cached by SWR.
import useSWR from 'swr';
import { api } from '../api/dataProvider.ts';
import type { DefinitionsPayload, ResourceDef } from '../types.ts';

export const DEFINITIONS_KEY = '/api/definitions';

export function useDefinitions() {
  const { data, error, isLoading, mutate } = useSWR<DefinitionsPayload>(DEFINITIONS_KEY, () => api.definitions(), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  return { definitions: data, error: error as Error | undefined, isLoading, reload: mutate };
}

export function findResource(definitions: DefinitionsPayload | undefined, name: string): ResourceDef | undefined {
  return definitions?.resources.find((r) => r.name === name);
}

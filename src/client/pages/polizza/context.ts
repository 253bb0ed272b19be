// The policy form's current values, for widgets inside it that depend on other fields (the product filtered by branch, company and supplier).
import { createContext, useContext } from 'react';
import type { RecordData } from '../../types.ts';

export const PolizzaFormData = createContext<RecordData>({});

export function usePolizzaFormData(): RecordData {
  return useContext(PolizzaFormData);
}

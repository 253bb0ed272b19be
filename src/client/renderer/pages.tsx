// The page registry as the renderer receives it: the app provides a look-up of named custom pages (src/client/pages/registry.ts)
// through context, so the generic renderer never imports a page.
import { createContext, useContext } from 'react';
import type { ComponentType } from 'react';
import type { RecordData, ResourceDef } from '../types.ts';

export interface CustomPageProps {
  def: ResourceDef;
  /** Record id in edit mode; undefined while adding. */
  id?: string;
  record?: RecordData;
  /** The page changed records its host shows (a list toolbar action refreshes the list). */
  onChanged?: () => void;
}

export type PageLookup = (name: string) => ComponentType<CustomPageProps> | undefined;

const PagesContext = createContext<PageLookup>(() => undefined);

export const PagesProvider = PagesContext.Provider;

/** The named pages definitions refer to ("ui:page", a tab's "page", "ui:listActions"). */
export function usePages(): PageLookup {
  return useContext(PagesContext);
}

// Named custom pages that definitions reference ("ui:page", or a tab's "page") for screens the generic form cannot draw.
import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';
import type { RecordData, ResourceDef } from '../types.ts';

export interface CustomPageProps {
  def: ResourceDef;
  /** Record id in edit mode; undefined while adding. */
  id?: string;
  record?: RecordData;
}

type Page = LazyExoticComponent<ComponentType<CustomPageProps>>;

/** Register pages here by name, lazily, so their code loads only on their routes. */
export const customPages: Readonly<Record<string, Page>> = {
  // Historic-car quotation management (spec 001 §2), also the direct quotation screen.
  quotazione: lazy(() => import('./quotazione/QuotazionePage.tsx')),
};

export function customPage(name: string): Page | undefined {
  return Object.prototype.hasOwnProperty.call(customPages, name) ? customPages[name] : undefined;
}

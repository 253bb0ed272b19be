// Named custom pages that definitions reference ("ui:page", a tab's "page", "ui:listActions") for screens the generic renderer cannot draw.
// Lazy with the chunk timeout of spec 002 §8 and a loud failure.
import { lazyScreen as lazy } from '../lib/lazyScreen.ts';
import type { ComponentType, LazyExoticComponent } from 'react';
import type { CustomPageProps } from '../renderer/pages.tsx';
import type { DashboardCard } from '../types.ts';

export type { CustomPageProps };

type Page = LazyExoticComponent<ComponentType<CustomPageProps>>;

/** Register pages here by name, lazily, so their code loads only on their routes. */
export const customPages: Readonly<Record<string, Page>> = {
  // Master data (spec 000 §2.6-§2.9): supplier's mandate products, collaborator tabs, historic-car model import.
  'prodotti-mandato': lazy(() => import('./anagrafiche/ProdottiMandato.tsx')),
  'collaboratore-clienti': lazy(() => import('./anagrafiche/ClientiCollaboratore.tsx')),
  'collaboratore-provvigioni': lazy(() => import('./anagrafiche/ProvvigioniCollaboratore.tsx')),
  'collaboratore-prodotti': lazy(() => import('./anagrafiche/ProdottiAssegnati.tsx')),
  'importa-modelli': lazy(() => import('./anagrafiche/ImportaModelli.tsx')),
  // Historic-car quotation management (spec 001 §2), also the direct quotation screen.
  quotazione: lazy(() => import('./quotazione/QuotazionePage.tsx')),
  // Motor-liability fast quotation stepper (spec 002 §2.4).
  quotazioni_rca: lazy(() => import('./rca/QuotazioneRcaPage.tsx')),
  // Policy form with commission panel, titles and payments (spec 002 §2.3).
  polizza: lazy(() => import('./polizza/PolizzaPage.tsx')),
  // Finance desks of the dashboard (issue 18): toolbar actions of their generic lists.
  'registra-incasso': lazy(() => import('./finanza/RegistraIncasso.tsx')),
  'storna-incasso': lazy(() => import('./finanza/StornaIncasso.tsx')),
  'riepilogo-estratto-conto': lazy(() => import('./finanza/Riepilogo.tsx').then((m) => ({ default: m.RiepilogoEstrattoConto }))),
  'riepilogo-provvigionale': lazy(() => import('./finanza/Riepilogo.tsx').then((m) => ({ default: m.RiepilogoProvvigionale }))),
};

/** The dashboard cards' own pages ("page" in schemas/_shared/dashboard.json), for desks no single resource lists. */
export interface DeskPageProps {
  card: DashboardCard;
}

export const deskPages: Readonly<Record<string, LazyExoticComponent<ComponentType<DeskPageProps>>>> = {
  'track-gestione-documenti': lazy(() => import('./documenti/TrackGestioneDocumenti.tsx')),
  'gestione-documenti': lazy(() => import('./documenti/GestioneDocumenti.tsx')),
  storico: lazy(() => import('./storico/StoricoDesk.tsx')),
  pianificazioni: lazy(() => import('./pianificazioni/Pianificazioni.tsx')),
  studio: lazy(() => import('./studio/Studio.tsx')),
};

export function deskPage(name: string) {
  return Object.prototype.hasOwnProperty.call(deskPages, name) ? deskPages[name] : undefined;
}

export function customPage(name: string): Page | undefined {
  return Object.prototype.hasOwnProperty.call(customPages, name) ? customPages[name] : undefined;
}

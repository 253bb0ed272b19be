// Cards of the dashboard (spec 002 §2.1), declared in schemas/_shared/dashboard.json and sent by /api/definitions.
import { matchResource } from './menu.ts';
import { can } from '../lib/access.ts';
import { can as hasGrant } from '../api/session.ts';
import type { DashboardCard, ResourceDef } from '../types.ts';

export type { DashboardCard };

/** A card shows when its permission holds and, when a resource lists at its route, that list may be opened. */
export function visibleCards(cards: DashboardCard[] | undefined, resources: ResourceDef[]): DashboardCard[] {
  return (cards ?? []).filter((card) => {
    if (!hasGrant(card.permission)) return false;
    const found = matchResource(resources, card.route);
    return found ? found.mode === 'list' && can(found.def, 'list') : true;
  });
}

/** The card whose page is this path, if any. */
export function cardAt(cards: DashboardCard[] | undefined, pathname: string): DashboardCard | undefined {
  return (cards ?? []).find((card) => card.route === pathname);
}

// Which of the tabs a resource declares (resource.json "related") this user may open; kept apart from the tabs' panes
// (RelatedTabs.tsx), which load the list grid only when a tab opens.
import { useMemo } from 'react';
import { can } from '../lib/access.ts';
import { findResource, useDefinitions } from '../lib/definitions.ts';
import type { ResourceDef } from '../types.ts';
import type { RelatedTab } from '../../shared/definitions/types.ts';

/** The declared tabs this user may open, with the resource each list tab shows. */
export function useRelatedTabs(def: ResourceDef): Array<{ tab: RelatedTab; target?: ResourceDef }> {
  const { definitions } = useDefinitions();
  return useMemo(
    () =>
      (def.resource.related ?? []).flatMap((tab) => {
        if ((tab.kind ?? 'list') !== 'list') return [{ tab }];
        const target = findResource(definitions, tab.resource!);
        // The server would refuse the list: the tab is not offered.
        return target && can(target, 'list') ? [{ tab, target }] : [];
      }),
    [def, definitions],
  );
}


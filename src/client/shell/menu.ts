// Pure helpers of the shell: which menu entries show, and which resource screen a path opens.
import { matchPath } from 'react-router-dom';
import type { MenuEntry, ResourceDef } from '../types.ts';

/** Entries the server sent, filtered again on the client; no permission means hidden (deny by default). */
export function visibleMenu(menu: MenuEntry[] | undefined, allowed: (permission: string, entry: MenuEntry) => boolean): MenuEntry[] {
  return [...(menu ?? [])].filter((entry) => allowed(entry.permission, entry)).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

export interface ResourceMatch {
  def: ResourceDef;
  mode: 'list' | 'new' | 'edit';
  id?: string;
}

/** list, new and edit paths of every resource, with their aliases, in definition order. */
export function matchResource(resources: ResourceDef[], pathname: string): ResourceMatch | undefined {
  const modes = ['list', 'new', 'edit'] as const;
  for (const def of resources) {
    const routes = def.resource.routes ?? {};
    for (const mode of modes) {
      const route = routes[mode];
      for (const path of route ? [route.path, ...(route.aliases ?? [])] : []) {
        const found = matchPath({ path, end: true }, pathname);
        if (!found) continue;
        if (mode !== 'edit') return { def, mode };
        if (found.params.id) return { def, mode, id: found.params.id };
      }
    }
  }
  return undefined;
}

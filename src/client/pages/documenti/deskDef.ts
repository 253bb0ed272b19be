// The documents desks as definitions the generic list draws (desks.json), with the filter options taken from the
// resources' declared media: the required collections, the owners and every collection.
import type { DashboardCard, JsonSchema, ResourceDef } from '../../types.ts';
import { deskDef, type DeskFile } from '../../lib/desk.ts';
import desks from '../../../shared/documenti/desks.json';

type Option = { const: string; title: string };

/** Every media collection of the resources the user may read: own ones and those of array rows. */
export function mediaCollections(resources: ResourceDef[], onlyRequired = false): Option[] {
  const seen = new Map<string, string>();
  for (const def of resources) {
    const media = def.resource.media;
    if (!media) continue;
    const groups = [media.collections, ...(media.items ?? []).map((i) => i.collections)];
    for (const group of groups) {
      for (const [name, c] of Object.entries(group)) if (!onlyRequired || c.required) seen.set(name, c.title);
    }
  }
  return [...seen].map(([name, title]) => ({ const: name, title }));
}

function build(card: DashboardCard, name: string, desk: DeskFile, options: Record<string, Option[]>): ResourceDef {
  const schema = structuredClone(desk.schema) as JsonSchema;
  for (const [field, oneOf] of Object.entries(options)) schema.properties![field] = { ...(schema.properties![field] ?? { type: 'string' }), oneOf };
  return deskDef(card, name, desk, schema);
}

export const QUALSIASI = '*';

export function trackDef(card: DashboardCard, resources: ResourceDef[]): ResourceDef {
  return build(card, 'track_gestione_documenti', desks.track, {
    mancante: [{ const: QUALSIASI, title: 'Qualsiasi documento' }, ...mediaCollections(resources, true)],
  });
}

export function archivioDef(card: DashboardCard, resources: ResourceDef[]): ResourceDef {
  return build(card, 'gestione_documenti', desks.archivio, {
    owner_resource: resources.filter((d) => d.resource.media).map((d) => ({ const: d.name, title: d.resource.singular ?? d.resource.title })),
    collection_name: mediaCollections(resources),
  });
}

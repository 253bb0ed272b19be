// The 'Storico' desk as a definition the generic list draws (desk.json), with the archives the user may read as the
// 'risorsa' filter's options.
import type { DashboardCard, JsonSchema, ListConfig, ResourceDef } from '../../types.ts';
import desk from '../../../shared/storico/desk.json';

export function storicoDef(card: DashboardCard, resources: ResourceDef[]): ResourceDef {
  const schema = structuredClone(desk.schema) as JsonSchema;
  schema.properties!.risorsa = { ...schema.properties!.risorsa, oneOf: resources.map((d) => ({ const: d.name, title: d.resource.title })) };
  return {
    name: 'storico',
    resource: {
      name: 'storico',
      title: card.title,
      icon: card.icon,
      api: { path: desk.api },
      permissions: { list: card.permission, read: card.permission, create: card.permission, update: card.permission, delete: card.permission },
    },
    schema,
    list: desk.list as ListConfig,
    form: {},
    can: { list: true, read: true, create: false, update: false, delete: false },
  };
}

// The 'Storico' desk as a definition the generic list draws (desk.json), with the archives the user may read as the
// 'risorsa' filter's options.
import type { DashboardCard, JsonSchema, ResourceDef } from '../../types.ts';
import { deskDef } from '../../lib/desk.ts';
import desk from '../../../shared/storico/desk.json';

export function storicoDef(card: DashboardCard, resources: ResourceDef[]): ResourceDef {
  const schema = structuredClone(desk.schema) as JsonSchema;
  schema.properties!.risorsa = { ...schema.properties!.risorsa, oneOf: resources.map((d) => ({ const: d.name, title: d.resource.title })) };
  return deskDef(card, 'storico', desk, schema);
}

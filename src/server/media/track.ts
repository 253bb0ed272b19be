// The documents desks over every resource that declares media: which required documents each record is missing,
// has uploaded, under revision, confirmed or signed (track), and every stored file the user may see (archive).
// Generic: the collections, their "required"/"signature" flags and the judging events come from resource.json.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/connection.ts';
import type { MediaCollectionConfig, ResourceDefinition } from '../../shared/definitions/types.ts';
import type { Workflow } from '../../shared/workflow/machine.ts';
import { hasPermission } from '../../shared/permissions.ts';
import { scopeFilterOf } from '../resources/repository.ts';
import type { AuthUser } from '../auth/user.ts';

export interface TrackedResource {
  def: ResourceDefinition;
  workflow?: Workflow;
  /** The record's own required collections. */
  own: Array<[string, MediaCollectionConfig]>;
  /** Required collections of array rows (a vehicle's booklet): every row must have one. */
  items: Array<{ model: string; field: string; name: string; collection: MediaCollectionConfig }>;
  signature: string[];
}

/** Resources whose media declare required collections, in definition order. */
export function trackedResources(resources: Iterable<ResourceDefinition>, workflows: Map<string, Workflow>): TrackedResource[] {
  const out: TrackedResource[] = [];
  for (const def of resources) {
    const media = def.resource.media;
    if (!media) continue;
    const own = Object.entries(media.collections).filter(([, c]) => c.required);
    const items = (media.items ?? []).flatMap((item) =>
      Object.entries(item.collections).filter(([, c]) => c.required).map(([name, collection]) => ({ model: item.model, field: item.field, name, collection })));
    if (!own.length && !items.length) continue;
    const signature = Object.entries(media.collections).filter(([, c]) => c.signature).map(([name]) => name);
    out.push({ def, workflow: def.resource.workflow ? workflows.get(def.resource.workflow.machine) : undefined, own, items, signature });
  }
  return out;
}

/** Who may read a resource's files: media.readPermission, else the record's read permission. */
export function mayReadFiles(def: ResourceDefinition, user: AuthUser): boolean {
  return hasPermission(def.resource.media?.readPermission ?? def.resource.permissions.read, user);
}

export const STATI_DOCUMENTI = ['mancanti', 'da_rivedere', 'da_verificare', 'confermati', 'firmati'] as const;

/**
 * One row per tracked record in the user's scope: missing collections, counts per verdict, signed or not, and the
 * summary state. A UNION over the tracked resources the user may read; empty when there is none.
 */
export async function trackedRows(db: Database, user: AuthUser, tracked: TrackedResource[]): Promise<RawBuilder<unknown> | undefined> {
  const parts: RawBuilder<unknown>[] = [];
  for (const t of tracked) {
    if (!mayReadFiles(t.def, user)) continue;
    const name = t.def.name;
    const table = sql.table(name);
    const scope = await scopeFilterOf(t.def, db, user);
    const statusField = t.workflow?.statusField;
    const statuses = t.def.resource.media?.trackStatuses;
    const where: Expression<SqlBool>[] = [sql<SqlBool>`true`];
    if (scope) where.push(scope);
    if (statusField && statuses?.length) where.push(sql<SqlBool>`${sql.ref(`t.${statusField}`)} = ANY(${statuses}::int[])`);
    for (const [field, values] of Object.entries(t.def.resource.media?.trackWhere ?? {})) {
      const column = sql.ref(`t.${field}`);
      const given = values.filter((v) => v !== null);
      const alternatives: Expression<SqlBool>[] = given.map((v) => sql<SqlBool>`${column} = ${v}`);
      if (given.length !== values.length) alternatives.push(sql<SqlBool>`${column} IS NULL`);
      where.push(sql<SqlBool>`(${sql.join(alternatives, sql` OR `)})`);
    }
    const collections = [...t.own.map(([c]) => c), ...t.items.map((i) => i.name)];
    const inTracked = sql`m.owner_resource = ${name} AND m.owner_id = t.id AND m.collection_name = ANY(${collections}::text[])`;
    const missingOwn = sql`ARRAY(SELECT c FROM unnest(${t.own.map(([c]) => c)}::text[]) c
      WHERE NOT EXISTS (SELECT 1 FROM media m WHERE m.owner_resource = ${name} AND m.owner_id = t.id AND m.item_model IS NULL AND m.collection_name = c))`;
    const missingItems = t.items.map((i) => sql`ARRAY(SELECT ${i.name}::text WHERE EXISTS (
      SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${sql.ref(`t.${i.field}`)}) = 'array' THEN ${sql.ref(`t.${i.field}`)} ELSE '[]'::jsonb END) v
      WHERE NOT EXISTS (SELECT 1 FROM media m WHERE m.owner_resource = ${name} AND m.owner_id = t.id AND m.item_model = ${i.model}
        AND m.item_id = v->>'id' AND m.collection_name = ${i.name})))`);
    const missing = sql.join([missingOwn, ...missingItems], sql` || `);
    parts.push(sql`SELECT ${name}::text AS owner_resource, t.id AS owner_id,
        ${statusField ? sql`${sql.ref(`t.${statusField}`)}::int` : sql`NULL::int`} AS stato_id, t.updated_at,
        ${missing} AS mancanti,
        (SELECT count(*)::int FROM media m WHERE ${inTracked}) AS caricati,
        (SELECT count(*)::int FROM media m WHERE ${inTracked} AND m.meta->'verifica'->>'esito' = 'da_rivedere') AS da_rivedere,
        (SELECT count(*)::int FROM media m WHERE ${inTracked} AND m.meta->'verifica'->>'esito' = 'confermato') AS confermati,
        EXISTS (SELECT 1 FROM media m WHERE m.owner_resource = ${name} AND m.owner_id = t.id AND m.collection_name = ANY(${t.signature}::text[])) AS firmato,
        ${searchText(t.def)} AS testo
      FROM ${table} t WHERE ${sql.join(where, sql` AND `)}`);
  }
  if (!parts.length) return undefined;
  // The summary state, in the order a desk works through them.
  return sql`SELECT u.*, CASE
      WHEN u.firmato THEN 'firmati'
      WHEN cardinality(u.mancanti) > 0 THEN 'mancanti'
      WHEN u.da_rivedere > 0 THEN 'da_rivedere'
      WHEN u.confermati > 0 AND u.confermati = u.caricati THEN 'confermati'
      ELSE 'da_verificare' END AS stato_documenti
    FROM (${sql.join(parts, sql` UNION ALL `)}) u`;
}

/** What the desk's search box matches: the record's id and its searchable fields. */
function searchText(def: ResourceDefinition): RawBuilder<string> {
  const fields = (def.resource.search ?? []).filter((f) => def.fields.some((d) => d.name === f && d.kind === 'text'));
  return sql<string>`lower(concat_ws(' ', t.id::text${sql.join(fields.map((f) => sql`, ${sql.ref(`t.${f}`)}`), sql``)}))`;
}

/** Records (tracked or not) with their missing required documents, for the dashboard's card. */
export async function countMissing(db: Database, user: AuthUser, tracked: TrackedResource[]): Promise<number> {
  const rows = await trackedRows(db, user, tracked);
  if (!rows) return 0;
  const found = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${rows}) r WHERE cardinality(r.mancanti) > 0 AND NOT r.firmato`.execute(db);
  return found.rows[0]?.n ?? 0;
}

/** The owners of files the user may see: one condition per resource with media, its row scope applied. */
export async function visibleOwners(db: Database, user: AuthUser, resources: Iterable<ResourceDefinition>): Promise<Expression<SqlBool> | undefined> {
  const allowed: Expression<SqlBool>[] = [];
  for (const def of resources) {
    if (!def.resource.media || !mayReadFiles(def, user)) continue;
    const scope = await scopeFilterOf(def, db, user);
    allowed.push(scope
      ? sql<SqlBool>`(m.owner_resource = ${def.name} AND m.owner_id IN (SELECT id FROM ${sql.table(def.name)} WHERE ${scope}))`
      : sql<SqlBool>`(m.owner_resource = ${def.name} AND EXISTS (SELECT 1 FROM ${sql.table(def.name)} o WHERE o.id = m.owner_id))`);
  }
  return allowed.length ? sql<SqlBool>`(${sql.join(allowed, sql` OR `)})` : undefined;
}

/** "{cognome} {nome}" from a record: the same templates as the client's titles. */
export function fillTitle(template: string, record: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_, key: string) => {
    const value = record[key];
    return value === null || value === undefined ? '' : String(value);
  }).replace(/\s+/g, ' ').trim();
}

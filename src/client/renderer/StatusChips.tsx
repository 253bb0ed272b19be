// Status chips above a list whose resource has a workflow: records per status (resource.workflow.countsPath) plus 'Tutti'; a click filters.
import { useEffect, useRef } from 'react';
import useSWR from 'swr';
import { request } from '../api/dataProvider.ts';
import type { JsonSchema, ResourceDef } from '../types.ts';

interface StatusCount {
  id: number;
  nome: string;
  count: number;
}

/** The status field of a workflow resource, when its list can filter by it. */
export function statusFilterField(def: ResourceDef): string | undefined {
  const field = def.workflow?.meta.statusField;
  return field && def.list.columns.some((c) => c.field === field && c.filter) ? field : undefined;
}

/** The schema with the statuses' names as option titles of the status field, so cells and filters show names, not ids. */
export function withStatusTitles(def: ResourceDef): JsonSchema {
  const field = def.workflow?.meta.statusField;
  const prop = field ? def.schema.properties?.[field] : undefined;
  if (!field || !prop || prop.oneOf || prop.enum) return def.schema;
  const oneOf = Object.values(def.workflow!.states).map((s) => ({ const: s.meta.id, title: s.meta.nome }));
  return { ...def.schema, properties: { ...def.schema.properties, [field]: { ...prop, oneOf } } };
}

export function StatusChips({ def, value, stamp, onSelect }: { def: ResourceDef; value: string | undefined; stamp: unknown; onSelect: (value: string) => void }) {
  const path = def.resource.workflow?.countsPath;
  const { data, mutate } = useSWR(path ? ['status-counts', path] : null, () => request<{ data: StatusCount[] }>('GET', path!), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  // Counts follow the list: each reload of its page (a delete, a filter) refreshes them.
  const seen = useRef(stamp);
  useEffect(() => {
    if (seen.current === stamp) return;
    seen.current = stamp;
    if (path) void mutate();
  }, [stamp, path, mutate]);
  const counts = data?.data ?? [];
  if (!counts.length) return null;
  const total = counts.reduce((sum, s) => sum + s.count, 0);
  const chip = (key: string, label: string, count: number, active: boolean, select: string) => (
    <button
      key={key}
      type="button"
      className={`btn btn-sm rounded-pill d-inline-flex align-items-center gap-2 ${active ? 'btn-primary' : 'btn-outline-secondary'}`}
      aria-pressed={active}
      data-testid="status-chip"
      onClick={() => onSelect(select)}
    >
      <span>{label}</span>
      <span className={`badge rounded-pill ${active ? 'text-bg-light' : 'text-bg-secondary'}`}>{count}</span>
    </button>
  );
  return (
    <div role="group" aria-label="Filtra per stato" className="d-flex flex-wrap gap-2 mb-3">
      {chip('tutti', 'Tutti', total, !value, '')}
      {counts.map((s) => chip(String(s.id), s.nome, s.count, value === String(s.id), String(s.id)))}
    </div>
  );
}

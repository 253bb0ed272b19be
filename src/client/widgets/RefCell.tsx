// Grid cell of an x-ref column (list.json format "ref"): the referenced record's title instead of its id. Every cell of
// the column asks for the same set of ids, so SWR makes one request per column and page.
import type { GridApi } from 'ag-grid-community';
import { useGetMany } from '../api/hooks.ts';
import { findResource, useDefinitions } from '../lib/definitions.ts';
import { fillTemplate } from '../lib/format.ts';
import type { JsonSchema, RecordData } from '../types.ts';
import type { CellProps } from './cells.tsx';

export function RefCell({ value, column, prop, api }: CellProps & { prop?: JsonSchema; api?: GridApi<RecordData> }) {
  const { definitions } = useDefinitions();
  const target = findResource(definitions, String(prop?.['x-ref'] ?? ''));
  const ids: unknown[] = [];
  if (api && column) api.forEachNode((node) => ids.push(node.data?.[column.field]));
  else ids.push(value);
  const { data } = useGetMany(target?.resource, ids);
  if (value === null || value === undefined || value === '') return null;
  const record = data?.get(value) ?? data?.get(Number(value));
  const title = record && target ? fillTemplate(target.resource.recordTitle ?? '{id}', record) : '';
  return <>{title || String(value)}</>;
}

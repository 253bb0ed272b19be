// Every list's export (GET <path>/export?format=csv|xlsx&<the list's filters>): the rows of the current filter, with
// the screen's columns and labels and the user's row scope, streamed from a server-side cursor as they are read.
import { sql } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { Database } from '../db/connection.ts';
import { readCursor } from '../db/cursor.ts';
import type { AuthUser } from '../auth/user.ts';
import type { FieldKind, JsonSchema, ListColumn } from '../../shared/definitions/types.ts';
import type { Workflow } from '../../shared/workflow/machine.ts';
import { invalid } from '../errors.ts';
import { optionTitles } from '../../shared/enumTitle.ts';
import { oggiIso } from '../../shared/dates.ts';
import { LABEL_SUFFIX, type ListQuery, type ResourceRepository } from './repository.ts';
import { streamedBody } from './stream.ts';
import { writeXlsx, type XlsxFormat } from './xlsx.ts';

export type ExportFormat = 'csv' | 'xlsx';
// Rows a FETCH brings: fewer round trips, the memory of a batch still small.
const BATCH = 2000;

/** OWASP CSV injection: a text cell a spreadsheet would read as a formula starts with a quote instead. */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The columns exported: those the screen shows (`columns` = their fields in order), else the list's visible ones. */
export function exportColumns(list: ListColumn[], requested: string | undefined): ListColumn[] {
  // A column of nested items (format expand) has no one cell: it is left out.
  const flat = (c: ListColumn) => c.format !== 'expand';
  if (!requested) return list.filter((c) => flat(c) && !c.hide);
  const byField = new Map(list.map((c) => [c.field, c]));
  const fields = requested.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = fields.filter((f) => !byField.has(f));
  const chosen = fields.filter((f) => byField.has(f)).map((f) => byField.get(f)!).filter(flat);
  if (unknown.length || !chosen.length) throw invalid({ columns: [`Colonne non esportabili: ${unknown.join(', ') || '(nessuna)'}`] });
  return chosen;
}

export type Cell = string | number | Date | null;

/** What a column's cells need to read as on the screen: the property's schema, the field's kind, a reference's label. */
export interface ColumnSource {
  prop?: JsonSchema;
  kind?: FieldKind;
  /** An x-ref field: its cell is the `<field>__label` the list query read beside it. */
  ref?: boolean;
  /** The record's status field, read as the status's name. */
  workflow?: Workflow;
}

/** How one column's value reads on the screen: a reference's label, an option's or status's title, money in euro. */
export function cellOf(column: ListColumn, { prop, kind, ref, workflow }: ColumnSource): (row: Record<string, unknown>) => Cell {
  const titles = optionTitles(prop as Parameters<typeof optionTitles>[0]);
  const text = (v: unknown): string => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
  const titled = (v: unknown): string => titles?.get(v) ?? (column.chips ? String(v) : text(v));
  // An item of an array of objects as its chip reads: "title: state".
  const item = (v: unknown): string => {
    if (!column.itemKey || v === null || typeof v !== 'object') return titled(v);
    const o = v as Record<string, unknown>;
    return column.itemValue ? `${String(o[column.itemKey] ?? '')}: ${String(o[column.itemValue] ?? '')}` : String(o[column.itemKey] ?? '');
  };
  return (row) => {
    const value = row[column.field];
    if (value === null || value === undefined || value === '') return null;
    if (ref && typeof row[column.field + LABEL_SUFFIX] === 'string') return row[column.field + LABEL_SUFFIX] as string;
    if (workflow) {
      try {
        return workflow.status(Number(value)).nome;
      } catch {
        return String(value);
      }
    }
    if (Array.isArray(value)) return value.map(item).join(', ');
    if (titles) return titled(value);
    if (kind === 'boolean' || column.format === 'boolean') return value === true ? 'Sì' : 'No';
    if (kind === 'money' || kind === 'number' || kind === 'integer' || column.format === 'money') {
      const n = Number(value);
      return Number.isFinite(n) ? n : String(value);
    }
    if (kind === 'date' || column.format === 'date') {
      const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value instanceof Date ? value.toISOString() : value));
      return day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : String(value);
    }
    if (kind === 'datetime' || column.format === 'datetime') {
      const when = value instanceof Date ? value : new Date(String(value));
      return Number.isNaN(when.getTime()) ? String(value) : when;
    }
    return text(value);
  };
}

const ROME = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const NUMBER = new Intl.NumberFormat('it-IT', { useGrouping: false, maximumFractionDigits: 6 });
const two = (n: number) => (n < 10 ? `0${n}` : String(n));
/** A day (UTC midnight, as cellOf makes it) as gg/mm/aaaa: by hand, as Intl's formatting was a share of every row. */
const day = (d: Date) => `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;

/** A CSV field as Italian Excel reads it (semicolons, decimal comma, dd/mm/yyyy), quoted when it must be. */
function csvField(value: Cell, column: ListColumn, kind: string | undefined): string {
  let text: string;
  if (value === null) text = '';
  else if (typeof value === 'number') {
    text = column.format === 'money' || kind === 'money' ? value.toFixed(2).replace('.', ',') : Number.isInteger(value) ? String(value) : NUMBER.format(value);
  } else if (value instanceof Date) text = column.format === 'datetime' || kind === 'datetime' ? ROME.format(value).replace(',', '') : day(value);
  else text = neutralise(value);
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function xlsxCell(value: Cell): Cell {
  return typeof value === 'string' ? neutralise(value) : value;
}

/**
 * One export: its columns, how each reads, the rows to come and where they come from. `read` hands the rows over in
 * batches (as a cursor or pages yield them) and stops when `each` answers false (the client went away).
 */
export interface ExportSheet {
  /** File name stem (`<name>-<day>.<format>`). */
  name: string;
  /** Sheet title. */
  title: string;
  columns: ListColumn[];
  sources: ColumnSource[];
  total: number;
  read: (each: (rows: Array<Record<string, unknown>>) => Promise<boolean>) => Promise<void>;
}

/**
 * Streams the export. The header `X-Total-Count` gives the rows to come (for the client's progress); the body starts
 * once the first batch is read, so a bad filter still answers 422, and a client that goes away stops the reading.
 */
export async function sendExport(reply: FastifyReply, format: ExportFormat, sheetOf: ExportSheet): Promise<FastifyReply> {
  const { columns } = sheetOf;
  const cells = columns.map((c, i) => cellOf(c, sheetOf.sources[i]!));
  const kinds = sheetOf.sources.map((s) => s.kind);
  const out = await streamedBody(reply, async ({ out, closed, write, begin }) => {
    if (format === 'xlsx') {
      const formats = columns.map((c, i): XlsxFormat => {
        const kind = c.format ?? kinds[i];
        return kind === 'money' || kinds[i] === 'money' ? 'money' : kind === 'datetime' || kinds[i] === 'datetime' ? 'datetime' : kind === 'date' || kinds[i] === 'date' ? 'date' : undefined;
      });
      const sheet = { title: sheetOf.title, columns: columns.map((c, i) => ({ header: c.headerName, format: formats[i], width: Math.max(12, c.headerName.length + 4) })) };
      await writeXlsx(write, sheet, async (add) => {
        await sheetOf.read(async (rows) => {
          begin();
          await add(rows.map((row) => cells.map((cell) => xlsxCell(cell(row)))));
          return !closed();
        });
        begin();
      });
      if (!closed()) out.end();
      return;
    }
    const start = async () => {
      // BOM: Excel opens the file as UTF-8 (accents, €).
      if (begin()) await write(`\ufeff${columns.map((c) => csvField(c.headerName, c, undefined)).join(';')}\r\n`);
    };
    await sheetOf.read(async (rows) => {
      await start();
      let chunk = '';
      for (const row of rows) chunk += `${cells.map((cell, i) => csvField(cell(row), columns[i]!, kinds[i])).join(';')}\r\n`;
      if (chunk) await write(chunk);
      return !closed();
    });
    await start();
    if (!closed()) out.end();
  });
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const day = oggiIso();
  return reply
    .type(type)
    .header('cache-control', 'no-store')
    .header('x-total-count', String(sheetOf.total))
    .header('access-control-expose-headers', 'X-Total-Count, Content-Disposition')
    .header('content-disposition', `attachment; filename="${sheetOf.name}-${day}.${format}"`)
    .send(out);
}

/** A resource list's export: the rows of its query, from a server-side cursor in one read-only transaction (readCursor). */
export async function streamExport(
  reply: FastifyReply, db: Database, repo: ResourceRepository, user: AuthUser, query: ListQuery,
  format: ExportFormat, columns: ListColumn[], workflow: Workflow | undefined,
): Promise<FastifyReply> {
  const def = repo.def;
  // Only the exported columns are read: the others would be parsed (dates above all) for nothing.
  const { select, where, present } = await repo.selection(db, user, query, new Set(columns.map((c) => c.field)));
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(def.name)} ${where}`.execute(db)).rows[0]!.n;
  const sources = columns.map((c): ColumnSource => {
    const field = def.fields.find((f) => f.name === c.field);
    return {
      prop: def.schema.properties?.[c.field] as JsonSchema | undefined,
      kind: field?.kind,
      ref: Boolean(field?.ref),
      workflow: workflow && c.field === workflow.statusField ? workflow : undefined,
    };
  });
  return sendExport(reply, format, {
    name: def.name, title: def.resource.title, columns, sources, total,
    read: (each) => readCursor(db, select, BATCH, (rows) => each(rows.map(present))),
  });
}

/** The column sources of a list drawn from a bare schema (a desk with no entity): kinds from type and format. */
export function schemaSources(schema: JsonSchema, columns: ListColumn[]): ColumnSource[] {
  return columns.map((c) => {
    const prop = schema.properties?.[c.field];
    const type = Array.isArray(prop?.type) ? prop.type.find((t) => t !== 'null') : prop?.type;
    const kind: FieldKind | undefined = prop?.format === 'date-time' ? 'datetime' : prop?.format === 'date' ? 'date'
      : type === 'integer' ? 'integer' : type === 'number' ? (prop?.['x-money'] ? 'money' : 'number') : type === 'boolean' ? 'boolean' : undefined;
    return { prop, kind };
  });
}

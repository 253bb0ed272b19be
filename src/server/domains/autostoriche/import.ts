// Reads an uploaded CSV or XLSX of historic-car models into rows validated like the API's, held column by column; writes nothing.
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { FieldDefinition, FieldKind, JsonSchema, ResourceDefinition } from '../../../shared/definitions/types.ts';
import { SYSTEM_FIELDS } from '../../../shared/definitions/types.ts';
import { lazyValidator, createAjv, normalizeInput, withoutNulls, type FieldErrors } from '../../../shared/validation.ts';
import { HttpError, invalid } from '../../errors.ts';
import { rangeErrors } from './rules.ts';
import { MAX_SHEET_TEXT, XlsxBoundsError, checkXlsxBounds } from './xlsx-bounds.ts';
import { xlsxSheetRows } from './xlsx-rows.ts';

export interface Rejection {
  /** Row as the user sees it in the file (header = row 1). */
  row: number;
  field: string;
  message: string;
}

export interface ParsedModels {
  /** Columns to insert, in the order of `columns`. */
  fields: FieldDefinition[];
  /** One array of column values per field: the valid rows not yet handed to a BatchSink (all of them without one). */
  columns: unknown[][];
  count: number;
  invalidRows: number;
  rejected: Rejection[];
  /** Every rejection, also those left out of `rejected` to keep the answer small. */
  rejectedTotal: number;
}

/** What the import needs from the definition, built once per app. */
export interface ImportSpec {
  fields: FieldDefinition[];
  byHeader: Map<string, FieldDefinition>;
  ignoredHeaders: Set<string>;
  required: string[];
  defaults: Record<string, unknown>;
  /** Closed values by lower-cased value or title, so "Verde" or "m" in a file become verde and M. */
  choices: Map<string, Map<string, unknown>>;
  validate: (data: unknown) => FieldErrors | null;
}

/** Takes valid rows while the file is still being read, one array per column in the order of `fields`. */
export type BatchSink = (fields: FieldDefinition[], columns: unknown[][]) => Promise<void>;
/** Valid rows held before they go to the sink: the import's memory no longer grows with the file. */
export const BATCH_ROWS = 5000;

const MAX_REJECTED = 1000;
// Far above a real price list (some thousand models), low enough that one upload cannot exhaust the server's memory.
export const MAX_ROWS = 200_000;
const PEEK_BYTES = 64 * 1024;

export const NO_FILE = 'Non hai specificato un file da caricare';

export function fileError(message: string): HttpError {
  return invalid({ file: [message] }, message);
}

/** "Valore B", "valore_b" and "VALORE-B" all name valore_b; accents are dropped. */
export function headerKey(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

export function importSpec(def: ResourceDefinition): ImportSpec {
  const fields = def.fields.filter((f) => !f.readOnly && !f.secret);
  const byHeader = new Map<string, FieldDefinition>();
  const ignoredHeaders = new Set<string>();
  const titleOf = (name: string) => def.schema.properties?.[name]?.title;
  for (const field of def.fields) {
    const names = [field.name, titleOf(field.name), ...def.list.columns.filter((c) => c.field === field.name).map((c) => c.headerName)];
    for (const name of names) {
      if (typeof name !== 'string' || !headerKey(name)) continue;
      // Server-owned columns (id, timestamps) of an exported list are skipped rather than refused.
      if (fields.includes(field)) byHeader.set(headerKey(name), field);
      else ignoredHeaders.add(headerKey(name));
    }
  }
  for (const name of SYSTEM_FIELDS) ignoredHeaders.add(name);
  const defaults: Record<string, unknown> = {};
  const choices = new Map<string, Map<string, unknown>>();
  for (const field of fields) {
    const prop = def.schema.properties?.[field.name] as JsonSchema | undefined;
    if (prop?.default !== undefined) defaults[field.name] = prop.default;
    if (!field.values) continue;
    const map = new Map<string, unknown>();
    for (const option of (prop?.oneOf as JsonSchema[] | undefined) ?? []) {
      if (typeof option.title === 'string') map.set(option.title.toLowerCase(), option.const);
    }
    for (const value of field.values) map.set(String(value).toLowerCase(), value);
    choices.set(field.name, map);
  }
  return {
    fields,
    byHeader,
    ignoredHeaders,
    required: def.schema.required ?? [],
    defaults,
    choices,
    validate: lazyValidator(createAjv, def.schema),
  };
}

/**
 * Italian or plain numbers: "12000", "12000,50", "12.000,50", "1,234.5", "€ 9.500".
 * A dot followed by groups of exactly three digits is a thousands separator (12.000 is twelve thousand).
 */
export function parseNumber(text: string): number | undefined {
  let s = text.replace(/[\s\u00a0€]/g, '');
  if (!s) return undefined;
  const comma = s.lastIndexOf(',');
  const dot = s.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) {
    s = comma > dot ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
  } else if (comma >= 0) {
    if (s.indexOf(',') !== comma) return undefined;
    s = s.replace(',', '.');
  } else if (/^-?\d{1,3}(\.\d{3})+$/.test(s)) {
    s = s.replace(/\./g, '');
  }
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : undefined;
}

const NUMERIC: ReadonlySet<FieldKind> = new Set(['integer', 'number', 'money']);

function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/** A cell as the API would have received it: numbers for numeric fields, closed values spelt as the schema spells them. */
function convert(spec: ImportSpec, field: FieldDefinition, cell: unknown): unknown {
  if (isBlank(cell)) return null;
  if (typeof cell === 'string' && cell.includes('\uFFFD')) {
    throw fileError('Il file non è codificato in UTF-8: salvalo come «CSV UTF-8» e riprova.');
  }
  if (NUMERIC.has(field.kind)) {
    // A value that is not a number stays text, so the schema reports it with the field's own message.
    return typeof cell === 'string' ? parseNumber(cell) ?? cell : cell;
  }
  if (field.kind === 'text') {
    const text = String(cell).trim();
    return spec.choices.get(field.name)?.get(text.toLowerCase()) ?? text;
  }
  return cell;
}

/** Collects rows one at a time; once a row is bad, later good rows are only checked, no longer kept. */
export class ModelCollector {
  private mapping: Array<FieldDefinition | undefined> | undefined;
  private insertFields: FieldDefinition[] = [];
  private columns: unknown[][] = [];
  private count = 0;
  private held = 0;
  private invalidRows = 0;
  private rejected: Rejection[] = [];
  private rejectedTotal = 0;

  constructor(private readonly spec: ImportSpec) {}

  get hasHeader(): boolean {
    return this.mapping !== undefined;
  }

  header(cells: unknown[]): void {
    const mapping: Array<FieldDefinition | undefined> = [];
    const unknown: string[] = [];
    const seen = new Set<string>();
    for (const cell of cells) {
      const label = isBlank(cell) ? '' : String(cell).trim();
      const key = headerKey(label);
      const field = this.spec.byHeader.get(key);
      if (field) {
        if (seen.has(field.name)) throw fileError(`La colonna ${field.name} compare più di una volta nell'intestazione.`);
        seen.add(field.name);
      } else if (key && !this.spec.ignoredHeaders.has(key)) {
        unknown.push(label);
      }
      mapping.push(field);
    }
    if (unknown.length) {
      throw fileError(`Colonne non riconosciute: ${unknown.join(', ')}. Usa i nomi dei campi: ${this.spec.fields.map((f) => f.name).join(', ')}.`);
    }
    const missing = this.spec.required.filter((name) => !seen.has(name));
    if (missing.length) throw fileError(`Colonne obbligatorie mancanti: ${missing.join(', ')}.`);
    this.mapping = mapping;
    this.insertFields = this.spec.fields.filter((f) => seen.has(f.name) || this.spec.defaults[f.name] !== undefined);
    this.columns = this.insertFields.map(() => []);
  }

  row(cells: unknown[], row: number): void {
    if (cells.every(isBlank)) return;
    if (this.count + this.invalidRows >= MAX_ROWS) {
      throw fileError(`Il file contiene più di ${MAX_ROWS.toLocaleString('it-IT')} modelli: dividilo in più file.`);
    }
    const mapping = this.mapping!;
    const errors: FieldErrors = {};
    const raw: Record<string, unknown> = {};
    cells.forEach((cell, i) => {
      if (i >= mapping.length) {
        if (!isBlank(cell)) errors._ = ["La riga ha più colonne dell'intestazione"];
        return;
      }
      const field = mapping[i];
      if (field) raw[field.name] = convert(this.spec, field, cell);
    });
    const record = { ...this.spec.defaults, ...normalizeInput(this.spec.fields, raw) };
    for (const [field, messages] of Object.entries({ ...this.spec.validate(withoutNulls(record)) })) (errors[field] ??= []).push(...messages);
    for (const [field, messages] of Object.entries(rangeErrors(record))) (errors[field] ??= []).push(...messages);
    if (Object.keys(errors).length) {
      this.invalidRows++;
      for (const [field, messages] of Object.entries(errors)) {
        for (const message of messages) {
          this.rejectedTotal++;
          if (this.rejected.length < MAX_REJECTED) this.rejected.push({ row, field, message });
        }
      }
      return;
    }
    this.count++;
    if (this.invalidRows) return; // the import is refused anyway: keep memory for the remaining checks
    this.insertFields.forEach((f, i) => this.columns[i]!.push(record[f.name] ?? null));
    this.held++;
  }

  /** Valid rows kept since the last take; none once a row was invalid (the import will be refused). */
  get pending(): number {
    return this.invalidRows ? 0 : this.held;
  }

  /** Hands over the rows kept so far and starts a new batch. */
  take(): { fields: FieldDefinition[]; columns: unknown[][] } {
    const taken = { fields: this.insertFields, columns: this.columns };
    this.columns = this.insertFields.map(() => []);
    this.held = 0;
    return taken;
  }

  result(): ParsedModels {
    return {
      fields: this.insertFields,
      columns: this.columns,
      count: this.count,
      invalidRows: this.invalidRows,
      rejected: this.rejected,
      rejectedTotal: this.rejectedTotal,
    };
  }
}

interface SheetRow {
  row: number;
  cells: unknown[];
}

/** Reads the first bytes (up to the first line break, for CSV sniffing) and gives back a stream that replays them. */
async function peek(source: Readable): Promise<{ head: Buffer; stream: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < PEEK_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
    if (next.value.includes(0x0a)) break;
  }
  const head = Buffer.concat(chunks);
  async function* replay() {
    yield head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, stream: Readable.from(replay(), { objectMode: false }) };
}

/** The delimiter that splits the header line most often; the header holds field names, so commas there are delimiters. */
function sniffDelimiter(head: Buffer): string {
  const line = head.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const outside = line.replace(/"[^"]*"/g, '');
  const count = (c: string) => outside.split(c).length - 1;
  return [';', '\t', ','].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

function countLineBreaks(cells: string[]): number {
  let n = 0;
  for (const cell of cells) for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) n++;
  return n;
}

async function* csvRows(head: Buffer, stream: Readable): AsyncGenerator<SheetRow> {
  const parser = parse({ delimiter: sniffDelimiter(head), bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  // Errors of either side end the iteration below; pipeline only has to tear both down.
  pipeline(stream, parser, () => undefined);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is where the record ends; a quoted value spanning lines started earlier.
      yield { row: info.lines - countLineBreaks(record), cells: record };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const where = (error as CsvError & { lines?: number }).lines;
      const reason = error.code === 'CSV_QUOTE_NOT_CLOSED' ? 'virgolette non chiuse' : 'formato non riconosciuto';
      throw fileError(`Il file CSV non è valido${where ? ` alla riga ${where}` : ''} (${reason}).`);
    }
    throw error;
  }
}

async function* xlsxRows(file: Buffer): AsyncGenerator<SheetRow> {
  try {
    // Later sheets are not read: only the first is imported.
    yield* xlsxSheetRows(file);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof XlsxBoundsError) {
      throw fileError(`Il file XLSX contiene troppo testo una volta espanso (oltre ${(MAX_SHEET_TEXT / 1e6).toLocaleString('it-IT')} milioni di caratteri): dividilo in più file.`);
    }
    throw fileError('Il file XLSX non è leggibile: salvalo di nuovo da Excel come «Cartella di lavoro Excel (.xlsx)».');
  }
}

/** The upload (already capped by the upload limit) in memory, checked before any of its XML is expanded. */
async function boundedXlsx(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const file = Buffer.concat(chunks);
  const problem = await checkXlsxBounds(file);
  if (problem === 'cell') throw fileError('Il file XLSX contiene un testo troppo lungo per una cella (oltre 32.767 caratteri).');
  if (problem === 'expanded') throw fileError('Il file XLSX è troppo grande una volta decompresso: dividilo in più file.');
  if (problem === 'unreadable') throw fileError('Il file XLSX non è leggibile: salvalo di nuovo da Excel come «Cartella di lavoro Excel (.xlsx)».');
  return file;
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);
const XLS_MESSAGE = 'Il formato XLS non è supportato: salva il file come XLSX o CSV.';

/** Rows read and valid so far; may throw to stop reading (a cancelled import). */
export type ImportProgress = (read: number, valid: number) => void;
const PROGRESS_EVERY = 250;
/** The longest stretch of reading done without handing the event loop back. */
const SLICE_MS = 10;

/**
 * Reads the whole upload; refuses at once (422 on file) what cannot be read, and reports bad rows in the result.
 * With a sink, valid rows go to it in batches while every row so far is valid; the caller undoes them if one is not.
 */
export async function readModels(spec: ImportSpec, filename: string, source: Readable, onProgress?: ImportProgress, sink?: BatchSink): Promise<ParsedModels> {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'xls') throw fileError(XLS_MESSAGE);
  if (extension && !['csv', 'txt', 'xlsx'].includes(extension)) {
    throw fileError('Formato non supportato: carica un file CSV o XLSX.');
  }
  const { head, stream } = await peek(source);
  if (head.length === 0) throw fileError('Il file è vuoto.');
  let rows: AsyncGenerator<SheetRow>;
  if (head.subarray(0, 4).equals(ZIP)) rows = xlsxRows(await boundedXlsx(stream));
  else if (head.subarray(0, 4).equals(OLE)) throw fileError(XLS_MESSAGE);
  else if (extension === 'xlsx' || head.includes(0)) throw fileError('Il file non è un CSV o un XLSX leggibile.');
  else rows = csvRows(head, stream);

  const collector = new ModelCollector(spec);
  let read = 0;
  let slice = performance.now();
  for await (const { row, cells } of rows) {
    // Rows already read come on as microtasks: let the event loop serve other requests every few milliseconds.
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    if (!collector.hasHeader) {
      if (cells.every(isBlank)) continue;
      collector.header(cells);
    } else {
      collector.row(cells, row);
      if (++read % PROGRESS_EVERY === 0) onProgress?.(read, collector.result().count);
      // Awaited inside the loop: the upload is read no faster than the batches are stored.
      if (sink && collector.pending >= BATCH_ROWS) {
        const batch = collector.take();
        await sink(batch.fields, batch.columns);
      }
    }
  }
  if (!collector.hasHeader) throw fileError('Il file è vuoto.');
  if (sink && collector.pending) {
    const batch = collector.take();
    await sink(batch.fields, batch.columns);
  }
  const result = collector.result();
  onProgress?.(read, result.count);
  return result;
}

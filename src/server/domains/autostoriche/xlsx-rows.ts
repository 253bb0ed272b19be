// Rows of an XLSX's first sheet as plain values, read from the archive already in memory: the shared strings first
// (whatever their place in the ZIP), then the sheet's XML inflated and scanned a chunk at a time. Nothing but the shared
// strings and the current row is kept, unlike a general workbook reader (exceljs allocated a cell object, a style and a
// SAX event per value and spilled the sheet to a temporary file when it preceded the strings: 100 MB more for 50 000 rows).
import { StringDecoder } from 'node:string_decoder';
import { MAX_COLUMNS, MAX_SHEET_TEXT, XlsxBoundsError, entryChunks, zipEntries, type ZipEntry } from './xlsx-bounds.ts';

export interface XlsxRow {
  /** The row's number in the sheet (1 = the first). */
  row: number;
  cells: unknown[];
}

type Attributes = Record<string, string>;

interface XmlHandler {
  open(name: string, attributes: Attributes, selfClosing: boolean): void;
  close(name: string): void;
  text(text: string): void;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML entities, then the _xHHHH_ escapes Excel writes for control characters. */
function decode(text: string): string {
  const plain = !text.includes('&') ? text : text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name] ?? whole;
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
  return !plain.includes('_x') ? plain : plain.replace(/_x([0-9a-fA-F]{4})_/g, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Element names without their namespace prefix (x:row is row). */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function parseAttributes(source: string): Attributes {
  const attributes: Attributes = {};
  for (const match of source.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attributes[match[1]!] = decode(match[2] ?? match[3] ?? '');
  return attributes;
}

/**
 * Feeds an XML entry to `handler` as tags and text, a chunk at a time; `after` runs after each chunk (to hand on what it
 * completed). Only what a chunk leaves unfinished (a tag or a text, bounded by the bounds check) is carried over.
 */
async function* scan(file: Buffer, entry: ZipEntry, handler: XmlHandler): AsyncGenerator<void> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const feed = (chunk: string, last: boolean) => {
    const xml = rest + chunk;
    let at = 0;
    for (;;) {
      const lt = xml.indexOf('<', at);
      if (lt < 0) {
        if (last) {
          if (xml.slice(at).trim()) throw new Error('XML: text after the root element');
          rest = '';
        } else {
          rest = xml.slice(at);
        }
        return;
      }
      if (lt > at) handler.text(decode(xml.slice(at, lt)));
      let end: number;
      if (xml.startsWith('<!--', lt)) {
        end = xml.indexOf('-->', lt + 4);
        if (end >= 0) end += 2;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        end = xml.indexOf(']]>', lt + 9);
        if (end >= 0) {
          handler.text(xml.slice(lt + 9, end));
          end += 2;
        }
      } else {
        end = xml.indexOf('>', lt + 1);
        if (end >= 0 && xml[lt + 1] !== '?' && xml[lt + 1] !== '!') {
          if (xml[lt + 1] === '/') {
            handler.close(localName(xml.slice(lt + 2, end).trim()));
          } else {
            const selfClosing = xml[end - 1] === '/';
            const body = xml.slice(lt + 1, selfClosing ? end - 1 : end);
            const space = body.search(/\s/);
            const name = localName(space < 0 ? body : body.slice(0, space));
            handler.open(name, space < 0 ? {} : parseAttributes(body.slice(space)), selfClosing);
            if (selfClosing) handler.close(name);
          }
        }
      }
      if (end < 0) {
        if (last) throw new Error('XML: unfinished tag');
        rest = xml.slice(lt);
        return;
      }
      at = end + 1;
    }
  };
  for await (const chunk of entryChunks(file, entry)) {
    feed(decoder.write(chunk), false);
    yield;
  }
  feed(decoder.end(), true);
  yield;
}

async function readAll(file: Buffer, entry: ZipEntry | undefined, handler: XmlHandler): Promise<void> {
  if (!entry) return;
  for await (const _ of scan(file, entry, handler)) void _;
}

/** The relationships of a part: id to the archive path of the target. */
async function relationships(file: Buffer, entries: Map<string, ZipEntry>, folder: string, relsPath: string): Promise<Map<string, { type: string; path: string }>> {
  const out = new Map<string, { type: string; path: string }>();
  await readAll(file, entries.get(relsPath), {
    open(name, a) {
      if (name !== 'Relationship' || !a.Id || !a.Target) return;
      const target = a.Target.startsWith('/') ? a.Target.slice(1) : `${folder}${a.Target}`;
      // "../x" inside xl/ and "./x" resolved as a path.
      const parts: string[] = [];
      for (const part of target.split('/')) {
        if (part === '..') parts.pop();
        else if (part !== '.') parts.push(part);
      }
      out.set(a.Id, { type: a.Type ?? '', path: parts.join('/') });
    },
    close() {},
    text() {},
  });
  return out;
}

/** The first sheet as Excel shows it (the workbook's order) and the shared strings' part. */
async function locateParts(file: Buffer, entries: Map<string, ZipEntry>): Promise<{ sheet: ZipEntry | undefined; strings: ZipEntry | undefined }> {
  const rels = await relationships(file, entries, 'xl/', 'xl/_rels/workbook.xml.rels');
  let firstSheetId: string | undefined;
  await readAll(file, entries.get('xl/workbook.xml'), {
    open(name, a) {
      if (name !== 'sheet' || firstSheetId !== undefined) return;
      firstSheetId = Object.entries(a).find(([key]) => localName(key) === 'id')?.[1] ?? '';
    },
    close() {},
    text() {},
  });
  const byType = (suffix: string) => [...rels.values()].find((r) => r.type.endsWith(suffix))?.path;
  const sheetPath = (firstSheetId && rels.get(firstSheetId)?.path)
    // Without a usable workbook part: the lowest numbered sheet, as most writers name the first one.
    || [...entries.keys()].filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n)).sort((a, b) => parseInt(a.slice(19), 10) - parseInt(b.slice(19), 10))[0];
  return {
    sheet: sheetPath ? entries.get(sheetPath) : undefined,
    strings: entries.get(byType('/sharedStrings') ?? 'xl/sharedStrings.xml'),
  };
}

/** The shared strings' plain text; phonetic guides (rPh) are not part of the value. */
async function sharedStrings(file: Buffer, entry: ZipEntry | undefined): Promise<string[]> {
  const strings: string[] = [];
  let text: string | undefined;
  let inT = false;
  let phonetic = 0;
  await readAll(file, entry, {
    open(name, _a, selfClosing) {
      if (name === 'si') text = '';
      else if (name === 'rPh') phonetic += selfClosing ? 0 : 1;
      else if (name === 't' && !selfClosing) inT = phonetic === 0;
    },
    close(name) {
      if (name === 'si') {
        strings.push(text ?? '');
        text = undefined;
      } else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
      else if (name === 't') inT = false;
    },
    text(value) {
      if (inT && text !== undefined) text += value;
    },
  });
  return strings;
}

/** "AB12" to 28 (1-based), or undefined. */
function columnOf(reference: string | undefined): number | undefined {
  if (!reference) return undefined;
  let column = 0;
  let i = 0;
  for (; i < reference.length; i++) {
    const c = reference.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    column = column * 26 + (c - 0x60);
  }
  return i ? column : undefined;
}

/** A cell's value: numbers as numbers, text (shared, inline or a formula's) as text, booleans, an error as its code. */
function cellValue(type: string, value: string | undefined, inline: string | undefined, strings: string[]): unknown {
  switch (type) {
    case 's': {
      const index = Number(value);
      return Number.isInteger(index) ? strings[index] ?? null : null;
    }
    case 'inlineStr':
      return inline ?? value ?? null;
    case 'str':
    case 'e':
      return value ?? null;
    case 'b':
      return value === undefined ? null : value.trim() !== '0';
    case 'd':
      return value === undefined ? null : /^\d{4}-\d\d-\d\d/.test(value) ? value.slice(0, 10) : value;
    default: {
      if (value === undefined || value.trim() === '') return null;
      const number = Number(value);
      // A number cell holding something else is handed on as text for the schema to refuse.
      return Number.isFinite(number) ? number : value;
    }
  }
}

/**
 * The rows of the workbook's first sheet, one at a time; throws on an archive or XML it cannot read, and XlsxBoundsError
 * once the values handed on would pass `maxText` (cells plus their characters, see MAX_SHEET_TEXT).
 */
export async function* xlsxSheetRows(file: Buffer, maxText = MAX_SHEET_TEXT): AsyncGenerator<XlsxRow> {
  const list = zipEntries(file);
  if (!list) throw new Error('not a ZIP archive');
  const entries = new Map(list.map((e) => [e.name, e]));
  const parts = await locateParts(file, entries);
  if (!parts.sheet) throw new Error('no worksheet');
  const strings = await sharedStrings(file, parts.strings);

  const done: XlsxRow[] = [];
  let inData = false;
  let row: XlsxRow | undefined;
  let lastRow = 0;
  let column = 0;
  // The cell being read: its type, its <v> text and its inline string.
  let cell: { type: string; value?: string; inline?: string } | undefined;
  let target: 'value' | 'inline' | undefined;
  let inInline = false;
  let phonetic = 0;
  let text = 0;
  const handler: XmlHandler = {
    open(name, a, selfClosing) {
      if (name === 'sheetData') inData = !selfClosing;
      else if (!inData) return;
      else if (name === 'row') {
        const number = Number(a.r);
        lastRow = Number.isInteger(number) && number > 0 ? number : lastRow + 1;
        row = { row: lastRow, cells: [] };
        column = 0;
      } else if (name === 'c' && row) {
        column = columnOf(a.r) ?? column + 1;
        if (column > MAX_COLUMNS) throw new Error(`XML: column ${column} beyond ${MAX_COLUMNS}`);
        cell = { type: a.t ?? 'n' };
      } else if (!cell || selfClosing) return;
      else if (name === 'v') target = 'value';
      else if (name === 'is') inInline = true;
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && inInline && phonetic === 0) target = 'inline';
    },
    close(name) {
      if (!inData) return;
      if (name === 'sheetData') inData = false;
      else if (name === 'row' && row) {
        // An empty row costs as much as an empty cell: a sheet of millions of them is bounded too.
        if (++text > maxText) throw new XlsxBoundsError('text');
        done.push(row);
        row = undefined;
      } else if (name === 'c' && row && cell) {
        const value = cellValue(cell.type, cell.value, cell.inline, strings);
        // Counted before the row goes on: the work later done on a value (checks, upper-casing) is proportional to it.
        text += 1 + (typeof value === 'string' ? value.length : 0);
        if (text > maxText) throw new XlsxBoundsError('text');
        if (value !== null) {
          while (row.cells.length < column - 1) row.cells.push(null);
          row.cells[column - 1] = value;
        }
        cell = undefined;
      } else if (name === 'v' || name === 't') target = undefined;
      else if (name === 'is') inInline = false;
      else if (name === 'rPh') phonetic = Math.max(0, phonetic - 1);
    },
    text(value) {
      if (!cell || !target) return;
      if (target === 'value') cell.value = (cell.value ?? '') + value;
      else cell.inline = (cell.inline ?? '') + value;
    },
  };
  for await (const _ of scan(file, parts.sheet, handler)) {
    void _;
    // Rows completed by this chunk go out before the next one is inflated.
    while (done.length) yield done.shift()!;
  }
}

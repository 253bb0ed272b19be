// A streaming XLSX writer for the lists' exports: one sheet of inline strings, numbers and dates, in a zip written as
// it goes (deflate and CRC from node:zlib, sizes in data descriptors). exceljs wrote about 25 000 rows a second, most of
// it looking up each cell's style and building its XML objects; the sheet here is text put together row by row.
import { crc32, createDeflateRaw } from 'node:zlib';

/** A column's number format: money in euro, a day, a day and time; text and plain numbers have none. */
export type XlsxFormat = 'money' | 'date' | 'datetime' | undefined;
export type XlsxValue = string | number | Date | null;

/** Where the bytes go: a write that waits while the reader is slower. */
export type Sink = (chunk: Buffer) => Promise<void>;

const STYLE: Record<Exclude<XlsxFormat, undefined>, number> = { money: 2, date: 3, datetime: 4 };
const FILE_TIME = 0; // 00:00:00: the files carry no meaningful time
const FILE_DATE = (2026 - 1980) << 9 | 1 << 5 | 1; // 1 January 2026

// Characters XML 1.0 cannot hold at all are left out; the five it reserves are escaped.
// eslint-disable-next-line no-control-regex -- these very characters are what is taken out
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const RESERVED = /[&<>"]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(RESERVED, (c) => ENTITY[c]!);
}

/** A, B, ... Z, AA, ... */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Excel's day number of a moment (its 1900 system, as exceljs writes it: days since 30/12/1899, UTC). */
function serial(date: Date): number {
  return 25569 + date.getTime() / 86_400_000;
}

interface Entry { name: Buffer; crc: number; compressed: number; size: number; offset: number }

/** Zip entries written one after another; `finish` writes the central directory. */
class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  constructor(private readonly sink: Sink) {}

  private async put(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    await this.sink(chunk);
  }

  /** One file whose content `fill` writes through `write`; deflated as it comes. */
  async file(path: string, fill: (write: (text: string) => Promise<void>) => Promise<void>): Promise<void> {
    const name = Buffer.from(path, 'utf8');
    const entry: Entry = { name, crc: 0, compressed: 0, size: 0, offset: this.offset };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(FILE_TIME, 10);
    header.writeUInt16LE(FILE_DATE, 12);
    header.writeUInt16LE(name.length, 26);
    await this.put(Buffer.concat([header, name]));

    // Level 1: the sheet compresses almost as well, at a fraction of the default's time.
    const deflate = createDeflateRaw({ level: 1 });
    const pending: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => pending.push(chunk));
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
    });
    const flush = async () => {
      while (pending.length) {
        const chunk = pending.shift()!;
        entry.compressed += chunk.length;
        await this.put(chunk);
      }
    };
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    const push = async (data: Buffer) => {
      entry.crc = crc32(data, entry.crc);
      entry.size += data.length;
      if (!deflate.write(data)) await new Promise<void>((resolve) => deflate.once('drain', resolve));
      await flush();
    };
    // Text gathered into pieces of 64 KiB: one deflate write per piece, not per row.
    const write = async (text: string) => {
      const data = Buffer.from(text, 'utf8');
      buffered.push(data);
      bufferedBytes += data.length;
      if (bufferedBytes < 65_536) return;
      const piece = Buffer.concat(buffered, bufferedBytes);
      buffered = [];
      bufferedBytes = 0;
      await push(piece);
    };
    await fill(write);
    if (bufferedBytes) await push(Buffer.concat(buffered, bufferedBytes));
    deflate.end();
    await ended;
    await flush();

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc >>> 0, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.put(descriptor);
    this.entries.push(entry);
  }

  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0808, 8);
      header.writeUInt16LE(8, 10);
      header.writeUInt16LE(FILE_TIME, 12);
      header.writeUInt16LE(FILE_DATE, 14);
      header.writeUInt32LE(entry.crc >>> 0, 16);
      header.writeUInt32LE(entry.compressed, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      header.writeUInt32LE(entry.offset, 42);
      await this.put(Buffer.concat([header, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.put(end);
  }
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const PARTS: Record<string, string> = {
  '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`
    + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    + '<Default Extension="xml" ContentType="application/xml"/>'
    + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    + '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  '_rels/.rels': `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">`
    + `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  'xl/_rels/workbook.xml.rels': `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">`
    + `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>`
    + `<Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`,
  // Styles by index: 0 plain, 1 the header (bold), 2 money in euro, 3 a day, 4 a day and time (see STYLE).
  'xl/styles.xml': `${XML}<styleSheet xmlns="${MAIN}">`
    + '<numFmts count="3"><numFmt numFmtId="164" formatCode="#,##0.00 [$€-it-IT]"/><numFmt numFmtId="165" formatCode="dd/mm/yyyy"/>'
    + '<numFmt numFmtId="166" formatCode="dd/mm/yyyy hh:mm"/></numFmts>'
    + '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
    + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
    + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    + '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    + '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    + '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    + '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    + '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
    + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
};

export interface XlsxSheet {
  title: string;
  columns: Array<{ header: string; format: XlsxFormat; width: number }>;
}

/**
 * Writes a workbook of one sheet: the header row, then each batch `rows` hands over (its cells in column order), until
 * it answers. `rows` calls `add` for each batch and returns when there are no more.
 */
export async function writeXlsx(sink: Sink, sheet: XlsxSheet, rows: (add: (batch: XlsxValue[][]) => Promise<void>) => Promise<void>): Promise<void> {
  const zip = new ZipWriter(sink);
  for (const path of ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml']) await zip.file(path, (write) => write(PARTS[path]!));
  const title = xmlText(sheet.title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31)) || 'Foglio1';
  await zip.file('xl/workbook.xml', (write) => write(`${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets>`
    + `<sheet name="${title}" sheetId="1" r:id="rId1"/></sheets></workbook>`));
  const names = sheet.columns.map((_, i) => columnName(i));
  const styles = sheet.columns.map((c) => (c.format ? ` s="${STYLE[c.format]}"` : ''));
  await zip.file('xl/worksheets/sheet1.xml', async (write) => {
    const widths = sheet.columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
    await write(`${XML}<worksheet xmlns="${MAIN}"><cols>${widths}</cols><sheetData>`
      + `<row r="1">${sheet.columns.map((c, i) => `<c r="${names[i]}1" s="1" t="inlineStr"><is><t>${xmlText(c.header)}</t></is></c>`).join('')}</row>`);
    let r = 1;
    await rows(async (batch) => {
      let text = '';
      for (const values of batch) {
        r++;
        text += `<row r="${r}">`;
        for (let i = 0; i < values.length; i++) {
          const value = values[i];
          if (value === null || value === undefined) continue;
          if (typeof value === 'number') text += Number.isFinite(value) ? `<c r="${names[i]}${r}"${styles[i]}><v>${value}</v></c>` : '';
          else if (value instanceof Date) text += Number.isNaN(value.getTime()) ? '' : `<c r="${names[i]}${r}"${styles[i]}><v>${serial(value)}</v></c>`;
          else text += `<c r="${names[i]}${r}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
        }
        text += '</row>';
        // Handed on every 64 K characters: a batch's whole text, a rope of a few hundred thousand pieces, lived long
        // enough to be promoted to the old generation (+100 MB resident at 1 000 000 rows).
        if (text.length >= 65_536) {
          await write(text);
          text = '';
        }
      }
      if (text) await write(text);
    });
    await write('</sheetData></worksheet>');
  });
  await zip.finish();
}

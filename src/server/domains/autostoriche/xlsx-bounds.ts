// Bounds an XLSX before any XML in it is expanded into strings: the whole upload is small (the upload limit),
// but one shared string or cell can inflate to hundreds of megabytes. Each ZIP entry is inflated as a stream,
// counting its bytes and the longest run of text between two tags, and the file is refused past either cap.
import { createInflateRaw } from 'node:zlib';
import { Readable } from 'node:stream';

/** Excel's own limit for a cell is 32 767 characters; escaped as XML (&amp;, UTF-8) a run can be a few times longer. */
export const MAX_TEXT_RUN_BYTES = 32_767 * 6;
/** All the file's XML together, once inflated. */
export const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;

/**
 * The sheet's values as the rows hand them on: every cell counts 1 plus the characters of its text. The XML is bounded
 * above, but one shared string referenced by every cell multiplies: 30 000 characters × 200 000 cells are 6 billion
 * characters to check and upper-case from a 254 KB file. A real catalogue (200 000 rows of some 15 short cells) is below
 * half of this.
 */
export const MAX_SHEET_TEXT = 40_000_000;
/** Excel's last column (XFD): a reference beyond it would make a row of millions of empty cells. */
export const MAX_COLUMNS = 16_384;

export type BoundsProblem = 'unreadable' | 'cell' | 'expanded' | 'text';

/** A bound crossed while the sheet is read (as opposed to an archive or XML the reader does not understand). */
export class XlsxBoundsError extends Error {
  constructor(readonly problem: BoundsProblem) {
    super(`XLSX bound: ${problem}`);
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  dataStart: number;
}

/** The archive's entries from its central directory; undefined when it is not a ZIP this reader understands. */
export function zipEntries(file: Buffer): ZipEntry[] | undefined {
  // End of central directory: the last signature within the final 64 KiB + 22 bytes.
  const from = Math.max(0, file.length - 65_557);
  let eocd = -1;
  for (let i = file.length - 22; i >= from; i--) {
    if (file.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = file.readUInt16LE(eocd + 10);
  let at = file.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== 0x02014b50) return undefined;
    const method = file.readUInt16LE(at + 10);
    const compressedSize = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    const local = file.readUInt32LE(at + 42);
    if (local + 30 > file.length || file.readUInt32LE(local) !== 0x04034b50) return undefined;
    const dataStart = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    if (dataStart + compressedSize > file.length) return undefined;
    out.push({ name: file.toString('utf8', at + 46, at + 46 + nameLength), method, compressedSize, dataStart });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}

/** An entry's content, inflated one chunk at a time as it is read (stored or deflated entries). */
export async function* entryChunks(file: Buffer, entry: ZipEntry): AsyncGenerator<Buffer> {
  if (entry.method !== 0 && entry.method !== 8) throw new Error(`ZIP compression method ${entry.method}`);
  const data = file.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === 0) {
    yield data;
    return;
  }
  const inflater = createInflateRaw();
  try {
    yield* Readable.from([data]).pipe(inflater) as AsyncIterable<Buffer>;
  } finally {
    inflater.destroy();
  }
}

/** undefined when the file stays within bounds, else why not. Memory use is one inflated chunk at a time. */
export async function checkXlsxBounds(file: Buffer): Promise<BoundsProblem | undefined> {
  const list = zipEntries(file);
  if (!list) return 'unreadable';
  let total = 0;
  for (const entry of list) {
    if (entry.method !== 0 && entry.method !== 8) return 'unreadable';
    let run = 0;
    try {
      for await (const chunk of entryChunks(file, entry)) {
        total += chunk.length;
        if (total > MAX_EXPANDED_BYTES) return 'expanded';
        // The longest stretch without '<' is the longest text (or tag) in the XML.
        let start = 0;
        for (let lt = chunk.indexOf(0x3c, start); ; lt = chunk.indexOf(0x3c, start)) {
          run += (lt < 0 ? chunk.length : lt) - start;
          if (run > MAX_TEXT_RUN_BYTES) return 'cell';
          if (lt < 0) break;
          run = 0;
          start = lt + 1;
        }
      }
    } catch {
      return 'unreadable';
    }
  }
  return undefined;
}

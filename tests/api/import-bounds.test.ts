// The XLSX import is bounded in memory: a small file holding one huge shared string is refused before it is expanded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeflateRaw } from 'node:zlib';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';
import { checkXlsxBounds } from '../../src/server/domains/autostoriche/xlsx-bounds.ts';

let t: TestApp;
let admin: string;

async function deflate(parts: Iterable<Buffer>): Promise<Buffer> {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflater.on('end', resolve));
  for (const part of parts) if (!deflater.write(part)) await new Promise((resolve) => deflater.once('drain', resolve));
  deflater.end();
  await done;
  return Buffer.concat(out);
}

/** A ZIP (deflated entries) built by hand: enough of an XLSX for the bounds check, which runs first. */
async function zip(files: Array<{ name: string; parts: Iterable<Buffer> }>): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const data = await deflate(file.parts);
    const name = Buffer.from(file.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18); local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0); header.writeUInt16LE(20, 4); header.writeUInt16LE(20, 6); header.writeUInt16LE(8, 10);
    header.writeUInt32LE(data.length, 20); header.writeUInt16LE(name.length, 28); header.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0); eocd.writeUInt16LE(files.length, 8); eocd.writeUInt16LE(files.length, 10);
  eocd.writeUInt32LE(cd.length, 12); eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

function* hugeSharedString(megabytes: number): Generator<Buffer> {
  yield Buffer.from('<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>');
  const mb = Buffer.alloc(1024 * 1024, 'A');
  for (let i = 0; i < megabytes; i++) yield mb;
  yield Buffer.from('</t></si></sst>');
}

function upload(content: Buffer) {
  const boundary = '----bounds';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bomba.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.call('POST', '/api/autostoriche/import', { token: admin, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(() => t?.close());

describe('XLSX import bounds', () => {
  it('refuses a 150 MB shared string in a small file without expanding it', async () => {
    const file = await zip([
      { name: '[Content_Types].xml', parts: [Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')] },
      { name: 'xl/sharedStrings.xml', parts: hugeSharedString(150) },
      { name: 'xl/worksheets/sheet1.xml', parts: [Buffer.from('<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>')] },
    ]);
    expect(file.length).toBeLessThan(400 * 1024);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const res = await upload(file);
    const grown = process.memoryUsage().rss - before;
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors.file[0]).toMatch(/testo troppo lungo per una cella/);
    // The file is inflated a chunk at a time: nowhere near the 150 MB (×2 as a JavaScript string) it holds.
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    expect((await t.call('GET', '/api/autostoriche?per_page=1', { token: admin })).body.total).toBe(0);
  });

  it('accepts long but legal cells and refuses broken archives', async () => {
    const ok = await zip([{ name: 'xl/sharedStrings.xml', parts: [Buffer.from(`<sst><si><t>${'B'.repeat(32_767)}</t></si></sst>`)] }]);
    expect(await checkXlsxBounds(ok)).toBeUndefined();
    expect(await checkXlsxBounds(Buffer.from('PK\u0003\u0004 not really a zip'))).toBe('unreadable');
  });
});

// The XLSX import is bounded in memory: a small file holding one huge shared string is refused before it is expanded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';
import { checkXlsxBounds } from '../../src/server/domains/autostoriche/xlsx-bounds.ts';
import { zip } from '../unit/support/zip.ts';

let t: TestApp;
let admin: string;

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

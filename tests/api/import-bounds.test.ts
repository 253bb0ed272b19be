// The XLSX import is bounded in memory and in work: a small file holding one huge shared string is refused before it is
// expanded, and one referencing a long string over and over is refused while the server keeps answering.
import type { AddressInfo } from 'node:net';
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

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

function multipartOf(content: Buffer, filename = 'bomba.xlsx') {
  const boundary = '----bounds';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function upload(content: Buffer) {
  return t.call('POST', '/api/autostoriche/import', { token: admin, ...multipartOf(content) });
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

  it('refuses a 30 000-character shared string referenced 200 000 times quickly, /api/health answering meanwhile', async () => {
    const strings = `<sst ${MAIN}><si><t>marca</t></si><si><t>modello</t></si><si><t>${'A'.repeat(30_000)}</t></si></sst>`;
    function* sheet(): Generator<Buffer> {
      yield Buffer.from(`<worksheet ${MAIN}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>`);
      // Rows and cells without their optional references: 100 000 rows of two cells pointing at the long string.
      const rows = Buffer.from('<row><c t="s"><v>2</v></c><c t="s"><v>2</v></c></row>'.repeat(1000));
      for (let n = 0; n < 100; n++) yield rows;
      yield Buffer.from('</sheetData></worksheet>');
    }
    const file = await zip([
      { name: 'xl/sharedStrings.xml', parts: [Buffer.from(strings)] },
      { name: 'xl/worksheets/sheet1.xml', parts: sheet() },
    ]);
    expect(file.length).toBeLessThan(400 * 1024);

    // The model validator is compiled on the first row ever read (some 100 ms, once per process): not what is measured.
    const warm = await t.call('POST', '/api/autostoriche/import', { token: admin, ...multipartOf(Buffer.from('marca;modello\nFIAT;\n'), 'prova.csv') });
    expect(warm.status).toBe(422);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/api/health`)).status).toBe(200); // the client's first connection, not measured
    const { body, headers } = multipartOf(file);
    const started = performance.now();
    let answered = 0;
    const importing = fetch(`${base}/api/autostoriche/import`, { method: 'POST', body, headers: { ...headers, authorization: `Bearer ${admin}` } })
      .then(async (res) => ((answered = performance.now() - started), { status: res.status, body: await res.json() }));
    // The health check, one after another, for as long as the import runs (and at least a few times).
    const latencies: number[] = [];
    let done = false;
    void importing.finally(() => (done = true));
    while (!done || latencies.length < 5) {
      const at = performance.now();
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      latencies.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (performance.now() - started > 120_000) break;
    }
    const res = await importing;
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(422);
    expect(res.body.errors.file[0]).toMatch(/troppo testo/);
    expect(answered).toBeLessThan(8000);
    expect(Math.max(...latencies), `health latencies: ${latencies.map((l) => Math.round(l)).join(', ')}`).toBeLessThan(200);
    expect((await t.call('GET', '/api/autostoriche?per_page=1', { token: admin })).body.total).toBe(0);
  }, 150_000);

  it('accepts long but legal cells and refuses broken archives', async () => {
    const ok = await zip([{ name: 'xl/sharedStrings.xml', parts: [Buffer.from(`<sst><si><t>${'B'.repeat(32_767)}</t></si></sst>`)] }]);
    expect(await checkXlsxBounds(ok)).toBeUndefined();
    expect(await checkXlsxBounds(Buffer.from('PK\u0003\u0004 not really a zip'))).toBe('unreadable');
  });
});

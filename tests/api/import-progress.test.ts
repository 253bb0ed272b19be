// The model import reports its progress as it reads (progress=1: NDJSON lines {letti, validi}, then the outcome);
// a refused file changes nothing and says why in the last line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import path from 'node:path';
import { ADMIN, ROOT, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await t?.close();
});

function multipart(filename: string, content: Buffer, cancella = '1') {
  const boundary = `----progress${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cancella"\r\n\r\n${cancella}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function importWithProgress(filename: string, content: Buffer) {
  const { body, headers } = multipart(filename, content);
  const res = await t.app.inject({ method: 'POST', url: '/api/autostoriche/import?progress=1', payload: body, headers: { ...headers, authorization: `Bearer ${admin}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
  return res.body.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function count(): Promise<number> {
  return (await t.call('GET', '/api/autostoriche?per_page=1', { token: admin })).body.total;
}

describe('import progress', () => {
  it('streams rows read and valid, then the outcome', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => `Fiat;500 F serie ${i};499;;;;1965;1972;6500;4500;2800,50;Berlina;A;ASI;verde`);
    const catalogue = Buffer.from(['marca;modello;cilindrata;cilindrata_da;cilindrata_a;anno;anno_da;anno_a;valore_a;valore_b;valore_c;nome_tipologia;tipologia;convenzione;colore', ...rows].join('\n'));
    const lines = await importWithProgress('catalogo.csv', catalogue);
    const steps = lines.filter((l) => !l.fine);
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ fine: true, status: 200 });
    expect(steps.length).toBeGreaterThan(3);
    expect(last.imported).toBe(1200);
    // Counts only grow, and the last step reports every row.
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.letti as number).toBeGreaterThanOrEqual(steps[i - 1]!.letti as number);
    expect(steps.at(-1)).toMatchObject({ letti: last.imported, validi: last.imported });
    expect(await count()).toBe(last.imported);
  });

  it('a refused file ends with its 422 and the rows, and changes nothing', async () => {
    const before = await count();
    const lines = await importWithProgress('errato.csv', await readFile(path.join(ROOT, 'tests', 'fixtures', 'autostoriche-bad-row.csv')));
    expect(lines.at(-1)).toMatchObject({ fine: true, status: 422, message: expect.stringMatching(/^Importazione annullata/) });
    expect(Array.isArray(lines.at(-1)!.rejected)).toBe(true);
    expect(await count()).toBe(before);
  });

  it('a client that goes away cancels the import, while reading or once every row is read: nothing changes', async () => {
    const header = 'marca;modello;cilindrata;cilindrata_da;cilindrata_a;anno;anno_da;anno_a;valore_a;valore_b;valore_c;nome_tipologia;tipologia;convenzione;colore';
    const kept = Array.from({ length: 3 }, (_, i) => `Alfa Romeo;Giulia tenuta ${i};1570;;;;1965;1972;6500;4500;2800,50;Berlina;A;ASI;verde`);
    expect((await importWithProgress('catalogo.csv', Buffer.from([header, ...kept].join('\n')))).at(-1)).toMatchObject({ status: 200 });
    expect(await count()).toBe(kept.length);
    const rows = Array.from({ length: 20000 }, (_, i) => `Lancia;Fulvia annullata ${i};1298;;;;1965;1972;6500;4500;2800,50;Coupé;A;ASI;verde`);
    // "cancella" = 1: a committed import would first wipe the catalogue.
    const { body, headers } = multipart('annullato.csv', Buffer.from([header, ...rows].join('\n')));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const busy = async () => Number((await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`.execute(t.connection.db)).rows[0]!.n);

    /** Sends the whole file, reads the progress lines and closes the connection at the first one `leave` accepts. */
    const abandon = (leave: (step: { letti: number; fine?: boolean }) => boolean) =>
      new Promise<{ letti: number; fine?: boolean }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/api/autostoriche/import?progress=1', method: 'POST', headers: { ...headers, 'content-length': body.length, authorization: `Bearer ${admin}` } }, (res) => {
          let buffered = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buffered += chunk;
            const lines = buffered.split('\n');
            buffered = lines.pop()!;
            const step = lines.map((l) => JSON.parse(l) as { letti: number; fine?: boolean }).find((l) => l.fine || leave(l));
            if (!step) return;
            req.destroy();
            resolve(step);
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
        req.end(body);
      });

    // Closing the page while the file is read; then after the last row, when only the writing and the commit are left.
    for (const leave of [(s: { letti: number }) => s.letti > 0, (s: { letti: number }) => s.letti === rows.length]) {
      const step = await abandon(leave);
      expect(step.fine, 'the import ended before the client left').toBeUndefined();
      // The server notices the closed connection and rolls back; wait until its work is over.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await expect.poll(busy, { timeout: 15_000 }).toBe(0);
      expect(await count()).toBe(kept.length);
      const stored = await t.call('GET', '/api/autostoriche?per_page=10&sort=id', { token: admin });
      expect(stored.body.data.map((m: { modello: string }) => m.modello.toUpperCase())).toEqual(kept.map((k) => k.split(';')[1]!.toUpperCase()));
    }
  });
});

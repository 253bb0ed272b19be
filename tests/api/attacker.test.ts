// Issue 29, found by an attacker: memory without a login, a refused upload on a keep-alive connection, parallel password
// guessing. Against a listening server where the socket matters.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ config: { LOGIN_SLOW_BASE_MS: 200 } });
  admin = await t.login(ADMIN.email, ADMIN.password);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

interface Answer { status: number; body: string; socket: unknown; ms: number }

/** One request on `agent`, the body written in 64 KB chunks; the answer as soon as it ends (the upload may still be writing). */
function send(agent: http.Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  // A request queued behind a stalled socket has no socket of its own to time out: a timer of its own bounds it.
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${method} ${path}: no answer in 10 s`)), 10_000); });
  return Promise.race([late, answer(agent, method, path, headers, body, started)]).finally(() => clearTimeout(timer));
}

function answer(agent: http.Agent, method: string, path: string, headers: Record<string, string>, body: Buffer | undefined, started: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), socket: req.socket, ms: Date.now() - started }));
    });
    // After the answer a refused upload's socket may fail (EPIPE, the server closed it): only an error before counts.
    req.on('error', (error) => reject(error));
    if (body) {
      // Written as a browser would, piece by piece: the server may answer before it has read it all.
      let offset = 0;
      const next = () => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + 65536);
          offset += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', next);
        }
        req.end();
      };
      next();
    } else req.end();
  });
}

function multipart(fields: Record<string, string>, file: Buffer) {
  const boundary = `----attacker${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('a refused upload on a keep-alive connection', () => {
  it('the next request on the same agent answers at once', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Refused as soon as the file part starts (no such quotation): most of its 8 MB is still unread.
      const form = multipart({ id: '999999', collection: 'varie', model: 'Quotazione' }, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024, 0x41)]));
      const refused = await send(agent, 'POST', '/api/quotazioni/upload', { authorization: `Bearer ${admin}`, 'content-type': form.type }, form.body);
      expect(refused.status, refused.body).toBe(404);
      const next = await send(agent, 'GET', '/api/user', { authorization: `Bearer ${admin}` });
      expect(next.status).toBe(200);
      expect(next.ms).toBeLessThan(3000);
    } finally {
      agent.destroy();
    }
  });
});

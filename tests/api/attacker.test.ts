// Issue 29, found by an attacker: memory without a login, a refused upload on a keep-alive connection, parallel password
// guessing. Against a listening server where the socket matters.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, userWithRoles, type TestApp } from './helpers.ts';
import { ANONYMOUS_BODY_LIMIT } from '../../src/server/http/security.ts';

let t: TestApp;
let admin: string;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ config: { LOGIN_SLOW_BASE_MS: 200, PUBLIC_RATE_LIMIT_IP: 5 } });
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

describe('memory without a login', () => {
  it('60 bodies of 9 MB at concurrency 20 without a token are refused unread: 413, 429 or 401, and the memory stays put', async () => {
    // One JSON document of 9 MB, shared by every request (the client's copy costs nothing per request).
    const huge = Buffer.from(JSON.stringify({ email: 'nobody@test.it', password: 'wrong-password-1', pad: 'A'.repeat(9 * 1024 * 1024) }));
    const targets = ['/api/login', '/api/cliente/quotazione', '/api/cliente', '/api/nope'];
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const statuses: number[] = [];
    const started = Date.now();
    let next = 0;
    try {
      await Promise.all(Array.from({ length: 20 }, async () => {
        while (next < 60) {
          const url = targets[next++ % targets.length]!;
          const res = await t.app.inject({ method: 'POST', url, payload: huge, headers: { 'content-type': 'application/json' } });
          statuses.push(res.statusCode);
          peak = Math.max(peak, process.memoryUsage().rss);
        }
      }));
    } finally {
      clearInterval(sampler);
    }
    // Read and parsed, these bodies took hundreds of MB (about 27 MB each, 20 at a time); refused unread, a few.
    expect((peak - before) / 1024 / 1024).toBeLessThan(120);
    expect(statuses).toHaveLength(60);
    for (const status of statuses) expect([401, 413, 429]).toContain(status);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a chunked body without a length is cut at the anonymous limit too', async () => {
    const { Readable } = await import('node:stream');
    const body = JSON.stringify({ email: 'nobody@test.it', password: 'x'.repeat(ANONYMOUS_BODY_LIMIT) });
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: Readable.from([Buffer.from(body)]), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).message).toBe('Richiesta troppo grande.');
    // A signed-in user keeps the app's limit: a list preference of 80 KB is taken.
    const value = 'v'.repeat(80 * 1024);
    expect((await t.call('PUT', '/api/preferences/grande', { token: admin, body: { value: value.slice(0, 90_000) } })).status).toBe(200);
  });

  it("the public routes count an address's requests before reading the body: a malformed flood meets 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/cliente/quotazione', remoteAddress: '203.0.113.77', payload: '{"not json', headers: { 'content-type': 'application/json' } });
      statuses.push(res.statusCode);
    }
    // PUBLIC_RATE_LIMIT_IP is 5 in this file.
    expect(statuses.slice(0, 5).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe('parallel password guessing', () => {
  const login = (email: string, password: string, address: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: address, payload: { email, password } });

  it('guesses sent in parallel from many addresses wait their turn one after the other, and the owner still gets in', async () => {
    await userWithRoles(t, admin, { email: 'guessed@test.it', roles: ['staff'] });
    // Ten failures from ten addresses: the account is slowed down from now on (LOGIN_SLOW_BASE_MS is 200 here).
    for (let i = 0; i < 10; i++) expect((await login('guessed@test.it', `wrong-${i}-password`, `192.0.2.${i + 1}`)).statusCode).toBe(422);
    const started = Date.now();
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => login('guessed@test.it', `parallel-${i}-password`, `198.51.100.${i + 1}`)));
    const elapsed = Date.now() - started;
    for (const guess of guesses) expect(guess.statusCode).toBe(422);
    // Side by side they all waited one delay (about 200 ms); queued, ten turns at least 200 ms apart.
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    // Never a refusal for the owner, from their own address.
    const owner = await login('guessed@test.it', 'user-password-1234', '203.0.113.200');
    expect(owner.statusCode, owner.body).toBe(200);
  }, 60_000);

  it("PUT /api/account counts wrong current passwords like logins: the sixth from the same address is refused", async () => {
    const token = await userWithRoles(t, admin, { email: 'account@test.it', roles: ['staff'] });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.call('PUT', '/api/account', { token, body: { password_attuale: `wrong-${i}-password`, password: 'new-password-12345' } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    // The failures are the account's: the login from the same address is refused too, from another one it works.
    expect((await login('account@test.it', 'user-password-1234', '127.0.0.1')).statusCode).toBe(429);
    expect((await login('account@test.it', 'user-password-1234', '203.0.113.201')).statusCode).toBe(200);
  });
});

// npx tsx scripts/bench-upload.ts — uploads a 20 MB PDF to a quotation through the real HTTP route, with each storage
// driver (PostgreSQL, shared directory), timing it and measuring the server process's memory; then downloads it back.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { scratchDatabase } from './bench/lib.ts';
import { forkServer } from './bench/server.ts';

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB) || 20;
const ADMIN_EMAIL = 'bench-upload@local';
const ADMIN_PASSWORD = 'bench-password-1234';
const MB = 1024 * 1024;

/** Streams the file from disk as multipart/form-data (fields first), so the client holds no copy of it. */
function upload(port: number, token: string, id: number, file: string, size: number): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Date.now().toString(16)}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(field('id', String(id)) + field('collection', 'varie') + field('model', 'Quotazione') + field('nome_file', 'grande.pdf')
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="grande.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/api/quotazioni/upload',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file);
    source.on('error', reject);
    source.on('end', () => req.end(tail));
    source.pipe(req, { end: false });
  });
}

/** Downloads and hashes without keeping the bytes. */
function download(port: number, token: string, url: string): Promise<{ status: number; sha256: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (c: Buffer) => { hash.update(c); bytes += c.length; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sha256: hash.digest('hex'), bytes }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function json(port: number, method: string, url: string, token: string | undefined, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  });
  const parsed = await res.json() as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function main(): Promise<void> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()!().catch((error: Error) => console.error(`cleanup failed: ${error.message}`));
  };
  try {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-upload-'));
    await chmod(dir, 0o755);
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let adminUrl: URL;
    if (process.env.DATABASE_URL) {
      adminUrl = new URL(process.env.DATABASE_URL);
    } else {
      const { startEmbedded } = await import('../src/server/db/embedded.ts');
      const embedded = await startEmbedded(path.join(dir, 'db'));
      cleanups.push(() => embedded.stop());
      adminUrl = new URL(embedded.url);
    }
    adminUrl.pathname = '/postgres';

    // A PDF header, then incompressible bytes: SIZE_MB in all.
    const file = path.join(dir, 'grande.pdf');
    const out = createWriteStream(file);
    const hash = createHash('sha256');
    const header = Buffer.from('%PDF-1.7\n');
    out.write(header);
    hash.update(header);
    let written = header.length;
    while (written < SIZE_MB * MB) {
      const chunk = randomBytes(Math.min(MB, SIZE_MB * MB - written));
      hash.update(chunk);
      written += chunk.length;
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const sha = hash.digest('hex');
    console.log(`file: ${(written / MB).toFixed(1)} MB; ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

    for (const storage of ['postgres', 'dir'] as const) {
      const url = await scratchDatabase(adminUrl, `bench_upload_${storage}`, cleanups);
      const server = await forkServer({ DATABASE_URL: url.toString(), MEDIA_STORAGE: storage, MEDIA_DIR: path.join(dir, `media-${storage}`), ADMIN_EMAIL, ADMIN_PASSWORD, FIRMA_POLL_MS: '0' }, { exposeGc: true });
      cleanups.push(() => server.stop());
      const { token } = await json(server.port, 'POST', '/api/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) as { token: string };
      const created = await json(server.port, 'POST', '/api/quotazioni', token, { persona: 'f', nome: 'Bench', cognome: 'Upload', provincia_codice: 'MI' }) as { data: { model: { id: number } } };
      const id = created.data.model.id;
      await json(server.port, 'POST', '/api/quotazioni/cambioStato', token, { id, stato_quotazione_id: 5 });

      const idle = await server.ask('reset');
      const started = performance.now();
      const res = await upload(server.port, token, id, file, written);
      const seconds = (performance.now() - started) / 1000;
      const report = await server.ask('report');
      if (res.status !== 201) throw new Error(`upload ${storage}: ${res.status} ${res.body}`);
      const media = (JSON.parse(res.body) as { data: { media: { url: string; sha256: string } } }).data.media;
      const t1 = performance.now();
      const back = await download(server.port, token, media.url);
      const downSeconds = (performance.now() - t1) / 1000;
      console.log(`${storage}: upload ${seconds.toFixed(2)} s = ${(written / MB / seconds).toFixed(1)} MB/s; server RSS before ${(idle.rss! / MB).toFixed(0)} MB, peak ${(report.peakRss! / MB).toFixed(0)} MB (+${((report.peakRss! - idle.rss!) / MB).toFixed(0)} MB); `
        + `download ${downSeconds.toFixed(2)} s = ${(back.bytes / MB / downSeconds).toFixed(1)} MB/s; sha-256 ${back.sha256 === sha && media.sha256 === sha ? 'matches' : 'DIFFERS'}`);
      await server.stop();
    }
  } finally {
    await cleanup();
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});

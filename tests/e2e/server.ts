// Starts the real server (node --import tsx src/server/main.ts) on a fresh DATA_DIR and stops it again.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface StartedServer {
  url: string;
  dataDir: string;
  /** Stops the server; `keep` leaves its data directory for a restart on it. */
  stop(options?: { keep?: boolean }): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // SIGTERM lets the server stop its embedded PostgreSQL; SIGKILL only if it hangs.
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export async function startServer(name: string, extraEnv: Record<string, string> = {}, existingDataDir?: string): Promise<StartedServer> {
  const dataDir = existingDataDir ?? await mkdtemp(path.join(os.tmpdir(), `bbo-e2e-${name}-`));
  // PostgreSQL runs as user postgres when we are root: it must be able to enter the folder.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 20_000) output = output.slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server ${name} exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`server ${name} did not start within 120 s:\n${output}`);
      if (output.includes('listening on')) {
        const health = await fetch(`${url}/api/health`).catch(() => undefined);
        if (health?.ok) break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (error) {
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    dataDir,
    stop: async ({ keep = false } = {}) => {
      await stopProcess(child);
      if (!keep) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

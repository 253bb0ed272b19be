// Global setup: the built client must exist; start the app server and a second one in maintenance mode.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, startServer } from './server.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    throw new Error('dist/index.html is missing: run `vite build` first (npm run test:e2e does both).');
  }
  process.env.ADMIN_EMAIL ??= 'admin@e2e.test';
  process.env.ADMIN_PASSWORD ??= 'Admin-E2E-Password-2026';
  const env = { ADMIN_EMAIL: process.env.ADMIN_EMAIL, ADMIN_PASSWORD: process.env.ADMIN_PASSWORD };
  const [app, maintenance] = await Promise.all([startServer('app', env), startServer('maintenance', { ...env, MAINTENANCE: '1' })]);
  // Workers inherit the environment of the runner, so the tests find both servers here.
  process.env.E2E_BASE_URL = app.url;
  process.env.E2E_MAINTENANCE_URL = maintenance.url;
  return async () => {
    await Promise.all([app.stop(), maintenance.stop()]);
  };
}

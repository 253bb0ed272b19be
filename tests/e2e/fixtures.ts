// The specs' `test`: each Playwright worker (a process of its own) starts its own app server on its own data, so the
// files run side by side as they would one after another: no spec sees another's records arrive half-way.
import { test as base } from '@playwright/test';
import { startServer, type StartedServer } from './server.ts';

export const test = base.extend<object, { appServer: StartedServer }>({
  appServer: [
    // Playwright reads the fixtures a fixture needs from this pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const env = { ADMIN_EMAIL: process.env.ADMIN_EMAIL!, ADMIN_PASSWORD: process.env.ADMIN_PASSWORD! };
      const server = await startServer(`app-${workerInfo.workerIndex}`, env);
      // helpers.appUrl() and the specs' own URLs read it.
      process.env.E2E_BASE_URL = server.url;
      await use(server);
      await server.stop();
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ appServer }, use) => use(appServer.url),
});

export { expect } from '@playwright/test';

// The Content-Security-Policy the server sends is one the app works under: no violation on any screen.
import { expect, test } from '@playwright/test';
import { appUrl, loginAsAdmin } from './helpers.ts';

const SCREENS = [
  '/dashboard', '/cliente', '/new/cliente', '/modifica/cliente/1', '/collaboratore', '/new/collaboratore', '/compagnia', '/new/compagnia',
  '/modifica/compagnia/1', '/quotazione', '/new/autostoriche', '/auto_storiche', '/new/quotazione', '/modifica/quotazione/1',
  '/utente', '/new/utente', '/email_outbox',
];

test('no Content-Security-Policy violation on any screen', async ({ page }) => {
  test.setTimeout(300_000);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const list = ((window as unknown as { __csp?: string[] }).__csp ??= []);
      list.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const first = await page.goto(appUrl('/login'));
  expect(first?.headers()['content-security-policy']).toMatch(/script-src 'self'( 'unsafe-eval')?;/);
  await loginAsAdmin(page);
  for (const screen of SCREENS) {
    await page.goto(appUrl(screen));
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
    violations.push(...seen.map((v) => `${screen}: ${v}`));
  }
  expect(violations).toEqual([]);
});

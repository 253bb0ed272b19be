// The Content-Security-Policy the server sends is one the app works under: no violation on any screen.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, loginAsAdmin } from './helpers.ts';

const SCREENS = [
  '/dashboard', '/cliente', '/new/cliente', '/modifica/cliente/1', '/collaboratore', '/new/collaboratore', '/compagnia', '/new/compagnia',
  '/modifica/compagnia/1', '/quotazione', '/new/autostoriche', '/auto_storiche', '/new/quotazione', '/modifica/quotazione/1',
  '/utente', '/new/utente', '/email_outbox', '/quotazioni_rca', '/new/quotazioni_rca', '/modifica/quotazioni_rca/1',
];

// Screens that open on a schema form (the fast quotation opens on its customer step, without one).
const FORMS = ['/new/cliente', '/modifica/cliente/1', '/new/collaboratore', '/new/compagnia', '/modifica/compagnia/1', '/new/quotazione', '/modifica/quotazione/1', '/new/utente'];

test('no Content-Security-Policy violation on any screen', async ({ page }) => {
  test.setTimeout(allow(300_000));
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
  // Scripts from the app's own files only: no inline script and no eval (the forms' validators come compiled).
  const policy = first?.headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self';/);
  expect(policy).not.toContain('unsafe-eval');
  await loginAsAdmin(page);
  for (const screen of SCREENS) {
    await page.goto(appUrl(screen));
    await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
    // Forms validate with the validators the server compiled: each form is shown, none stays waiting or failed.
    if (FORMS.includes(screen)) await expect(page.locator('form.schema-form, .schema-form form').first()).toBeVisible();
    await expect(page.getByText(/Impossibile caricare il modulo|Caricamento del modulo/)).toHaveCount(0);
    const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
    violations.push(...seen.map((v) => `${screen}: ${v}`));
  }
  expect(violations).toEqual([]);
});

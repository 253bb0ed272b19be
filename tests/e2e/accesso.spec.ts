// Staff sign-in in Chromium (issue 32): a user enrolled with a code computed in the test logs in with password and
// code; a staff user without verification is taken to the enrolment; 'Password dimenticata?'; single sign-on
// through a real OpenID provider (oidc-provider) on 127.0.0.1.
import { generateSync } from 'otplib';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { admin, appUrl, demoUsers } from './helpers.ts';
import { startServer } from './server.ts';
import { listenProvider } from '../api/support/oidc-provider.ts';

test('enrolled by code, the user logs in with password and code; a wrong code is refused', async ({ page, request }) => {
  const adminToken = ((await (await request.post(appUrl('/api/login'), { data: admin() })).json()) as { token: string }).token;
  const email = `totp.${Date.now()}@accesso.test`;
  const password = 'password-e2e-12345';
  const created = await request.post(appUrl('/api/utente'), {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email, name: 'Verifica Due Passi', password, ruoli: ['staff'] },
  });
  expect(created.status()).toBe(201);
  const token = ((await (await request.post(appUrl('/api/login'), { data: { email, password } })).json()) as { token: string }).token;
  const auth = { Authorization: `Bearer ${token}` };
  const { secret } = (await (await request.post(appUrl('/api/account/mfa/attiva'), { headers: auth, data: { password } })).json()) as { secret: string };
  const step = Math.floor(Date.now() / 30_000);
  // The previous period's code for the enrolment, the current one for the login: each is accepted once.
  const confirmed = await request.post(appUrl('/api/account/mfa/conferma'), { headers: auth, data: { codice: generateSync({ secret, epoch: (step - 1) * 30 }) } });
  expect(confirmed.status()).toBe(200);
  await request.get(appUrl('/api/api_logout'), { headers: auth });

  await page.goto(appUrl('/login'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  const code = page.getByLabel('Codice di verifica');
  await expect(code).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await code.fill('000000' === generateSync({ secret }) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verifica' }).click();
  await expect(page.getByTestId('authentication-error')).toHaveText('Codice non valido.');
  await code.fill(generateSync({ secret, epoch: Math.max(step, Math.floor(Date.now() / 30_000)) * 30 }));
  await page.getByRole('button', { name: 'Verifica' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByText('Verifica Due Passi').first()).toBeVisible();
});

test('a staff user without verification is taken to the enrolment; QR, key and a first code turn it on; the account dialog lists the sessions', async ({ page, request }) => {
  const adminToken = ((await (await request.post(appUrl('/api/login'), { data: admin() })).json()) as { token: string }).token;
  const email = `obbligo.${Date.now()}@accesso.test`;
  const password = 'password-e2e-12345';
  const created = await request.post(appUrl('/api/utente'), {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email, name: 'Obbligo Verifica', password, ruoli: ['staff'] },
  });
  expect(created.status()).toBe(201);

  await page.goto(appUrl('/login'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await expect(page).toHaveURL(/\/attiva-verifica/);
  await expect(page.getByRole('heading', { name: 'Attiva la verifica in due passaggi' })).toBeVisible();
  await page.getByLabel('Password attuale').fill(password);
  await page.getByRole('button', { name: 'Continua' }).click();
  await expect(page.getByRole('img', { name: "Codice QR per l'app di autenticazione" })).toBeVisible();
  const secret = (await page.getByTestId('mfa-chiave').textContent())!.trim();
  await page.getByLabel("Codice di 6 cifre mostrato dall'app").fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Conferma e attiva' }).click();
  await expect(page.getByTestId('codici-recupero').locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: 'Ho conservato i codici' }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  await page.getByRole('button', { name: /Menu utente/ }).click();
  await page.getByRole('button', { name: 'Edit Account' }).click();
  await page.getByRole('tab', { name: 'Verifica in due passaggi' }).click();
  await expect(page.getByTestId('mfa-stato')).toHaveText('La verifica in due passaggi è attiva.');
  await expect(page.getByText('Il tuo ruolo la richiede: non può essere disattivata.')).toBeVisible();
  await page.getByRole('tab', { name: 'Sessioni attive' }).click();
  await expect(page.getByTestId('sessioni-attive').getByText('Questa sessione')).toBeVisible();
});

test("'Password dimenticata?' answers the same for any address", async ({ page }) => {
  await page.goto(appUrl('/login'));
  await page.getByRole('link', { name: 'Password dimenticata?' }).click();
  await expect(page).toHaveURL(/\/reimposta-password/);
  // The login page, with its own 'E-mail', stays on screen until the reset page's code has arrived.
  await expect(page.getByRole('heading', { name: 'Password dimenticata' })).toBeVisible();
  await page.getByLabel('E-mail').fill('nessuno@accesso.test');
  await page.getByRole('button', { name: 'Invia il link' }).click();
  await expect(page.getByRole('status')).toContainText("Se l'indirizzo appartiene a un utente attivo");
});

test("'Accedi con <nome>' goes through a real OpenID provider to the dashboard; an unknown e-mail is refused in Italian", async ({ page }) => {
  test.setTimeout(allow(180_000));
  const provider = await listenProvider();
  const server = await startServer('sso', {
    ADMIN_EMAIL: process.env.ADMIN_EMAIL!, ADMIN_PASSWORD: process.env.ADMIN_PASSWORD!,
    OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_NOME: 'Provider di prova',
  });
  try {
    provider.attach([`${server.url}/api/sso/ritorno`]);
    const staff = demoUsers().find((u) => u.roles.includes('staff'))!;
    const viaProvider = async (login: string) => {
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Accedi con Provider di prova' }).click();
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill('qualsiasi');
      await page.locator('button[type="submit"]').click();
    };
    await viaProvider('sconosciuto@accesso.test');
    await expect(page.getByTestId('authentication-error')).toContainText('nessun utente attivo');
    await page.context().clearCookies();
    await viaProvider(staff.email);
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByText(staff.name).first()).toBeVisible();
  } finally {
    await server.stop();
    await provider.close();
  }
});

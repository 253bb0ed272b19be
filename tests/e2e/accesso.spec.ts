// Two-step verification in Chromium (issue 32): a user enrolled with a code computed in the test logs in with the
// password, then the code on the login page's second step; a wrong code is refused there in Italian.
import { generateSync } from 'otplib';
import { expect, test } from './fixtures.ts';
import { admin, appUrl } from './helpers.ts';

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

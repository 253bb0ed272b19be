// The scheduler's screen for super_admin: each schedule with its times, 'Esegui ora' with its outcome, on and off.
import { expect, test } from './fixtures.ts';
import { appUrl, demoUsers, login, loginAsAdmin } from './helpers.ts';

test("super_admin runs the history's pruning now, sees its outcome, turns it off and on", async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/pianificazioni'));
  await expect(page.getByRole('heading', { level: 1, name: 'Pianificazioni' })).toBeVisible();
  const row = page.getByTestId('pianificazioni').locator('tr[data-nome="potatura_storico"]');
  await expect(row).toContainText('Potatura dello storico');
  await expect(row).toContainText('30 3 * * *');
  // The next run: a moment in DD/MM/YYYY HH:mm.
  await expect(row.locator('td').nth(5)).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

  await row.getByRole('button', { name: 'Esegui ora: Potatura dello storico' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Eseguita: Conservazione senza limite' })).toBeVisible();
  await expect(row.locator('td').nth(4)).toContainText('nessuna voce rimossa');
  await expect(row.locator('td').nth(3)).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

  const toggle = row.getByLabel('Attiva: Potatura dello storico');
  // The switch follows the server's answer, not the click.
  await toggle.click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Pianificazione disattivata.' })).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await expect(row.locator('td').nth(5)).toHaveText('—');
  await toggle.click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Pianificazione attivata.' })).toBeVisible();
  await expect(toggle).toBeChecked();
  await expect(row.locator('td').nth(5)).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
});

test('staff have no schedules screen and the API refuses them', async ({ page }) => {
  const staff = demoUsers().find((u) => u.roles.includes('staff'))!;
  await login(page, staff.email, staff.password);
  await expect(page.locator('.dashboard-card a', { hasText: 'Pianificazioni' })).toHaveCount(0);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  expect((await page.request.get(appUrl('/api/pianificazioni'), { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(403);
});

// /test-component (spec 000 §2, developer tool): the living catalogue of the widget registry, for super_admin only.
import { expect, test } from './fixtures.ts';
import { appUrl, demoUsers, login, loginAsAdmin } from './helpers.ts';

test('super_admin sees every registered widget and cell with its sample, none broken', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/test-component'));
  await expect(page.getByText(/componenti registrati/)).toBeVisible();
  // The engine's widgets and the one a feature registers at start.
  for (const name of ['text', 'currency', 'date', 'fixedRows', 'chip', 'veicoli_storici']) {
    await expect(page.getByRole('heading', { name: new RegExp(`^${name}\\b`) })).toBeVisible();
  }
  await expect(page.getByTestId('cella-money')).toContainText('1.234,50');
  await expect(page.getByText('Errore nel caricamento del componente')).toHaveCount(0);
});

test('other roles get no catalogue', async ({ page }) => {
  const staff = demoUsers().find((u) => u.roles.includes('staff'))!;
  await login(page, staff.email, staff.password);
  await page.goto(appUrl('/test-component'));
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByText(/componenti registrati/)).toHaveCount(0);
});

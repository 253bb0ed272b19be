// A clerk's dead ends, each reproduced: an outbox e-mail whose detail showed nothing, a list grid that took a Tab per
// header cell, a network error read as an empty list.
import { expect, test } from './fixtures.ts';
import { appUrl, loginAsAdmin } from './helpers.ts';

test("an outbox e-mail shows its recipient, subject and text, read-only, with Italian dates", async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/email_outbox'));
  const first = page.locator('.ag-row').first();
  await expect(first).toBeVisible();
  const destinatario = (await first.locator('[col-id="destinatario"]').textContent())!.trim();
  expect(destinatario).toContain('@');
  await first.getByRole('button', { name: /^Modifica / }).click();
  await expect(page).toHaveURL(/\/modifica\/email_outbox\/\d+$/);
  await expect(page.getByLabel('Destinatario')).toHaveValue(destinatario);
  await expect(page.getByLabel('Oggetto')).not.toHaveValue('');
  await expect(page.getByLabel('Testo')).toHaveValue(/\S/);
  await expect(page.getByLabel('Destinatario')).toHaveAttribute('readonly', '');
  // Nothing to type, nothing to save; the way back is named for what it does.
  await expect(page.getByRole('button', { name: 'Aggiorna' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Indietro' })).toBeVisible();
  // A moment reads DD/MM/YYYY HH:mm, never the browser's mm/dd/yyyy.
  await expect(page.getByLabel('Prossimo tentativo')).toHaveValue(/^(\d{2}\/\d{2}\/\d{4} \d{2}:\d{2})?$/);
  await expect(page.locator('input[type="datetime-local"], input[type="date"]')).toHaveCount(0);
});

test('a list grid is one Tab stop: Tab enters it, the arrows move inside, the next Tab leaves it', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/cliente'));
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await page.getByRole('searchbox').focus();
  const inGrid = () => page.evaluate(() => Boolean(document.activeElement?.closest('.ag-root-wrapper')));
  let tabs = 0;
  while (!(await inGrid()) && tabs < 20) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  // The toolbar's buttons (filters, columns, saved filters, export, new) and then the grid.
  expect(tabs).toBeLessThanOrEqual(6);
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell:focus')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  // The row's buttons are reached from its actions cell, not from the page's Tab order.
  await page.keyboard.press('Tab');
  await expect(page.locator('.ag-row[row-index="0"]').getByRole('button', { name: /^Modifica / })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('.ag-row[row-index="0"]').getByRole('button', { name: /^Elimina / })).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await inGrid()).toBe(false);
  await expect(page.getByRole('combobox', { name: 'Righe per pagina' })).toBeFocused();
});

test('a list that cannot load says so, offers to retry, and does not claim it is empty', async ({ page }) => {
  await loginAsAdmin(page);
  await page.route(/\/api\/cliente\?/, (route) => route.abort('connectionfailed'));
  await page.goto(appUrl('/cliente'));
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByText('nessun elemento trovato')).toHaveCount(0);
  await expect(page.getByText(/0 elementi/)).toHaveCount(0);
  await page.unroute(/\/api\/cliente\?/);
  await page.getByRole('button', { name: 'Riprova' }).click();
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test("at 1400 px the vehicles' registry column ('Dati Ania') is in view, the wide table scrolling beside it", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await loginAsAdmin(page);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const quotazioni = (await (await page.request.get(appUrl('/api/quotazioni?per_page=50'), { headers: { Authorization: `Bearer ${token}` } })).json()).data as Array<{ id: number; veicoli_storici?: unknown[] }>;
  const withVehicles = quotazioni.find((q) => (q.veicoli_storici?.length ?? 0) >= 2)!;
  await page.goto(appUrl(`/modifica/quotazione/${withVehicles.id}`));
  const table = page.locator('.veicoli-storici').getByRole('region', { name: 'Veicoli storici' });
  const header = table.getByRole('columnheader', { name: 'Dati Ania' });
  await expect(header).toBeVisible();
  const [box, area] = [await header.boundingBox(), await table.boundingBox()];
  expect(box!.x + box!.width).toBeLessThanOrEqual(area!.x + area!.width + 1);
  expect(box!.x).toBeGreaterThanOrEqual(area!.x);
});

// The definitions studio, through its screens only: a field added to customers shows in their form and list, a rename
// keeps the stored value, and going back to the previous version takes the field away again; no restart.
import { expect, test } from './fixtures.ts';
import { appUrl, loginAsAdmin } from './helpers.ts';
import { expectNoSeriousViolations } from './axe.ts';

test('studio: add a customer field, rename it keeping data, go back to the previous version', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page);
  await page.goto(appUrl('/studio'));
  await expect(page.getByRole('heading', { name: 'Campi' })).toBeVisible();
  await page.getByLabel('Risorsa').selectOption('cliente');
  const before = Number((await page.getByText(/Definizioni in uso: versione \d+/).textContent())!.match(/versione (\d+)/)![1]);
  await expectNoSeriousViolations(page);

  await page.getByRole('button', { name: 'Nuovo campo' }).click();
  await page.getByLabel('Nome tecnico').fill('professione_studio');
  await page.getByLabel('Etichetta').fill('Professione');
  await page.getByLabel('Colonna nella lista').check();
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  const piano = page.getByTestId('studio-piano');
  await expect(piano).toContainText('ALTER TABLE "cliente" ADD COLUMN "professione_studio" text');
  await expectNoSeriousViolations(page);
  await piano.getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 1}` })).toBeVisible();

  // The application, not the studio: the list's column and the form's field, with a value saved.
  await page.goto(appUrl('/cliente?sort=id'));
  await expect(page.getByRole('columnheader', { name: 'Professione' })).toBeVisible();
  await page.getByRole('button', { name: /^Modifica / }).first().click();
  await page.getByLabel('Professione').fill('Restauratore');
  await page.getByRole('button', { name: 'Aggiorna' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: /aggiornat|salvat/i }).first()).toBeVisible();
  const editUrl = page.url();

  // Rename: the stored value follows the field.
  await page.goto(appUrl('/studio'));
  await page.getByLabel('Risorsa').selectOption('cliente');
  await page.getByRole('button', { name: 'Modifica il campo Professione' }).click();
  await page.getByLabel('Nome tecnico').fill('professione');
  await page.getByLabel('Etichetta').fill('Professione svolta');
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  await expect(page.getByTestId('studio-piano')).toContainText('RENAME COLUMN "professione_studio" TO "professione"');
  await page.getByTestId('studio-piano').getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 2}` })).toBeVisible();
  await page.goto(editUrl);
  await expect(page.getByLabel('Professione svolta')).toHaveValue('Restauratore');

  // Back to the version before the field: the form no longer shows it (the column and its data stay in the table).
  await page.goto(appUrl('/studio'));
  await page.getByTestId('studio-versioni').getByRole('row').filter({ has: page.getByRole('cell', { name: String(before), exact: true }) })
    .getByRole('button', { name: 'Ripristina questa versione' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ripristina' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 3}` })).toBeVisible();
  await page.goto(editUrl);
  await expect(page.getByLabel('Cognome')).toBeVisible();
  await expect(page.getByLabel('Professione svolta')).toHaveCount(0);
});

// Accessibility: no serious/critical axe violation on login, customer list and form; every control labelled; keyboard-only flow.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Page } from '@playwright/test';
import { admin, appUrl, expectOnlyRow, gridTo, keyboardCreateCustomer, keyboardLogin, loginAsAdmin, tabTo, uniqueSurname } from './helpers.ts';

/** Every visible input, select and textarea has an accessible name from a label (or aria-label/-labelledby). */
async function expectLabelledControls(page: Page) {
  const unlabelled = await page.$$eval('input:not([type=hidden]), select, textarea', (elements) =>
    elements
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => {
        const control = el as HTMLInputElement;
        const byLabel = control.labels && control.labels.length > 0 && Array.from(control.labels).some((l) => l.textContent?.trim());
        const byAria = control.getAttribute('aria-label')?.trim() || control.getAttribute('aria-labelledby');
        return !byLabel && !byAria;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(unlabelled).toEqual([]);
}

test('login page', async ({ page }) => {
  await page.goto(appUrl('/login'));
  await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await expectLabelledControls(page);
});

test('customer list', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/cliente'));
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await page.getByRole('button', { name: 'Filtri', exact: true }).click();
  await expectNoSeriousViolations(page);
  await expectLabelledControls(page);
});

test('customer form (new and edit, with errors shown)', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/new/cliente'));
  await page.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(page.locator('#root_nome__error')).toHaveText('Campo Obbligatorio.');
  await expectNoSeriousViolations(page);
  await expectLabelledControls(page);
  await page.goto(appUrl('/cliente?sort=id'));
  await page
    .getByRole('button', { name: /^Modifica / })
    .first()
    .click();
  await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).not.toHaveValue('');
  await expectNoSeriousViolations(page);
  await expectLabelledControls(page);
});

test('the whole customer flow works from the keyboard alone', async ({ page }) => {
  test.setTimeout(allow(150_000));
  const surname = uniqueSurname('TASTIERA');
  const { email, password } = admin();

  await keyboardLogin(page, email, password);
  await keyboardCreateCustomer(page, surname);

  // Edit a field and save with Enter.
  await tabTo(page, page.locator('#root_referente'));
  await page.keyboard.type('REFERENTE DA TASTIERA');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice').first()).toBeVisible();

  // Back to the list with the Annulla button, search, then reach the row's buttons with Tab.
  await tabTo(page, page.getByRole('button', { name: 'Annulla' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/cliente$/);
  await tabTo(page, page.getByRole('searchbox'));
  await page.keyboard.type(surname);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`search=${surname}`));
  await expectOnlyRow(page, surname);
  await gridTo(page, page.getByRole('button', { name: `Modifica TECLA ${surname}` }));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Referente')).toHaveValue('REFERENTE DA TASTIERA');

  // Delete from the list: Tab to Elimina, confirm in the dialog with the keyboard.
  await tabTo(page, page.getByRole('button', { name: 'Annulla' }), { back: true });
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('searchbox'));
  await page.keyboard.type(surname);
  await page.keyboard.press('Enter');
  await expectOnlyRow(page, surname);
  await gridTo(page, page.getByRole('button', { name: `Elimina TECLA ${surname}` }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText("Conferma l'eliminazione");
  // Focus starts on the safe choice; Tab moves to Elimina.
  await expect(dialog.getByRole('button', { name: 'Annulla' })).toBeFocused();
  await tabTo(page, dialog.getByRole('button', { name: 'Elimina' }));
  await page.keyboard.press('Enter');
  await expect(page.locator('.ag-row', { hasText: surname })).toHaveCount(0);
  await expect(page.locator('.ag-overlay-no-rows-center')).toHaveText('nessun elemento trovato');
});

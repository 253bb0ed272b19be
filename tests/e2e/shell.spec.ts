// Shell: menu per role, dashboard cards, session expiry (401), maintenance (503), 404 alert, route splitting.
import { expect, test } from './fixtures.ts';
import { admin, appUrl, demoUsers, login, loginAsAdmin, menuTitles } from './helpers.ts';

test.describe('menu per role', () => {
  for (const user of demoUsers()) {
    test(`${user.roles.join(',')} (${user.email}) sees only its menu entries`, async ({ page }) => {
      await login(page, user.email, user.password);
      await expect(menuTitles(page)).toHaveText(user.expectedMenu);
      // The user menu shows who is logged in; Esci ends the session.
      await page.getByRole('button', { name: /Menu utente/ }).click();
      await expect(page.getByText(user.email)).toBeVisible();
      await page.getByRole('button', { name: 'Esci' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto(appUrl('/dashboard'));
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test('super_admin sees every entry of the menu, users included', async ({ page }) => {
    await loginAsAdmin(page);
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    const response = await page.request.get(appUrl('/api/definitions'), { headers: { Authorization: `Bearer ${token}` } });
    const { menu } = (await response.json()) as { menu: Array<{ title: string; order?: number }> };
    const expected = [...menu].sort((a, b) => (a.order ?? 0) - (b.order ?? 0)).map((m) => m.title);
    expect(expected).toEqual(expect.arrayContaining(['Dashboard', 'Clienti', 'Utenti']));
    await expect(menuTitles(page)).toHaveText(expected);
  });
});

test('wrong password shows the server message under the authentication key', async ({ page }) => {
  await page.goto(appUrl('/login'));
  await page.getByLabel('E-mail').fill(admin().email);
  await page.getByLabel('Password').fill('password-sbagliata');
  await page.getByRole('button', { name: 'Accedi' }).click();
  await expect(page.getByTestId('authentication-error')).not.toBeEmpty();
  await expect(page).toHaveURL(/\/login$/);
});

test("dashboard shows the specification's eight cards, the history, the schedules and the expiry calendar, each leading to its desk", async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/'));
  const cards = page.locator('.dashboard-card a');
  await expect(cards).toHaveText(
    ['Prodotti', 'Appendici', 'Track Gestione Documenti', 'Estratto Conto', 'Provvigionale', 'Gestione Incassi', 'Quietanze', 'Gestione Documenti', 'Storico', 'Pianificazioni', 'Scadenziario', 'Studio delle definizioni'],
    {
      ignoreCase: true,
    },
  );
  await cards.first().click();
  await expect(page).toHaveURL(/\/prodotti$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Prodotti a Mandato');
  await expect(page).toHaveTitle('Prodotti a Mandato - Broker Back Office');
});

test('an invalid token (401) lands on /login with the session-expired text', async ({ page }) => {
  await page.goto(appUrl('/login'));
  await page.evaluate(() => sessionStorage.setItem('token', 'token-scaduto-o-inventato'));
  await page.goto(appUrl('/cliente'));
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Sessione scaduta. Effettua nuovamente il login.')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
});

test('the literal text "undefined" counts as no token', async ({ page }) => {
  await page.goto(appUrl('/login'));
  await page.evaluate(() => sessionStorage.setItem('token', 'undefined'));
  await page.goto(appUrl('/cliente'));
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Sessione scaduta')).toHaveCount(0);
});

test('a missing record shows the 404 alert', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/modifica/cliente/987654'));
  await expect(page.getByRole('alert')).toContainText('[404] risorsa non trovata');
});

test('the login route loads neither AG Grid nor rjsf', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text());
  });
  await page.goto(appUrl('/login'));
  await expect(page.getByRole('button', { name: 'Accedi' })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  for (const code of scripts) {
    expect(code).not.toContain('ag-root-wrapper');
    expect(code).not.toContain('rjsf-field');
  }
});

test.describe('maintenance mode', () => {
  const maintenanceUrl = (p: string) => new URL(p, process.env.E2E_MAINTENANCE_URL).toString();

  test('the login page shows the banner instead of the form', async ({ page }) => {
    await page.goto(maintenanceUrl('/login'));
    await expect(page.getByTestId('maintenance-banner')).toContainText('Sito in aggiornamento');
    await expect(page.getByRole('button', { name: 'Accedi' })).toHaveCount(0);
    await expect(page.getByLabel('E-mail')).toHaveCount(0);
  });

  test('a 503 from the API sends the user to /manutenzione', async ({ page }) => {
    await page.goto(maintenanceUrl('/login'));
    await page.evaluate(() => sessionStorage.setItem('token', 'qualsiasi'));
    await page.goto(maintenanceUrl('/cliente'));
    await expect(page).toHaveURL(/\/manutenzione$/);
    await expect(page.getByRole('heading', { name: 'Sito in aggiornamento' })).toBeVisible();
  });
});

test('Edit Account changes the own name and reports a wrong current password under its field', async ({ page }) => {
  const user = demoUsers().find((u) => u.roles.includes('collaboratore'))!;
  await login(page, user.email, user.password);
  const openAccount = async () => {
    await page.getByRole('button', { name: /Menu utente/ }).click();
    await page.getByRole('button', { name: 'Edit Account' }).click();
    return page.getByRole('dialog', { name: 'Modifica account' });
  };
  let dialog = await openAccount();
  await dialog.getByLabel('Password attuale').fill('non-e-la-mia');
  await dialog.getByLabel('Nuova password', { exact: true }).fill('Una-Nuova-Password-2026');
  await dialog.getByLabel('Conferma nuova password').fill('Una-Nuova-Password-2026');
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(dialog.locator('#account-current-error')).not.toBeEmpty();
  await dialog.getByRole('button', { name: 'Annulla' }).click();

  dialog = await openAccount();
  await dialog.getByLabel('Nome').fill(`${user.name} Jr`);
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Menu utente/ })).toContainText(`${user.name} Jr`);

  // Put the name back for the other tests.
  dialog = await openAccount();
  await dialog.getByLabel('Nome').fill(user.name);
  await dialog.getByRole('button', { name: 'Salva' }).click();
  await expect(page.getByRole('button', { name: /Menu utente/ })).toContainText(user.name);
});

// The change history on a record's card: an edit shows as 'Campo: prima → dopo' with who made it, and 'Ripristina'
// (after its question) writes the earlier value back through the server's rules and shows it in the form.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, demoUsers, draftThroughApi, login, loginAsAdmin, uniqueSurname } from './helpers.ts';

const IBAN_1 = 'IT60X0542811101000000123456';
const IBAN_2 = 'IT07X0542811101000000654321';

test("a customer's IBAN changed is in the Storico tab with who changed it, and restored into the form", async ({ page }) => {
  await loginAsAdmin(page);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const created = await page.request.post(appUrl('/api/cliente'), {
    headers: { Authorization: `Bearer ${token}` },
    data: { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome: uniqueSurname('STORICO'), IBAN: IBAN_1 },
  });
  expect(created.status()).toBe(201);
  const id = Number((await created.json()).data.model.id);
  const me = String(await page.getByRole('button', { name: /^Menu utente / }).getAttribute('aria-label')).replace('Menu utente ', '');

  await page.goto(appUrl(`/modifica/cliente/${id}`));
  const iban = page.getByRole('textbox', { name: 'IBAN', exact: true });
  await expect(iban).toHaveValue(IBAN_1);
  await iban.fill(IBAN_2);
  await page.getByRole('button', { name: 'Aggiorna' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: /aggiornat|salvat/i })).toBeVisible();

  await page.getByRole('tab', { name: 'Storico', exact: true }).click();
  const timeline = page.getByTestId('storico').locator(':scope > li');
  await expect(timeline.first()).toContainText(`IBAN: ${IBAN_1} → ${IBAN_2}`);
  await expect(timeline.first()).toContainText(me);
  // The creation is there too, and cannot be 'restored' (a delete is not an edit's undo).
  await expect(timeline.last()).toContainText('Creazione');
  await expect(timeline.last().getByRole('button', { name: 'Ripristina' })).toHaveCount(0);

  await timeline.first().getByRole('button', { name: 'Ripristina' }).click();
  const question = page.getByRole('dialog', { name: 'Ripristina' });
  await expect(question).toContainText('Ripristinare i valori precedenti alla modifica del');
  await question.getByRole('button', { name: 'Ripristina' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Valori ripristinati.' })).toBeVisible();
  await expect(timeline.first()).toContainText('Ripristino');
  await expect(timeline.first()).toContainText(`IBAN: ${IBAN_2} → ${IBAN_1}`);

  await page.getByRole('tab', { name: 'Dati Cliente', exact: true }).click();
  await expect(iban).toHaveValue(IBAN_1);
  const stored = await page.request.get(appUrl(`/api/cliente/${id}`), { headers: { Authorization: `Bearer ${token}` } });
  expect((await stored.json()).data.IBAN).toBe(IBAN_1);
});

test("the quotation screen's Storico tab shows a premium change as the form shows money", async ({ page }) => {
  const mario = demoUsers().find((u) => u.email === 'mario.rossi@demo.broker.it')!;
  await login(page, mario.email, mario.password);
  const id = await draftThroughApi(page, /^500 F/, uniqueSurname('STORICO'), { competenze: 10 });
  const headers = { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
  const { version } = (await (await page.request.get(appUrl(`/api/quotazioni/${id}`), { headers })).json()).data;
  expect((await page.request.put(appUrl(`/api/quotazioni/${id}`), { headers, data: { competenze: 20, version } })).status()).toBe(200);

  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  await page.getByRole('tab', { name: 'Storico', exact: true }).click();
  const timeline = page.getByRole('region', { name: 'Storico', exact: true }).locator('ol > li');
  await expect(timeline.first()).toContainText(/Competenze: 10,00\s€ → 20,00\s€/);
  await expect(timeline.first()).toContainText('Mario Rossi');
});

test("the Storico desk: a reference reads by its record's label, filters by archive and record, and a deleted record comes back", async ({ page }) => {
  test.setTimeout(allow(120_000));
  await loginAsAdmin(page);
  const headers = { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
  const collaboratori = (await (await page.request.get(appUrl('/api/collaboratore?per_page=5&sort=id'), { headers })).json()).data as Array<{ id: number; nome: string | null; cognome: string | null }>;
  const nome = (c: { nome: string | null; cognome: string | null }) => [c.nome, c.cognome].filter(Boolean).join(' ');
  const [primo, secondo] = collaboratori;
  const cognome = uniqueSurname('DESK');
  const created = await page.request.post(appUrl('/api/cliente'), { headers, data: { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome, collaboratore_id: primo!.id } });
  expect(created.status()).toBe(201);
  const { id, version } = (await created.json()).data.model as { id: number; version: number };
  expect((await page.request.put(appUrl(`/api/cliente/${id}`), { headers, data: { collaboratore_id: secondo!.id, version } })).status()).toBe(200);
  const change = `Collaboratore: ${nome(primo!)} → ${nome(secondo!)}`;

  // The card's timeline names the collaborators, not their ids.
  await page.goto(appUrl(`/modifica/cliente/${id}`));
  await page.getByRole('tab', { name: 'Storico', exact: true }).click();
  await expect(page.getByTestId('storico').locator(':scope > li').first()).toContainText(change);

  // The desk, narrowed to this customer.
  await page.goto(appUrl('/storico'));
  await expect(page.getByRole('heading', { level: 1, name: 'Storico' })).toBeVisible();
  await page.getByRole('button', { name: 'Filtri', exact: true }).click();
  await page.getByLabel('Archivio').selectOption({ label: 'Clienti' });
  await page.getByLabel('Record').fill(String(id));
  await page.getByLabel('Record').press('Enter');
  const rows = page.locator('.ag-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(change);
  await expect(rows.first()).toContainText('Modifica');
  await expect(rows.last()).toContainText('Creazione');

  // Deleted, then brought back from its 'Eliminazione' entry.
  expect((await page.request.delete(appUrl(`/api/cliente/${id}`), { headers })).status()).toBe(200);
  await page.reload();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Eliminazione');
  await rows.first().getByRole('button', { name: /^Ripristina / }).click();
  const question = page.getByRole('dialog', { name: 'Ripristina' });
  await expect(question).toContainText(`n. ${id}`);
  await question.getByRole('button', { name: 'Ripristina' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Valori ripristinati.' })).toBeVisible();
  await expect(rows).toHaveCount(4);
  const back = await page.request.get(appUrl(`/api/cliente/${id}`), { headers });
  expect(back.status()).toBe(200);
  expect((await back.json()).data.cognome).toBe(cognome);
});

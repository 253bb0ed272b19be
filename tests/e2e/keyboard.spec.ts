// Keyboard alone: a collaborator creates a customer, then takes a quotation from draft to 'In attesa compilazione
// form' (list → record with Enter, workflow button, confirmation dialog) without the mouse; focus returns after dialogs.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, demoUsers, expectOnlyRow, gridTo, keyboardCreateCustomer, keyboardLogin, tabTo, uniqueSurname } from './helpers.ts';

const MARIO = demoUsers().find((u) => u.email === 'mario.rossi@demo.broker.it')!;

test('keyboard only: create a customer, then a quotation from draft to "In attesa compilazione form"', async ({ page }) => {
  test.setTimeout(allow(120_000));
  const surname = uniqueSurname('TASTO');
  await keyboardLogin(page, MARIO.email, MARIO.password);

  await keyboardCreateCustomer(page, surname);

  // The quotation: a draft for this customer, priced (the insurer's calculation), then only keys.
  const token = (await page.evaluate(() => sessionStorage.getItem('token')))!;
  const headers = { Authorization: `Bearer ${token}` };
  const models = (await (await page.request.get(appUrl('/api/autostoriche/search?filter[marca]=FIAT'), { headers })).json()).data as Array<{ id: number; marca: string; modello: string; anno_da: number }>;
  const model = models.find((m) => /^500 F/.test(m.modello))!;
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers,
    data: {
      persona: 'f', sesso: 'M', nome: 'Tecla', cognome: surname, email: `${surname.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321', provincia_codice: 'RM',
      veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno_da, tipologia_ania: 'A', targa: 'RM000333' }],
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/calcolo'), { headers, data: { id } })).status()).toBe(200);

  // Menu → quotations, search, the row's cell, Enter opens it.
  await tabTo(page, page.getByRole('navigation', { name: 'Menu Rapido' }).getByRole('link', { name: 'RCA Auto Storiche', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/auto_storiche/);
  await tabTo(page, page.getByRole('searchbox'));
  await page.keyboard.type(surname);
  await page.keyboard.press('Enter');
  const row = await expectOnlyRow(page, surname);
  await expect(row.locator('[col-id="stato_quotazione_id"]')).toHaveText('Bozza');
  await gridTo(page, row.locator('[col-id="cognome"]'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/modifica/quotazione/${id}$`));
  await expect(page.getByTestId('stato-quotazione')).toHaveText('Bozza');

  // The workflow button, its confirmation: focus starts on Annulla, Tab to Conferma, Enter.
  const conferma = page.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button', { name: 'Conferma', exact: true });
  await tabTo(page, conferma, { max: 200 });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText("Confermare la quotazione e inviare l'email al cliente?");
  await expect(dialog.getByRole('button', { name: 'Annulla' })).toBeFocused();
  // Escape closes the dialog and gives the focus back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(conferma).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Conferma', exact: true }));
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('stato-quotazione')).toHaveText('In attesa compilazione form');
});

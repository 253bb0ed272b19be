// Registry data on the management screen: staff refresh a vehicle's ANIA data and read it in the full-screen dialog.
import { expect, test } from './fixtures.ts';
import { appUrl, demoUsers, login, uniqueSurname } from './helpers.ts';

const STAFF = demoUsers().find((u) => u.email === 'staff@demo.broker.it')!;

test('staff refresh the ANIA data of a vehicle and read it in the dialog', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const surname = uniqueSurname('ANIA');
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers: { authorization: `Bearer ${token}` },
    data: {
      persona: 'f', sesso: 'M', nome: 'Mario', cognome: surname, cfisc: 'RSSMRA70A01H501S', email: 'ania@esempio.it', telefono: '+39 333 1234567', provincia_codice: 'RM',
      veicoli_storici: [
        { marca: 'LANCIA', modello: 'FULVIA', anno: 1970, targa: 'ZD123AB', tipologia_ania: 'A' },
        { marca: 'FIAT', modello: '500 F', anno: 1968, targa: 'AB12', tipologia_ania: 'A' },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;

  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  const vehicles = page.getByTestId('veicolo-storico');
  await expect(vehicles).toHaveCount(2);
  // A plate of 5 characters or fewer cannot be looked up, and says why.
  await expect(page.getByRole('button', { name: 'Aggiorna dati Ania AB12' })).toBeDisabled();
  await expect(vehicles.nth(1)).toContainText('Devi compilare la targa per aggiornare i dati ania');

  await page.getByRole('button', { name: 'Aggiorna dati Ania ZD123AB' }).click();
  await expect(page.getByText('Dati Ania aggiornati')).toBeVisible();
  await expect(vehicles.first()).toContainText("il codice fiscale indicato dal SIVI non corrisponde a quello del contraente");

  await page.getByRole('button', { name: 'Dati Ania ZD123AB', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /Dati Ania/ });
  await expect(dialog.getByRole('tab', { name: 'Dati Ania' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog).toContainText('LUIGI BIANCHI (BNCLGU60C12F205K)');
  await expect(dialog).toContainText("il codice fiscale dell' avente diritto coincide con il contraente indicato dal sivi");
  await expect(dialog.getByRole('table').nth(1).getByRole('row')).toHaveCount(5);
  await dialog.getByRole('tab', { name: 'Avanzato' }).click();
  await expect(dialog).toContainText('SIVI: codice fiscale');
  await dialog.getByRole('button', { name: 'Chiudi' }).first().click();
  await expect(dialog).toHaveCount(0);

  // Stored on the server: a reload shows the same.
  await page.reload();
  await expect(page.getByTestId('veicolo-storico').first()).toContainText('coincide con il contraente indicato dal sivi');
});

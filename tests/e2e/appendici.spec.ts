// Appendices on an issued policy (spec 001 §2): staff include a vehicle and exclude another; both are listed with their totals.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, demoUsers, login } from './helpers.ts';
import { dataItaliana, giornoIso } from '../../src/shared/dates.ts';

const STAFF = demoUsers().find((u) => u.email === 'staff@demo.broker.it')!;
const DOMANI = dataItaliana(giornoIso(1));

test('staff include a vehicle and exclude another on an issued policy', async ({ page }) => {
  test.setTimeout(allow(120_000));
  await login(page, STAFF.email, STAFF.password);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  // The demo data holds an issued policy waiting for signature (status 9): 'Rita Seconda'.
  const list = await page.request.get(appUrl('/api/quotazioni?search=SECONDA&filter[stato_quotazione_id]=9'), { headers: { authorization: `Bearer ${token}` } });
  const id = (await list.json()).data[0].id as number;
  await page.goto(appUrl(`/modifica/quotazione/${id}`));

  await page.getByRole('tab', { name: 'Inclusione' }).click();
  const inclusione = page.getByTestId('tab-inclusione');
  await inclusione.getByLabel('Data di decorrenza inclusione').fill(DOMANI);
  await inclusione.getByRole('button', { name: 'Scegli il veicolo da includere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Aggiungi veicolo storico' });
  await dialog.getByLabel('Marca').selectOption('FIAT');
  await dialog.getByLabel('Cerca modello').fill('124');
  await dialog.getByRole('radio', { name: /124 SPIDER/ }).check();
  await dialog.getByLabel('Targa', { exact: true }).fill('IN123CL');
  await dialog.getByRole('button', { name: 'Aggiungi', exact: true }).click();
  await expect(inclusione.getByTestId('veicolo-inclusione')).toContainText('IN123CL');
  await inclusione.getByRole('button', { name: 'Calcola' }).click();
  await expect(inclusione.getByTestId('nuovo-premio-annuale')).toContainText('€');
  // The insurer premium is super_admin's (spec 001 §6): staff do not see it; the total follows the competenze in cents.
  await expect(inclusione.getByLabel('Premio compagnia')).toHaveCount(0);
  await expect(inclusione.getByLabel('Spese di emissione')).toHaveValue('15');
  await inclusione.getByLabel('Competenze').fill('10');
  const totale = await inclusione.getByTestId('totale-inclusione').textContent();
  expect(totale).toMatch(/€/);

  // The draft survives a reload.
  await page.reload();
  await page.getByRole('tab', { name: 'Inclusione' }).click();
  await expect(page.getByTestId('veicolo-inclusione')).toContainText('IN123CL');
  await page.getByTestId('tab-inclusione').getByLabel('Competenze').fill('10');
  await expect(page.getByTestId('totale-inclusione')).toHaveText(totale!);

  await page.getByRole('button', { name: 'Preview Appendice di Inclusione' }).click();
  await expect(page.getByText('Nessun rilievo della compagnia.')).toBeVisible();
  await page.getByRole('button', { name: 'Emetti Inclusione' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Emetti Inclusione' }).click();
  await expect(page.getByText('Inclusione Emessa Correttamente')).toBeVisible();
  await expect(page.getByTestId('tab-inclusione').getByTestId('appendici-emesse')).toContainText('IN123CL');

  await page.getByRole('tab', { name: 'Esclusione' }).click();
  const esclusione = page.getByTestId('tab-esclusione');
  await esclusione.getByRole('button', { name: 'Calcola Esclusione DM114AA' }).click();
  await expect(esclusione.getByText('data di decorrenza obbligatoria')).toBeVisible();
  await esclusione.getByLabel('Data di decorrenza esclusione').fill(DOMANI);
  await esclusione.getByRole('button', { name: 'Calcola Esclusione DM114AA' }).click();
  await expect(esclusione.getByRole('region', { name: 'Riepilogo esclusione' })).toContainText('DM114AA');
  await esclusione.getByRole('button', { name: 'Emetti Esclusione' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText("Sicuro di voler emettere l'esclusione");
  await confirm.getByRole('button', { name: 'Emetti Esclusione' }).click();
  await expect(page.getByText('Esclusione avvenuta con successo')).toBeVisible();
  await expect(esclusione.getByRole('row', { name: /DM114AA/ }).first()).toContainText('Veicolo già escluso');

  // Both appendices listed with their totals.
  const emesse = esclusione.getByTestId('appendici-emesse');
  await expect(emesse.getByRole('row')).toHaveCount(3);
  await expect(emesse).toContainText('Inclusione');
  await expect(emesse).toContainText('Esclusione');
  await expect(emesse.getByRole('row', { name: /IN123CL/ })).toContainText(totale!);
});

// Motor-liability fast quotation (spec 002 §2.4, §2.5): existing customer to a priced, updated and confirmed quotation; a new client from step 1 to 4.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { appUrl, demoUsers, login, uniqueSurname } from './helpers.ts';
import { computeCodiceFiscale } from '../../src/shared/validators/codiceFiscale.ts';

const MARIO = demoUsers().find((u) => u.email === 'mario.rossi@demo.broker.it')!;

const selected = (page: Page) => page.getByTestId('garanzie-selezionate').locator('[data-code]');
const stepMarker = (page: Page, n: number) => page.getByRole('list', { name: 'Passi della quotazione' }).getByRole('listitem').nth(n - 1);

async function addCoverage(page: Page, code: string) {
  await page.getByTestId('garanzie-disponibili').getByRole('button', { name: new RegExp(`^Aggiungi ${code} `) }).click();
}

test('existing customer with a daily-use car: P05 pulls in P03 and P04, P14 drops P50 and P51, priced, updated, confirmed', async ({ page }) => {
  await login(page, MARIO.email, MARIO.password);
  await page.getByRole('link', { name: 'RCA', exact: true }).click();
  await expect(page).toHaveURL(/\/quotazioni_rca$/);
  await page.getByRole('button', { name: /Nuov/ }).first().click();
  await expect(page).toHaveURL(/\/new\/quotazioni_rca$/);
  for (const title of ['Seleziona Cliente', 'Quotazione Veloce', 'Garanzie', 'Conferma']) await expect(page.getByText(title, { exact: true })).toBeVisible();
  await expect(stepMarker(page, 1)).toHaveAttribute('data-done', 'false');

  await page.getByLabel('Cognome Nome').fill('greco francesca');
  // Two demo customers share the name: the one with a car on file.
  const row = page.getByRole('table', { name: 'Clienti trovati' }).getByRole('row', { name: /FRANCESCA/ }).filter({ has: page.locator('td:nth-child(6)', { hasText: /^1$/ }) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Seleziona' }).click();
  await expect(page.getByText('Seleziona un veicolo di uso quotidiano')).toBeVisible();
  await expect(page.getByLabel(/GA123BC - Fiat Panda/)).toBeChecked();
  await expectNoSeriousViolations(page, { bestPractice: false });
  await page.getByRole('button', { name: 'Vai Avanti' }).click();

  await expect(page.locator('#rca-dati').getByLabel(/^Targa Veicolo( \*)?$/)).toHaveValue('GA123BC');
  await expect(stepMarker(page, 1)).toHaveAttribute('data-done', 'true');
  await expect(page.locator('#rca-persona').getByLabel(/^Cognome( \*)?$/)).toHaveValue('GRECO');
  await page.getByRole('button', { name: 'Continua' }).click();

  await expect(selected(page)).toHaveCount(1);
  await addCoverage(page, 'P05');
  await expect(selected(page)).toHaveText([/P01/, /P03/, /P04/, /P05/]);
  await addCoverage(page, 'P50');
  await addCoverage(page, 'P51');
  await expect(selected(page).filter({ hasText: /P50|P51/ })).toHaveCount(2);
  await addCoverage(page, 'P14');
  await expect(selected(page)).toHaveText([/P01/, /P03/, /P04/, /P05/, /P14/]);
  await expect(page.getByText('Seleziona una promozione')).toBeVisible();
  await expectNoSeriousViolations(page, { bestPractice: false });

  await page.getByRole('button', { name: 'Richiedi Preventivo' }).click();
  await expect(page).toHaveURL(/\/modifica\/quotazioni_rca\/\d+$/);
  const prices = page.getByTestId('rca-prezzi');
  await expect(prices.locator('tbody tr')).toHaveCount(5);
  await expect(prices.locator('tbody tr[data-code="P14"]')).toContainText('€');
  const first = (await page.getByTestId('rca-simulazione').textContent())!;
  const totalBefore = (await page.getByTestId('rca-totale').textContent())!;
  expect(first).toMatch(/^SIM\d{10}$/);

  // Update: legal protection added, a new simulation with a higher total; a second click while it runs is refused.
  await addCoverage(page, 'P13');
  await page.route('**/api/quixa/FastQuotationFlow/*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Aggiorna Preventivo' }).click();
  await page.getByRole('button', { name: 'Aggiorna Preventivo' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: "Attendere la fine dell'operaione in corso" })).toBeVisible();
  await expect(page.getByTestId('rca-simulazione')).not.toHaveText(first);
  await expect(prices.locator('tbody tr')).toHaveCount(6);
  await expect(page.getByTestId('rca-totale')).not.toHaveText(totalBefore);
  const second = (await page.getByTestId('rca-simulazione').textContent())!;
  // The screen's history: the creation and the update, newest first, with who made them.
  const storico = page.getByTestId('storico').locator(':scope > li');
  await expect(storico.first()).toContainText('Modifica');
  await expect.poll(() => storico.count()).toBeGreaterThanOrEqual(2);
  await expect(storico.last()).toContainText('Creazione');

  await page.unroute('**/api/quixa/FastQuotationFlow/*');
  await page.getByRole('button', { name: 'Continua' }).click();
  await expect(page.getByTestId('rca-conferma-simulazione')).toHaveText(second);
  await page.getByRole('button', { name: 'Conferma Quotazione' }).click();
  await expect(page.getByTestId('rca-proposta')).toContainText(/Proposta inviata: n\. PRP\d{10}/);

  await page.goto(appUrl('/quotazioni_rca'));
  await expect(page.getByRole('gridcell', { name: second })).toBeVisible();
});

test('a new client from step 1 to step 4: person switches, insurer error with details, priced and confirmed as a new customer', async ({ page }) => {
  const cognome = uniqueSurname('FONTANA');
  await login(page, MARIO.email, MARIO.password);
  await page.goto(appUrl('/new/quotazioni_rca'));
  await page.getByText('Nuovo cliente', { exact: true }).click();
  await expect(stepMarker(page, 1)).toHaveAttribute('data-done', 'false');

  const dati = page.locator('#rca-dati');
  const persona = page.locator('#rca-persona');
  const indirizzo = page.locator('#rca-indirizzo');
  await expect(dati.getByLabel('Categoria Veicolo')).toHaveValue(/.+/);
  // Person form: a legal person shows Ragione Sociale and Partita IVA only.
  await persona.getByLabel('Persona Giuridica').check();
  await expect(persona.getByLabel(/^Ragione Sociale( \*)?$/)).toBeVisible();
  await expect(persona.getByLabel(/^Partita IVA( \*)?$/)).toBeVisible();
  await expect(persona.getByLabel(/^Codice Fiscale( \*)?$/)).toHaveCount(0);
  await persona.getByLabel('Maschio').check();
  await expect(persona.getByLabel(/^Codice Fiscale( \*)?$/)).toBeVisible();
  await expect(persona.getByLabel(/^Partita IVA( \*)?$/)).toHaveCount(0);

  const effetto = dati.getByLabel(/^Data Effetto( \*)?$/);
  const oggi = await effetto.inputValue();
  await effetto.fill('01/01/2020');
  await expect(page.locator('#rca-dati')).toContainText('La data è già passata.');
  await effetto.fill(oggi);
  await expectNoSeriousViolations(page, { bestPractice: false });
  await dati.getByLabel(/^Targa Veicolo( \*)?$/).fill('ER000ER');
  await dati.getByLabel(/^Data di Nascita( \*)?$/).fill('14/02/1985');
  await persona.getByLabel(/^Nome( \*)?$/).fill('Tommaso');
  await persona.getByLabel(/^Cognome( \*)?$/).fill(cognome);
  await persona.getByLabel(/^Data di Nascita( \*)?$/).fill('14/02/1985');
  await persona.getByLabel(/^Codice Fiscale( \*)?$/).fill(computeCodiceFiscale({ cognome, nome: 'Tommaso', dataNascita: '1985-02-14', sesso: 'M', codiceCatastale: 'H501' }));
  await indirizzo.getByLabel(/^Indirizzo( \*)?$/).fill('Nazionale');
  await indirizzo.getByLabel(/^Civico( \*)?$/).fill('50');
  await indirizzo.getByLabel(/^Comune( \*)?$/).fill('Roma');
  await page.getByRole('option', { name: 'Roma (RM)', exact: true }).click();
  await indirizzo.getByLabel(/^Cap( \*)?$/).fill('00184');
  await page.locator('#rca-contatto').getByLabel(/^Email( \*)?$/).fill('tommaso.fontana@esempio.it');
  await page.getByRole('button', { name: 'Continua' }).click();

  // The sandbox's declared insurer error: the message, and 'Dettagli' opens 'Errori'.
  await page.getByRole('button', { name: 'Richiedi Preventivo' }).click();
  await expect(page.getByTestId('rca-errore')).toContainText('Errore della compagnia');
  await page.getByRole('button', { name: 'Dettagli' }).click();
  const dialog = page.getByRole('dialog', { name: 'Errori' });
  await expect(dialog).toContainText('VEH-404');
  await dialog.getByRole('button', { name: 'Chiudi' }).last().click();

  // The sandbox's declared tariff refusal: stored, shown as 'Quotazione non disponibile'.
  await page.getByRole('button', { name: 'Indietro' }).click();
  await dati.getByLabel(/^Targa Veicolo( \*)?$/).fill('nd 000 nd');
  await page.getByRole('button', { name: 'Continua' }).click();
  await page.getByRole('button', { name: 'Richiedi Preventivo' }).click();
  await expect(page).toHaveURL(/\/modifica\/quotazioni_rca\/\d+$/);
  await expect(page.getByTestId('rca-non-disponibile')).toContainText('Quotazione non disponibile');
  await page.getByRole('button', { name: 'Continua' }).click();
  await expect(page.getByText('Richiedi prima il preventivo.')).toBeVisible();

  // Back to step 2 with the formatting control: 'FT 777 RX' becomes FT777RX; the update prices it.
  await page.getByRole('button', { name: 'Indietro' }).click();
  await dati.getByLabel(/^Targa Veicolo( \*)?$/).fill('FT 777 RX');
  await expect(dati.getByLabel(/^Targa Veicolo( \*)?$/)).toHaveValue('FT777RX');
  await page.getByRole('button', { name: 'Continua' }).click();
  await page.getByRole('button', { name: 'Aggiorna Preventivo' }).click();
  await expect(page.getByTestId('rca-prezzi').locator('tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: 'Continua' }).click();
  await expect(page.getByText('(nuovo cliente: sarà registrato alla conferma)')).toBeVisible();
  await page.getByRole('button', { name: 'Conferma Quotazione' }).click();
  await expect(page.getByTestId('rca-proposta')).toBeVisible();
  await expect(stepMarker(page, 1)).toHaveAttribute('data-done', 'true');

  // The new client is now a customer of Mario Rossi.
  await page.goto(appUrl('/cliente'));
  await page.getByRole('searchbox').first().fill(`${cognome} tommaso`);
  await expect(page.getByRole('gridcell', { name: cognome, exact: true })).toHaveCount(1);
});

// Issuing a historic-car policy from the management screen (spec 001 §2, §4): Salva Emissione, preview, Emetti, then as super_admin
// renewal, reversal and the Koala resend; every button comes from the machine, every answer from the insurer's sandbox.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Browser, Page } from '@playwright/test';
import { admin, appUrl, demoUsers, login, uniqueSurname, validCodiceFiscale } from './helpers.ts';
import { dataItaliana } from '../../src/shared/dates.ts';

const STAFF = demoUsers().find((u) => u.email === 'staff@demo.broker.it')!;
const OGGI = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

async function session(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, email, password);
  // The app lands on the dashboard after login; navigating before that would be overtaken by it.
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  return page;
}

async function headers(page: Page) {
  return { Authorization: `Bearer ${(await page.evaluate(() => sessionStorage.getItem('token')))!}` };
}

/** A priced quotation moved to 'In attesa di emissione' through the API (manual status change by the super_admin). */
async function inAttesaDiEmissione(page: Page, targa: string): Promise<{ id: number; cognome: string }> {
  const h = await headers(page);
  const models = (await (await page.request.get(appUrl('/api/autostoriche/search?filter[marca]=FIAT'), { headers: h })).json()).data as Array<{ id: number; marca: string; modello: string; anno_da: number }>;
  const model = models.find((m) => /^500/.test(m.modello)) ?? models[0]!;
  const cognome = uniqueSurname('EMISSIONE');
  const created = await page.request.post(appUrl('/api/quotazioni'), { headers: h, data: {
    persona: 'f', nome: 'Anna', cognome, email: `${cognome.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321', cfisc: validCodiceFiscale(), provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno_da, tipologia_ania: 'A', targa }],
  } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/calcolo'), { headers: h, data: { id } })).status()).toBe(200);
  expect((await page.request.post(appUrl('/api/quotazioni/cambioStato'), { headers: h, data: { id, stato_quotazione_id: 7 } })).status()).toBe(200);
  return { id, cognome };
}

/** The same, issued through the API: a policy in 'In attesa di firma'. */
async function emessa(page: Page, targa: string): Promise<{ id: number; numero: string }> {
  const { id } = await inAttesaDiEmissione(page, targa);
  const h = await headers(page);
  expect((await page.request.put(appUrl(`/api/update_quotazione_per_emissione/${id}`), { headers: h, data: { data_incasso: OGGI } })).status()).toBe(200);
  const issued = await (await page.request.post(appUrl(`/api/quotazioni/emetti/${id}?decorrenza=${OGGI}`), { headers: h, data: {} })).json();
  expect(issued.result).toBe(0);
  return { id, numero: issued.verti_policy_number as string };
}

/** Screenshots for a person to look at, only when asked (E2E_SHOTS=folder). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
}

/** Opens a quotation; on a machine this loaded a slow answer may send the app through its maintenance page, so try once more. */
async function apri(page: Page, id: number) {
  for (let attempt = 0; ; attempt++) {
    await page.goto(appUrl(`/modifica/quotazione/${id}`));
    try {
      await expect(page.getByTestId('intestazione-quotazione')).toContainText(`${id}`, { timeout: 20_000 });
      await expect(page).toHaveURL(new RegExp(`/modifica/quotazione/${id}$`));
      return;
    } catch (error) {
      if (attempt >= 1) throw error;
    }
  }
}

function panel(page: Page) {
  return page.getByRole('toolbar', { name: 'Azioni di emissione' });
}

function header(page: Page) {
  return page.getByTestId('intestazione-quotazione');
}

test('staff save the issue data, preview, issue, and find the policy number in the header at status 9', async ({ browser }) => {
  test.setTimeout(allow(120_000));
  const adminPage = await session(browser, admin().email, admin().password);
  const { id, cognome } = await inAttesaDiEmissione(adminPage, 'EM100AA');
  const staff = await session(browser, STAFF.email, STAFF.password);
  await apri(staff, id);
  await expect(staff.getByTestId('stato-quotazione')).toHaveText('In attesa di emissione');
  // Staff may issue: the machine offers Salva Emissione, preview and Emetti, not reversal or Koala.
  await expect(panel(staff).getByRole('button')).toHaveText(['Salva Emissione', 'Preview Emissione', 'Emetti']);

  await panel(staff).getByRole('button', { name: 'Salva Emissione' }).click();
  let dialog = staff.getByRole('dialog');
  // Without the payment receipt day the server refuses at the field: the message under the date, no toast.
  await dialog.getByRole('button', { name: 'Salva Emissione' }).click();
  await expect(dialog.getByText('Indicare la data di incasso del premio: la polizza decorre dalle ore 24:00 di quel giorno.')).toBeVisible();
  await expect(dialog.getByLabel('Data incasso premio')).toHaveAttribute('aria-invalid', 'true');
  await expect(staff.getByTestId('notice')).toHaveCount(0);
  await dialog.getByLabel('Data incasso premio').fill(dataItaliana(OGGI));
  await dialog.getByRole('button', { name: 'Salva Emissione' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(staff.getByTestId('notice').filter({ hasText: "Dati per l'emissione salvati" })).toBeVisible();

  await panel(staff).getByRole('button', { name: 'Preview Emissione' }).click();
  dialog = staff.getByRole('dialog');
  await expect(dialog.getByLabel('Decorrenza')).toHaveValue(dataItaliana(OGGI));
  await dialog.getByRole('button', { name: 'Preview Emissione' }).click();
  await expect(dialog.getByTestId('esito-anteprima')).toContainText('nessun rilievo');
  await expect(dialog.getByTestId('esito-anteprima')).toContainText(/Dalle ore 24:00 del \d\d\/\d\d\/\d{4}/);
  await shot(staff, 'emissione-anteprima');
  await dialog.getByRole('button', { name: 'Annulla' }).click();

  await panel(staff).getByRole('button', { name: 'Emetti' }).click();
  dialog = staff.getByRole('dialog');
  await expect(dialog).toContainText('Sicuro di voler emettere la polizza?');
  // Only a super_admin may switch off the previous-policy check.
  await expect(dialog.getByLabel('Controlla se la polizza precedente è scaduta')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Emetti' }).click();
  // Back to the list with the insurer's answer.
  await expect(staff).toHaveURL(/\/auto_storiche/);
  await expect(staff.getByTestId('notice').filter({ hasText: 'Polizza emessa correttamente' })).toBeVisible();

  await apri(staff, id);
  await expect(staff.getByTestId('stato-quotazione')).toHaveText('In attesa di firma');
  await expect(header(staff)).toContainText(/Numero polizza\s*AS\d{9}/);
  await expect(header(staff)).toContainText('Infodrive id');
  await expect(header(staff)).toContainText(cognome);
  await expect(panel(staff).getByRole('button', { name: 'Emetti' })).toHaveCount(0);
  await shot(staff, 'emissione-emessa');
});

test('a super_admin renews a policy (new quotation in Bozza rinnovo with the warning), reverses another and resends it to Koala', async ({ browser }) => {
  test.setTimeout(allow(120_000));
  const page = await session(browser, admin().email, admin().password);
  const daRinnovare = await emessa(page, 'RN200AA');
  await apri(page, daRinnovare.id);
  await expect(panel(page).getByRole('button')).toHaveText(['Salva Emissione', 'Rinnova Polizza', 'Storna Polizza', 'Reinvia dati a Koala', 'Rigenera documenti']);
  await panel(page).getByRole('button', { name: 'Rinnova Polizza' }).click();
  let dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Creare la quotazione di rinnovo della polizza?');
  await dialog.getByRole('button', { name: 'Rinnova Polizza' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/modifica/quotazione/${daRinnovare.id}$`));
  await expect(page.getByTestId('stato-quotazione')).toHaveText('Bozza rinnovo');
  await expect(page.getByTestId('avviso-workflow')).toContainText('Attenzione controllare se sono stati esclusi o inclusi dei veicoli rispetto alla polizza precedente');
  await expect(header(page)).toContainText(`Rinnovo della polizza${daRinnovare.numero} (quotazione n. ${daRinnovare.id})`);
  // The original now links to its renewal and offers no second one.
  await apri(page, daRinnovare.id);
  await expect(header(page)).toContainText('Rinnovoquotazione n.');
  await expect(panel(page).getByRole('button', { name: 'Rinnova Polizza' })).toHaveCount(0);

  const daStornare = await emessa(page, 'ST200AA');
  await apri(page, daStornare.id);
  await panel(page).getByRole('button', { name: 'Reinvia dati a Koala' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('dati duplicati');
  await dialog.getByRole('button', { name: 'Reinvia dati a Koala' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Dati reinviati a Koala' })).toBeVisible();

  await panel(page).getByRole('button', { name: 'Storna Polizza' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog).toContainText("Sicuro di voler stornare la polizza? L'operazione non si può annullare.");
  await dialog.getByRole('button', { name: 'Storna Polizza' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Polizza stornata correttamente' })).toBeVisible();
  await expect(page.getByTestId('stato-quotazione')).toHaveText('Conclusa con errore');
  await expect(header(page)).toContainText(`${daStornare.numero} (stornata da`);
  await shot(page, 'emissione-stornata');
  // At 11 neither renewal nor reversal; issuing again is possible.
  await expect(panel(page).getByRole('button', { name: 'Storna Polizza' })).toHaveCount(0);
  await expect(panel(page).getByRole('button', { name: 'Rinnova Polizza' })).toHaveCount(0);
  await expect(panel(page).getByRole('button', { name: 'Emetti' })).toBeVisible();
  // The super_admin may issue without the previous-policy check, and is told so.
  await panel(page).getByRole('button', { name: 'Emetti' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByText('NON controlla se la polizza precedente è scaduta')).toHaveCount(0);
  await dialog.getByLabel('Controlla se la polizza precedente è scaduta').uncheck();
  await expect(dialog.getByText('NON controlla se la polizza precedente è scaduta')).toBeVisible();
  await dialog.getByRole('button', { name: 'Annulla' }).click();
  await expect(dialog).toHaveCount(0);
});

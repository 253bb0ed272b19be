// The staff quotation screen: the customer's link box, the calculation's field errors, drafts with blank daily-use
// rows, the phone prefix warning and the direct screen's gender round trip.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { admin, appUrl, demoUsers, draftThroughApi, fillDailyVehicles, login, uniqueSurname } from './helpers.ts';

const user = (email: string) => demoUsers().find((u) => u.email === email)!;
const MARIO = user('mario.rossi@demo.broker.it');
const STAFF = user('staff@demo.broker.it');
const SAVED = /Quotazione (aggiornata|salvata) con successo/;

async function session(browser: Browser, email: string, password: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context: BrowserContext = await browser.newContext(options);
  const page = await context.newPage();
  await login(page, email, password);
  return page;
}

async function headers(page: Page) {
  return { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
}

function actionButtons(page: Page) {
  return page.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button');
}

function notice(page: Page, text: string | RegExp) {
  return page.getByTestId('notice').filter({ hasText: text });
}

async function runAction(page: Page, label: string) {
  await page.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** A draft not calculated yet, through the API: one historic vehicle of the catalogue, `fields` on top. */
async function draft(page: Page, surname: string, fields: Record<string, unknown>): Promise<number> {
  const h = await headers(page);
  const models = (await (await page.request.get(appUrl('/api/autostoriche/search?filter[marca]=FIAT'), { headers: h })).json()).data as Array<{ id: number; marca: string; modello: string; anno_da: number }>;
  const model = models.find((m) => /^500 F/.test(m.modello))!;
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers: h,
    data: {
      persona: 'f', nome: 'Anna', cognome: surname, email: `${surname.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321',
      veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno_da, tipologia_ania: 'A', targa: 'MI000111' }],
      ...fields,
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).data.model.id as number;
}

async function record(page: Page, id: number): Promise<Record<string, unknown>> {
  return (await (await page.request.get(appUrl(`/api/quotazioni/${id}`), { headers: await headers(page) })).json()).data;
}

test("the customer's link: shown while the customer may act, copied, opened, sent again; refused and gone once the state moves on", async ({ browser }) => {
  test.setTimeout(allow(120_000));
  const surname = uniqueSurname('LINK');
  const email = `${surname.toLowerCase()}@esempio.it`;
  const mario = await session(browser, MARIO.email, MARIO.password, { permissions: ['clipboard-read', 'clipboard-write'] });
  const id = await draftThroughApi(mario, /^500 F/, surname);
  await mario.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(actionButtons(mario)).toHaveText(['Aggiorna', 'Conferma', 'Conferma per emissione diretta'], { timeout: 30_000 });
  const box = mario.getByRole('region', { name: 'Link personale del cliente' });
  // A draft has no link the customer could use yet.
  await expect(box).toHaveCount(0);

  await runAction(mario, 'Conferma');
  await expect(mario.getByTestId('stato-quotazione')).toHaveText('In attesa compilazione form');
  const field = box.getByRole('textbox', { name: 'Il cliente deve compilare il modulo con i suoi dati.' });
  await expect(field).toHaveValue(/\/quotazione\/cliente\/[0-9a-f-]{36}$/);
  const url = await field.inputValue();
  // The e-mail the confirmation queued carries this very link.
  const root = await session(browser, admin().email, admin().password);
  const mails = async () => ((await (await root.request.get(appUrl(`/api/email_outbox?filter[destinatario]=${encodeURIComponent(email)}&per_page=50`), { headers: await headers(root) })).json()).data as Array<{ corpo: string; oggetto: string }>);
  await expect.poll(async () => (await mails()).length).toBe(1);
  expect((await mails())[0]!.corpo).toContain(url);

  // The action bar does not repeat the box's button.
  await expect(actionButtons(mario)).toHaveText([]);

  // Apri: the customer's form in a new tab.
  const apri = box.getByRole('link', { name: 'Apri' });
  await expect(apri).toHaveAttribute('href', url);
  await expect(apri).toHaveAttribute('target', '_blank');
  const [tab] = await Promise.all([mario.context().waitForEvent('page'), apri.click()]);
  await expect(tab.getByRole('heading', { level: 1, name: 'Informazioni' })).toBeVisible();
  await tab.close();

  // Copia: the link in the clipboard.
  await box.getByRole('button', { name: 'Copia' }).click();
  await expect(notice(mario, 'Link copiato negli appunti.')).toBeVisible();
  expect(await mario.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // Invia di nuovo: the same e-mail queued once more, and the record's history says who sent it.
  await box.getByRole('button', { name: 'Invia di nuovo' }).click();
  await expect(notice(mario, `Link inviato di nuovo a ${email}.`)).toBeVisible();
  await expect.poll(async () => (await mails()).length).toBe(2);
  const [again, first] = await mails();
  expect(again).toMatchObject({ oggetto: first!.oggetto, corpo: first!.corpo });
  const last = mario.getByTestId('storico').locator('tbody tr').last();
  await expect(last).toContainText('Reinvio del link al cliente');
  await expect(last).toContainText(MARIO.name);
  await expect(mario.getByTestId('stato-quotazione')).toHaveText('In attesa compilazione form');

  // The quotation moves on meanwhile (staff, by hand): the button is refused with the reason, and the box goes.
  const staff = await session(browser, STAFF.email, STAFF.password);
  const moved = await staff.request.post(appUrl('/api/quotazioni/cambioStato'), { headers: await headers(staff), data: { id, stato_quotazione_id: 6 } });
  expect(moved.status()).toBe(200);
  await box.getByRole('button', { name: 'Invia di nuovo' }).click();
  await expect(notice(mario, 'non consentita nello stato "Preventivo in attesa di verifica"')).toBeVisible();
  await expect(mario.getByTestId('stato-quotazione')).toHaveText('Preventivo in attesa di verifica');
  await expect(box).toHaveCount(0);
  expect(await mails()).toHaveLength(2);
});

test('Calcola: a refused calculation marks its fields, with no success notice', async ({ browser }) => {
  const surname = uniqueSurname('CALCOLO');
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draft(mario, surname, {});
  await mario.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(actionButtons(mario)).toHaveText(['Aggiorna'], { timeout: 30_000 });
  // A change first: Calcola saves it, then asks for the price, which needs the province.
  await mario.getByRole('textbox', { name: 'Nome', exact: true }).fill('Annamaria');
  await mario.getByRole('button', { name: 'Calcola' }).click();
  const provincia = mario.getByRole('textbox', { name: 'Provincia', exact: true });
  await expect(provincia).toHaveAttribute('aria-invalid', 'true');
  await expect(mario.locator('#root_provincia_codice__error')).toHaveText('Campo Obbligatorio.');
  await expect(notice(mario, SAVED)).toHaveCount(0);
  await expect(notice(mario, 'Calcolo eseguito.')).toHaveCount(0);
  // The premium panel does not repeat a message that has its field.
  await expect(mario.getByRole('complementary', { name: 'Anteprima quotazione' })).not.toContainText('Campo Obbligatorio.');
  expect(await record(mario, id)).toMatchObject({ nome: 'ANNAMARIA', premio: null });

  await provincia.fill('RM');
  await expect(mario.locator('#root_provincia_codice__error')).toHaveCount(0);
  await mario.getByRole('button', { name: 'Calcola' }).click();
  await expect(notice(mario, 'Calcolo eseguito.')).toBeVisible();
  await expect(mario.getByTestId('premio-totale')).toHaveText(/€/);
  await expect(provincia).not.toHaveAttribute('aria-invalid', 'true');
});

test('a draft is saved and priced with its daily-use vehicle row still blank; the direct issue asks for it', async ({ browser }) => {
  test.setTimeout(allow(120_000));
  const surname = uniqueSurname('QUOTIDIANO');
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draft(mario, surname, { provincia_codice: 'RM', quotidiano: 1 });
  await mario.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(actionButtons(mario)).toHaveText(['Aggiorna'], { timeout: 30_000 });
  // quotidiano = 1: one blank row, left blank.
  await expect(mario.locator('#root_veicoli_moderni_0_marca')).toHaveValue('');
  await mario.getByRole('textbox', { name: 'Nome', exact: true }).fill('Annalisa');
  await mario.getByRole('button', { name: 'Aggiorna', exact: true }).click();
  await expect(notice(mario, SAVED)).toBeVisible();
  await expect(mario.locator('#root_veicoli_moderni_0_marca')).not.toHaveAttribute('aria-invalid', 'true');
  expect(await record(mario, id)).toMatchObject({ nome: 'ANNALISA' });

  // Calcola with a change pending: saved and priced.
  await mario.getByRole('textbox', { name: 'Cognome', exact: true }).fill(`${surname}B`);
  await mario.getByRole('button', { name: 'Calcola' }).click();
  await expect(notice(mario, 'Calcolo eseguito.')).toBeVisible();
  await expect(mario.getByTestId('premio-totale')).toHaveText(/€/);
  expect(await record(mario, id)).toMatchObject({ cognome: `${surname}B` });

  // The direct screen is where staff complete the rows: the issue needs them, said under the row's fields.
  await runAction(mario, 'Conferma per emissione diretta');
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione_diretta/${id}$`));
  await mario.getByRole('textbox', { name: 'Codice Fiscale' }).fill('RSSMRA80A01H501U');
  await runAction(mario, 'Passa in attesa di emissione');
  await expect(mario.locator('#root_veicoli_moderni_0_marca__error')).toHaveText('Campo Obbligatorio.');
  await expect(mario.locator('#root_veicoli_moderni_0_targa__error')).toHaveText('Campo Obbligatorio.');
  await expect(mario.getByTestId('stato-quotazione')).toHaveText('In attesa compilazione diretta');
  await fillDailyVehicles(mario);
  await runAction(mario, 'Passa in attesa di emissione');
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione/${id}$`));
  await expect(mario.getByTestId('stato-quotazione')).toHaveText('In attesa di emissione');
});

test('a phone without +39 is warned about at the field, and saved', async ({ browser }) => {
  const surname = uniqueSurname('TELEFONO');
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draftThroughApi(mario, /^500 F/, surname);
  await mario.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(actionButtons(mario)).toHaveText(['Aggiorna', 'Conferma', 'Conferma per emissione diretta'], { timeout: 30_000 });
  const telefono = mario.getByLabel('Telefono');
  const warning = mario.locator('#root_telefono__warning');
  await expect(warning).toHaveCount(0);
  await telefono.fill('+41 79 1234567');
  await expect(warning).toHaveText('Il numero di telefono non ha il prefisso internazionale +39.');
  // A warning, not an error: the field is valid and the quotation saves.
  await telefono.blur();
  await expect(telefono).not.toHaveAttribute('aria-invalid', 'true');
  await mario.getByRole('button', { name: 'Aggiorna', exact: true }).click();
  await expect(notice(mario, SAVED)).toBeVisible();
  // Stored as every phone is, without its spaces.
  expect(await record(mario, id)).toMatchObject({ telefono: '+41791234567' });
  await expect(warning).toHaveText('Il numero di telefono non ha il prefisso internazionale +39.');
  await telefono.fill('+39 333 7654321');
  await expect(warning).toHaveCount(0);
});

test('direct screen: switching the gender to Azienda and back keeps the names typed', async ({ browser }) => {
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draftThroughApi(mario, /^500 F/, uniqueSurname('GENERE'));
  expect((await mario.request.post(appUrl(`/api/quotazioni/confermaDiretta/${id}`), { headers: await headers(mario) })).ok()).toBe(true);
  await mario.goto(appUrl(`/modifica/quotazione_diretta/${id}`));
  const nome = mario.locator('#root_nome');
  const cognome = mario.locator('#root_cognome');
  await expect(nome).toBeVisible({ timeout: 30_000 });
  await mario.getByLabel('Genere').selectOption({ label: 'Maschio' });
  await nome.fill('Giorgio');
  await cognome.fill('Verdi');
  await mario.getByLabel('Genere').selectOption({ label: 'Azienda' });
  await expect(nome).toHaveCount(0);
  await expect(mario.getByLabel('Ragione Sociale')).toBeVisible();
  await mario.getByLabel('Genere').selectOption({ label: 'Maschio' });
  await expect(nome).toHaveValue(/^giorgio$/i);
  await expect(cognome).toHaveValue(/^verdi$/i);
  await fillDailyVehicles(mario);
  await actionButtons(mario).getByText('Salva', { exact: true }).click();
  await expect(notice(mario, SAVED)).toBeVisible();
  expect(await record(mario, id)).toMatchObject({ persona: 'f', sesso: 'M', nome: 'GIORGIO', cognome: 'VERDI' });
});

// Shared e2e helpers: demo users, login through the UI, keyboard focus walking, valid test data.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { codiceFiscaleCheckChar } from '../../src/shared/validators/index.ts';
import { ROOT } from './server.ts';

export interface DemoUser {
  email: string;
  password: string;
  name: string;
  roles: string[];
  expectedMenu: string[];
}

export function demoUsers(): DemoUser[] {
  return JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'demo', 'users.json'), 'utf8')) as DemoUser[];
}

export function admin(): { email: string; password: string } {
  return { email: process.env.ADMIN_EMAIL!, password: process.env.ADMIN_PASSWORD! };
}

/** Absolute URL on the app server (the base URL is only known once the global setup has run). */
export function appUrl(pathname: string): string {
  return new URL(pathname, process.env.E2E_BASE_URL).toString();
}

export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto(appUrl('/login'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export async function loginAsAdmin(page: Page): Promise<void> {
  const { email, password } = admin();
  await login(page, email, password);
}

/** Presses Tab (or Shift+Tab) until the target has focus; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, options: { max?: number; back?: boolean } = {}): Promise<void> {
  const max = options.max ?? 80;
  for (let i = 0; i < max; i++) {
    const focused = await target
      .first()
      .evaluate((el) => el === document.activeElement, undefined, { timeout: 1000 })
      .catch(() => false);
    if (focused) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  const active = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`Tab never reached ${target.toString()}; focus is on ${active}`);
}

/** A surname no other test uses, so search finds exactly our record. */
export function uniqueSurname(prefix = 'COLLAUDO'): string {
  const letters = Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
  return `${prefix}${letters}`;
}

/** A codice fiscale with a correct check character (born 01/01/1980 in Roma). */
export function validCodiceFiscale(): string {
  const first15 = 'RSSMRA80A01H501';
  return first15 + codiceFiscaleCheckChar(first15);
}

/** Same data with a wrong check character: well-formed, but not valid. */
export function invalidCodiceFiscale(): string {
  const valid = validCodiceFiscale();
  const wrong = valid.endsWith('A') ? 'B' : 'A';
  return valid.slice(0, 15) + wrong;
}

export function menuTitles(page: Page) {
  return page.getByRole('navigation', { name: 'Menu Rapido' }).getByRole('link');
}

/** Login with keys only: the e-mail field has focus on arrival, Tab to the password, Enter submits. */
/**
 * Waits until a list grid shows `text`'s row and no other, its loading done. A search's row may be on page 1 already,
 * so that row alone does not say the search has answered: its rows, arriving while the arrows move, took the focus away.
 */
export async function expectOnlyRow(page: Page, text: string): Promise<Locator> {
  // A second row (row-index 1, in any pinned part) is gone, and the first is the one.
  await expect(page.locator('.ag-row[row-index="1"]')).toHaveCount(0);
  const row = page.locator('.ag-row[row-index="0"]', { hasText: text });
  await expect(row).toHaveCount(1);
  await expect(page.locator('.ag-overlay-loading-wrapper:visible')).toHaveCount(0);
  return row;
}

/**
 * Reaches a cell of a list grid, or a button in it, as a keyboard user: the grid is one Tab stop, the arrows move to
 * the row and the column, Tab to the cell's buttons. Fails when it cannot get there.
 */
export async function gridTo(page: Page, target: Locator): Promise<void> {
  const inGrid = () => page.evaluate(() => Boolean(document.activeElement?.closest('.ag-root-wrapper')));
  for (let i = 0; i < 40 && !(await inGrid()); i++) await page.keyboard.press('Tab');
  expect(await inGrid(), 'Tab reaches the grid').toBe(true);
  const where = await target.first().evaluate((el) => ({ row: el.closest('[row-index]')?.getAttribute('row-index'), col: el.closest('[col-id]')?.getAttribute('col-id') }));
  const at = () => page.evaluate(() => ({ row: document.activeElement?.closest('[row-index]')?.getAttribute('row-index') ?? null, col: document.activeElement?.closest('[col-id]')?.getAttribute('col-id') ?? null }));
  for (let i = 0; i < 60 && (await at()).row !== where.row; i++) await page.keyboard.press('ArrowDown');
  // Left first, then right: the actions column is the first one.
  for (let i = 0; i < 30 && (await at()).col !== where.col; i++) await page.keyboard.press(i < 15 ? 'ArrowLeft' : 'ArrowRight');
  expect(await at(), 'the arrows reach the cell').toEqual(where);
  for (let i = 0; i < 5 && !(await target.first().evaluate((el) => el === document.activeElement || el.contains(document.activeElement))); i++) await page.keyboard.press('Tab');
  await expect(target.first()).toBeFocused();
}

/** On the customer's link, from personal data: Avanti, the four consents of 'Consensi 1/2', on to 'Consensi 2/2'. */
export async function firstConsents(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Consensi 1/2' })).toBeVisible();
  for (const name of [/trattamento dei miei dati personali/, /comunicazioni commerciali/, /compagnie partner/, /profilazione/]) {
    await page.getByRole('radiogroup', { name }).getByLabel('Acconsento', { exact: true }).check();
  }
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Consensi 2/2' })).toBeVisible();
}

export async function keyboardLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto(appUrl('/login'));
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** In a focused combobox: types the text, arrows through the suggestions to `option`, Enter picks it. */
export async function keyboardPick(page: Page, combobox: Locator, text: string, option: string): Promise<void> {
  await tabTo(page, combobox);
  await page.keyboard.type(text);
  await expect(page.getByRole('option', { name: option, exact: true })).toBeVisible();
  const activeOption = () =>
    page.evaluate(() => {
      const id = document.activeElement?.getAttribute('aria-activedescendant');
      return id ? document.getElementById(id)?.textContent : null;
    });
  for (let i = 0; i < 30 && (await activeOption()) !== option; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(combobox).toHaveValue(option);
}

/**
 * From any screen with the menu, keys only: Clienti → Nuovo Cliente, a retail man named TECLA `surname` born in Roma
 * (Italia, from the countries' autocomplete), a valid codice fiscale, Enter saves; ends on the saved record.
 */
export async function keyboardCreateCustomer(page: Page, surname: string): Promise<void> {
  await tabTo(page, page.getByRole('navigation', { name: 'Menu Rapido' }).getByRole('link', { name: 'Clienti' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/cliente$/);
  await tabTo(page, page.getByRole('button', { name: /Nuovo Cliente/ }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/new\/cliente$/);
  // Selects answer to typed letters, text fields to typing.
  await tabTo(page, page.locator('#root_tipo'));
  await page.keyboard.type('Retail');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Maschio');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Tecla');
  await page.keyboard.press('Tab');
  await page.keyboard.type(surname);
  await keyboardPick(page, page.getByRole('combobox', { name: 'Comune di Nascita' }), 'Roma', 'Roma (RM)');
  await keyboardPick(page, page.getByRole('combobox', { name: 'Nazione di Nascita' }), 'Ital', 'Italia');
  await tabTo(page, page.locator('#root_cf'));
  await page.keyboard.type(validCodiceFiscale());
  await expect(page.locator('#root_tipo')).toHaveValue(/.+/);
  await expect(page.locator('#root_sesso')).toHaveValue(/.+/);
  // Enter in a text field submits through the action bar's button.
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/modifica\/cliente\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`TECLA ${surname}`);
  // The country is stored by its id and read back by its name.
  await expect(page.getByRole('combobox', { name: 'Nazione di Nascita' })).toHaveValue('Italia');
}

/**
 * The public form's questionnaire (step 4) answered as a careful owner would: owner of the cars, 'altre coperture' as
 * given, every other question Sì except claims with fault and drivers under 26.
 */
export async function answerQuestionnaire(page: Page, { altreCoperture }: { altreCoperture: 'Sì' | 'No' }): Promise<void> {
  const answer = (name: RegExp, value: 'Sì' | 'No') => page.getByRole('radiogroup', { name }).getByLabel(value, { exact: true }).check();
  await answer(/proprietario dei veicoli storici/, 'Sì');
  await answer(/altre coperture assicurative/, altreCoperture);
  for (const q4 of [/luogo chiuso/, /registro storico/, /uso amatoriale/, /responsabilità civile/, /furto e incendio/, /assistenza stradale/,
    /raduni/, /all'estero/, /sinistri con colpa/, /attestato di rischio/, /meno di 26 anni/, /revisione/, /set informativo/]) {
    await answer(q4, q4.source === 'sinistri con colpa' || q4.source === 'meno di 26 anni' ? 'No' : 'Sì');
  }
}

/** The daily-use vehicles of a form (the public form's step 4, the direct screen): each row the declared count shows. */
export async function fillDailyVehicles(page: Page): Promise<void> {
  // Rows already filled keep their data.
  const samples = [['Fiat', 'Panda', '2019', 'AB123CD'], ['Renault', 'Clio', '2021', 'EF456GH'], ['Lancia', 'Ypsilon', '2020', 'GH789JK']];
  const rows = await page.locator('[id^="root_veicoli_moderni_"][id$="_marca"]').count();
  for (let i = 0; i < rows; i++) {
    if (await page.locator(`#root_veicoli_moderni_${i}_marca`).inputValue()) continue;
    const [marca, modello, anno, targa] = samples[i % samples.length]!;
    await page.locator(`#root_veicoli_moderni_${i}_marca`).fill(marca!);
    await page.locator(`#root_veicoli_moderni_${i}_modello`).fill(modello!);
    await page.locator(`#root_veicoli_moderni_${i}_anno`).fill(anno!);
    await page.locator(`#root_veicoli_moderni_${i}_targa`).fill(targa!);
  }
}

/**
 * The customer's link from 'Informazioni' to 'Questionario e veicoli': personal data (what the draft did not hold is
 * typed, as the customer would), every consent given.
 */
export async function customerFormToQuestionnaire(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Informazioni' })).toBeVisible();
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dati anagrafici' })).toBeVisible();
  await page.getByLabel('Telefono').fill('+393331234567');
  await page.getByRole('radiogroup', { name: 'Nazione di nascita' }).getByLabel('Italia').check();
  await page.getByRole('combobox', { name: 'Attività lavorativa' }).selectOption({ label: 'Lavoratore autonomo' });
  // What the draft did not hold, the customer types (a demo draft made by staff has only name, e-mail and province).
  const vuoto = async (name: string) => !(await page.getByRole('textbox', { name, exact: true }).inputValue());
  if (await vuoto('Codice Fiscale')) await page.getByRole('textbox', { name: 'Codice Fiscale', exact: true }).fill(validCodiceFiscale());
  if (await vuoto('Data di Nascita')) await page.getByRole('textbox', { name: 'Data di Nascita', exact: true }).fill('01/01/1980');
  if (await vuoto('Provincia di nascita')) await page.getByRole('textbox', { name: 'Provincia di nascita', exact: true }).fill('RM');
  for (const [name, testo, opzione] of [['Comune di nascita', 'Roma', 'Roma (RM)'], ['Comune', 'Firenze', 'Firenze (FI)']] as const) {
    const comune = page.getByRole('combobox', { name, exact: true });
    if (await comune.inputValue()) continue;
    await comune.fill(testo);
    await page.getByRole('option', { name: opzione, exact: true }).click();
    await expect(comune).toHaveValue(opzione);
  }
  if (await vuoto('Indirizzo')) await page.getByRole('textbox', { name: 'Indirizzo', exact: true }).fill('Via Roma');
  if (await vuoto('Civico')) await page.getByRole('textbox', { name: 'Civico', exact: true }).fill('1');
  if (await vuoto('CAP')) await page.getByRole('textbox', { name: 'CAP', exact: true }).fill('50100');
  await firstConsents(page);
  await page.getByRole('radiogroup', { name: /informativa precontrattuale/ }).getByLabel('Acconsento', { exact: true }).check();
  await page.getByRole('radiogroup', { name: /codice OTP/ }).getByLabel('Acconsento', { exact: true }).check();
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Questionario e veicoli' })).toBeVisible();
}

/** The link's last step as a customer with four licences and two daily-use cars answers it: sent, 'Grazie!'. */
export async function sendQuestionnaire(page: Page): Promise<void> {
  await answerQuestionnaire(page, { altreCoperture: 'No' });
  await page.getByRole('combobox', { name: 'Patenti nel nucleo familiare' }).selectOption({ label: '4' });
  await page.getByRole('combobox', { name: 'Veicoli di uso quotidiano' }).selectOption({ label: '2' });
  await fillDailyVehicles(page);
  await page.getByRole('button', { name: 'Invia' }).click();
  await expect(page.getByRole('heading', { name: 'Grazie!' })).toBeVisible();
}

/** A priced historic-car draft of the signed-in user, made through the API (`extra`: more of its fields). */
export async function draftThroughApi(page: Page, modello: RegExp, surname: string, extra: Record<string, unknown> = {}): Promise<number> {
  const headers = { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
  const models = (await (await page.request.get(appUrl('/api/autostoriche/search?filter[marca]=FIAT'), { headers })).json()).data as Array<{
    id: number;
    marca: string;
    modello: string;
    anno_da: number;
  }>;
  const model = models.find((m) => modello.test(m.modello))!;
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers,
    data: {
      persona: 'f',
      nome: 'Anna',
      cognome: surname,
      email: `${surname.toLowerCase()}@esempio.it`,
      telefono: '+39 333 7654321',
      provincia_codice: 'MI',
      veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno_da, tipologia_ania: 'A', targa: 'MI000111' }],
      ...extra,
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/calcolo'), { headers, data: { id } })).status()).toBe(200);
  return id;
}

/** The studio open on a resource as the admin: the API's headers and the definitions' version the studio shows. */
export async function openStudio(page: Page, resource = 'cliente'): Promise<{ headers: Record<string, string>; before: number }> {
  await loginAsAdmin(page);
  const headers = { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
  await page.goto(appUrl('/studio'));
  await page.getByLabel('Risorsa').selectOption(resource);
  const before = Number((await page.getByText(/Definizioni in uso: versione \d+/).textContent())!.match(/versione (\d+)/)![1]);
  return { headers, before };
}

/** A studio test's clean-up: back to the version it started from, through the API, when anything was applied. */
export async function restoreVersion(page: Page, headers: Record<string, string>, before: number): Promise<void> {
  const now = (await (await page.request.get(appUrl('/api/definizioni'), { headers })).json()).versione;
  if (now === before) return;
  const back = await page.request.post(appUrl(`/api/definizioni/versioni/${before}/ripristina`), { headers, data: { versione: now } });
  expect(back.status(), await back.text()).toBe(200);
}

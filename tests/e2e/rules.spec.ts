// Conditional and computed fields written only in the JSON definitions, seen in Chromium: fields appear and disappear
// with the values they depend on, hidden ones keep no data, and the quotation total follows its x-computed expression.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { APIRequestContext } from '@playwright/test';
import { admin, appUrl, customerFormToQuestionnaire, loginAsAdmin, sendQuestionnaire, uniqueSurname, validCodiceFiscale } from './helpers.ts';

type Json = Record<string, any>;

async function adminApi(request: APIRequestContext) {
  const login = await request.post(appUrl('/api/login'), { data: admin() });
  const token = ((await login.json()) as Json).token as string;
  return async (method: string, url: string, body?: unknown): Promise<Json> => {
    const res = await request.fetch(appUrl(url), { method, headers: { Authorization: `Bearer ${token}` }, data: body });
    return (await res.json()) as Json;
  };
}

test('customer: a company shows no natural-person fields and keeps no data in them', async ({ page, request }) => {
  const api = await adminApi(request);
  await loginAsAdmin(page);
  await page.goto(appUrl('/new/cliente'));
  await page.getByLabel('Tipo Cliente').selectOption({ label: 'Corporate' });
  await page.getByLabel('Sesso').selectOption({ label: 'Femmina' });
  await page.getByLabel('Cognome').fill('Provvisorio');
  await expect(page.getByLabel('Nazione di Nascita')).toBeVisible();
  await page.getByLabel('Sesso').selectOption({ label: 'Azienda' });
  for (const label of ['Cognome', 'Data di Nascita', 'Comune di Nascita', 'Nazione di Nascita']) {
    await expect(page.getByLabel(label, { exact: true })).toHaveCount(0);
  }
  const name = `${uniqueSurname('DITTA')} SRL`;
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill(name);
  await page.getByLabel('Partita IVA').fill('01234567897');
  await page.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(page).toHaveURL(/\/cliente\/\d+$/);
  const id = Number(page.url().split('/').pop());
  const saved = (await api('GET', `/api/cliente/${id}`)).data;
  // The surname typed while the field was visible was not kept.
  expect(saved).toMatchObject({ sesso: 'A', nome: name, cognome: null, piva: '01234567897' });
  // Back to a person: the fields return, empty.
  await page.getByLabel('Sesso').selectOption({ label: 'Femmina' });
  await expect(page.getByLabel('Cognome')).toHaveValue('');
});

test('quotation: birth place only for country 1, company data only for persona g, quintali only for type C', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/new/quotazione'));
  await expect(page.getByLabel('Persona').locator('option:checked')).toHaveText('Fisica');
  await expect(page.getByLabel('Ragione Sociale')).toHaveCount(0);
  await expect(page.getByLabel('Provincia di nascita')).toHaveCount(0);
  // The birth country is an autocomplete of countries: Italia is id '1', any other country its cadastral code.
  const nazione = page.getByRole('combobox', { name: 'Nazione di nascita' });
  await nazione.fill('Ital');
  await page.getByRole('option', { name: 'Italia', exact: true }).click();
  await expect(page.getByLabel('Provincia di nascita')).toBeVisible();
  await expect(page.getByLabel('Comune di nascita')).toBeVisible();
  await nazione.fill('Germ');
  await page.getByRole('option', { name: 'Germania', exact: true }).click();
  await expect(page.getByLabel('Provincia di nascita')).toHaveCount(0);
  await expect(page.getByLabel('Comune di nascita')).toHaveCount(0);
  await page.getByLabel('Persona').selectOption({ label: 'Giuridica' });
  await expect(page.getByLabel('Ragione Sociale')).toBeVisible();
  await expect(page.getByLabel('Nazione di nascita')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Nome', exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'Aggiungi veicolo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Aggiungi veicolo storico' });
  await dialog.getByLabel('Marca').selectOption('FIAT');
  await dialog.getByLabel('Cerca modello').fill('124');
  await dialog.getByRole('radio', { name: /124 SPIDER/ }).check();
  await expect(dialog.getByLabel('Tipologia Veicolo')).toBeVisible();
  await expect(dialog.getByLabel('Quintali')).toHaveCount(0);
  await dialog.getByLabel('Tipologia Veicolo').selectOption({ label: 'Autocarro' });
  await expect(dialog.getByLabel('Quintali')).toBeVisible();
  await dialog.getByLabel('Tipologia Veicolo').selectOption({ label: 'Autovettura' });
  await expect(dialog.getByLabel('Quintali')).toHaveCount(0);
});

test('quotation: the total premium is recomputed from premio_base + competenze as the user types', async ({ page, request }) => {
  const api = await adminApi(request);
  const model = (await api('GET', '/api/autostoriche?per_page=1')).data[0];
  const created = await api('POST', '/api/quotazioni', {
    persona: 'f', nome: 'Carla', cognome: uniqueSurname('CALCOLO'), email: 'carla@esempio.it', telefono: '+39 333 1112223', provincia_codice: 'RM',
    veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno ?? 1970, tipologia_ania: 'A', targa: 'AB123CD' }],
  });
  const id = created.data.model.id as number;
  await api('POST', '/api/quotazioni/calcolo', { id });

  await loginAsAdmin(page);
  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  const cents = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
  await expect(page.getByTestId('premio-totale')).toHaveText(/€/);
  const base = cents(await page.getByTestId('premio-base').textContent());
  for (const [typed, added] of [['12,34', 1234], ['0,01', 1], ['150', 15000]] as const) {
    await page.getByRole('textbox', { name: 'Competenze' }).fill(typed);
    await expect.poll(async () => cents(await page.getByTestId('premio-totale').textContent())).toBe(base + added);
  }
});

test('generic form: an x-computed field is read-only and follows its operands as the user types', async ({ page }) => {
  // The definitions as an analyst would extend them (premio_totale = premio_base + competenze), served to this page only.
  await page.route((url) => url.pathname === '/api/definitions', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Json;
    const cliente = body.resources.find((r: Json) => r.name === 'cliente');
    Object.assign(cliente.schema.properties, {
      premio_base: { type: 'number', title: 'Premio base' },
      competenze: { type: 'number', title: 'Competenze' },
      premio_totale: { type: 'number', title: 'Premio totale', 'x-computed': 'premio_base + competenze' },
    });
    await route.fulfill({ response, json: body });
  });
  await loginAsAdmin(page);
  await page.goto(appUrl('/new/cliente'));
  const totale = page.getByLabel('Premio totale');
  await expect(totale).toHaveAttribute('readonly', '');
  // Numbers are typed and shown the Italian way; the sum is exact to the cent.
  await page.getByLabel('Premio base').fill('180,1');
  await expect(totale).toHaveValue('180,1');
  await page.getByLabel('Competenze').fill('20,2');
  await expect(totale).toHaveValue('200,3');
  await page.getByLabel('Competenze').fill('');
  await expect(totale).toHaveValue('180,1');
});

test('array rows: a vehicle row shows Quintali only for type C (Autocarro), and a hidden one keeps no data', async ({ browser, request }) => {
  test.setTimeout(allow(150_000));
  const api = await adminApi(request);
  // A quotation with one historic vehicle, confirmed: the customer completes its rows on the public link (generic renderer).
  const model = (await api('GET', '/api/autostoriche?per_page=1')).data[0];
  const cognome = uniqueSurname('QUINTALI');
  const email = `${cognome.toLowerCase()}@example.it`;
  const q = (await api('POST', '/api/quotazioni', {
    persona: 'f', sesso: 'M', nome: 'Mario', cognome, email, cfisc: validCodiceFiscale(), dataNascita: '1980-01-01', nazione_nascita_id: '1',
    provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via del Corso', residenzaCivico: '10',
    residenzaCap: '00186', residenza_comune_id: '058091', provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ id: 'e2e-quintali-1', auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno ?? 1968, tipologia_ania: 'A', targa: 'RM654321' }],
  })).data.model;
  await api('POST', '/api/quotazioni/calcolo', { id: q.id });
  await api('POST', `/api/quotazioni/conferma/${q.id}`);
  const outbox = await api('GET', `/api/email_outbox?filter[destinatario]=${encodeURIComponent(email)}`);
  const link = /https?:\/\/\S+\/quotazione\/cliente\/[0-9a-f-]{36}\?parameter1=conferma_cliente/.exec(String(outbox.data[0].corpo))![0];
  const { pathname, search } = new URL(link);

  const page = await (await browser.newContext()).newPage();
  await page.goto(appUrl(`${pathname}${search}`));
  await customerFormToQuestionnaire(page);

  // The row's own condition (items if/else in the quotation's definition): Quintali only while the row is an Autocarro.
  const tipologia = page.locator('#root_veicoli_storici_0_tipologia_ania');
  const quintali = page.locator('#root_veicoli_storici_0_quintali');
  await expect(tipologia).toBeVisible();
  await expect(quintali).toHaveCount(0);
  await tipologia.selectOption({ label: 'Autocarro' });
  await expect(quintali).toBeVisible();
  await quintali.fill('35');
  await tipologia.selectOption({ label: 'Autovettura' });
  await expect(quintali).toHaveCount(0);
  // Back to a truck: the weight typed while it was one was not kept.
  await tipologia.selectOption({ label: 'Autocarro' });
  await expect(quintali).toHaveValue('');
  await quintali.fill('35');
  await tipologia.selectOption({ label: 'Autovettura' });

  // The hidden weight raises no error: the step is sent, and the stored car has no weight.
  await sendQuestionnaire(page);
  const saved = (await api('GET', `/api/quotazioni/${q.id}`)).data.veicoli_storici[0];
  expect(saved).toMatchObject({ id: 'e2e-quintali-1', tipologia_ania: 'A', targa: 'RM654321' });
  expect(saved.quintali ?? null).toBeNull();
  await page.context().close();
});

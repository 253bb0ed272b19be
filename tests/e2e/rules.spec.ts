// Conditional and computed fields written only in the JSON definitions, seen in Chromium: fields appear and disappear
// with the values they depend on, hidden ones keep no data, and the quotation total follows its x-computed expression.
import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { admin, appUrl, loginAsAdmin, uniqueSurname } from './helpers.ts';

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
  await page.getByLabel('Nazione di nascita').fill('1');
  await expect(page.getByLabel('Provincia di nascita')).toBeVisible();
  await expect(page.getByLabel('Comune di nascita')).toBeVisible();
  await page.getByLabel('Nazione di nascita').fill('40');
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

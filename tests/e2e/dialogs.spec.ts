// Every dialog of the app with the keyboard and axe: opened with Enter from its button, focus moves into it, Tab and
// Shift+Tab stay inside, its close button says Chiudi, axe finds nothing with it open, Escape closes it and the focus is
// back on what opened it.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Locator, Page } from '@playwright/test';
import { appUrl, demoUsers, login, loginAsAdmin, uniqueSurname, validCodiceFiscale } from './helpers.ts';
import { dataItaliana, giornoIso } from '../../src/shared/dates.ts';

const STAFF = demoUsers().find((u) => u.email === 'staff@demo.broker.it')!;
const MARIO = demoUsers().find((u) => u.email === 'mario.rossi@demo.broker.it')!;

const inDialog = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    const open = Array.from(document.querySelectorAll('[role="dialog"]')).filter((d) => (d as HTMLElement).offsetParent !== null || getComputedStyle(d).display !== 'none');
    return { inside: open.some((d) => d.contains(active)), active: active?.outerHTML.slice(0, 120) ?? null };
  });

/**
 * Opens the dialog with Enter on `opener` (after `before`, e.g. choosing a dropdown item), then checks focus, the Tab
 * trap, axe (every rule on the dialog, serious and critical ones on the page) and Escape; `returnTo` is where the focus
 * must land after closing (the opener itself unless it lives in a menu that closed).
 */
async function checkDialog(page: Page, name: string | RegExp, open: { opener: Locator; then?: Locator; returnTo?: Locator }) {
  await open.opener.focus();
  await page.keyboard.press('Enter');
  if (open.then) {
    await expect(open.then).toBeVisible();
    await open.then.focus();
    await page.keyboard.press('Enter');
  }
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expect.poll(async () => (await inDialog(page)).inside, { message: 'focus moves into the dialog' }).toBe(true);
  // A screen reader reads the header's close button in Italian like every other text (react-bootstrap says 'Close').
  for (const label of await dialog.locator('.btn-close').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) expect(label).toBe('Chiudi');
  // Once round the dialog and one more with Tab (so past its last control), then back past its first with Shift+Tab.
  const stops = await dialog.evaluate((d) => d.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])').length);
  for (const [key, presses] of [['Tab', stops + 2], ['Shift+Tab', 3]] as const) {
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(key);
      const state = await inDialog(page);
      expect(state.inside, `${key} ×${i + 1} left the dialog: ${state.active}`).toBe(true);
    }
  }
  await expectNoSeriousViolations(page, { include: '[role="dialog"]', everyImpact: true });
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(open.returnTo ?? open.opener).toBeFocused();
}

async function token(page: Page): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
}

test.describe.configure({ timeout: allow(300_000) });

test('list dialogs: confirm delete, saved filters, import, a record form', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/cliente?sort=id'));
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await checkDialog(page, /Conferma l'eliminazione/, { opener: page.getByRole('button', { name: /^Elimina / }).first() });
  const savedFilters = page.getByRole('button', { name: 'Filtri salvati' });
  await checkDialog(page, 'Salva i filtri', { opener: savedFilters, then: page.getByRole('button', { name: 'Salva i filtri attuali…' }), returnTo: savedFilters });

  await page.goto(appUrl('/quotazione'));
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await checkDialog(page, 'Importa modelli auto storiche', { opener: page.getByRole('button', { name: 'Importa modelli' }) });
  await checkDialog(page, 'Modello Auto Storica', { opener: page.getByRole('button', { name: /Nuovo Modello/ }) });
});

test('account dialog from the user menu', async ({ page }) => {
  await loginAsAdmin(page);
  const menu = page.getByRole('button', { name: /Menu utente/ });
  await checkDialog(page, 'Modifica account', { opener: menu, then: page.getByRole('button', { name: 'Edit Account' }), returnTo: menu });
});

test('quotation dialogs: change of status, add vehicle, ANIA data', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  const headers = await token(page);
  const models = (await (await page.request.get(appUrl('/api/autostoriche/search?filter[marca]=FIAT'), { headers })).json()).data as Array<{ id: number; marca: string; modello: string; anno_da: number }>;
  const model = models.find((m) => /^500 F/.test(m.modello))!;
  const surname = uniqueSurname('DIALOGO');
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers,
    data: {
      persona: 'f', sesso: 'M', nome: 'Mario', cognome: surname, cfisc: 'RSSMRA70A01H501S', email: 'dialoghi@esempio.it', telefono: '+39 333 1234567', provincia_codice: 'RM',
      veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno_da, tipologia_ania: 'A', targa: 'ZD123AB' }],
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/calcolo'), { headers, data: { id } })).status()).toBe(200);
  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(page.getByTestId('stato-quotazione')).toHaveText('Bozza');

  const conferma = page.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button', { name: 'Conferma', exact: true });
  await checkDialog(page, /.*/, { opener: conferma });
  await checkDialog(page, 'Aggiungi veicolo storico', { opener: page.getByRole('button', { name: 'Aggiungi veicolo' }) });
  await page.getByRole('button', { name: 'Aggiorna dati Ania ZD123AB' }).click();
  await expect(page.getByText('Dati Ania aggiornati')).toBeVisible();
  await checkDialog(page, /Dati Ania/, { opener: page.getByRole('button', { name: 'Dati Ania ZD123AB', exact: true }) });
  await checkDialog(page, 'Elimina veicolo', { opener: page.getByRole('button', { name: /^Elimina veicolo .*ZD123AB$/ }) });
  await expect(page.getByRole('button', { name: 'Dati Ania ZD123AB', exact: true })).toBeVisible();
});

test('upload dialog on the documents of a quotation', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  const headers = await token(page);
  const surname = uniqueSurname('CARICA');
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers,
    data: {
      persona: 'f', nome: 'Sara', cognome: surname, email: `${surname.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321', provincia_codice: 'MI',
      veicoli_storici: [{ marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'MI000222' }],
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/cambioStato'), { headers, data: { id, stato_quotazione_id: 5 } })).status()).toBe(200);
  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  await page.getByRole('tab', { name: 'Documenti' }).click();
  await checkDialog(page, 'Carica documento', { opener: page.getByTestId('documenti').getByRole('button', { name: 'Carica documento', exact: true }) });
});

test('payment and reversal dialogs on the cash desk', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/gestione_incassi'));
  await checkDialog(page, 'Registra incasso', { opener: page.getByRole('button', { name: 'Registra incasso' }) });
  await checkDialog(page, 'Storno del pagamento', { opener: page.getByRole('button', { name: 'Storna incasso' }) });
});

test('statement summary on the estratto conto', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/estratto_conto'));
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await checkDialog(page, /^Riepilogo /, { opener: page.getByRole('button', { name: 'Riepilogo' }) });
});

test('unsaved changes asked on leaving a form', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/new/cliente'));
  await page.getByRole('textbox', { name: 'Nome', exact: true }).fill('BOZZA');
  await checkDialog(page, 'Modifiche non salvate', { opener: page.getByRole('button', { name: 'Annulla' }) });
  await expect(page).toHaveURL(/\/new\/cliente$/);
});

test('document preview after an upload', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  const headers = await token(page);
  const surname = uniqueSurname('ANTEPRIMA');
  const created = await page.request.post(appUrl('/api/quotazioni'), {
    headers,
    data: {
      persona: 'f', nome: 'Sara', cognome: surname, email: `${surname.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321', provincia_codice: 'MI',
      veicoli_storici: [{ marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'MI000444' }],
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/cambioStato'), { headers, data: { id, stato_quotazione_id: 5 } })).status()).toBe(200);
  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  await page.getByRole('tab', { name: 'Documenti' }).click();
  await page.getByTestId('documenti').getByRole('button', { name: 'Carica documento', exact: true }).click();
  const upload = page.getByRole('dialog', { name: 'Carica documento' });
  await upload.getByLabel('Categoria').selectOption({ label: 'Patente' });
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  await upload.getByLabel('File (PDF, JPEG o PNG)').setInputFiles({ name: 'patente.png', mimeType: 'image/png', buffer: png });
  await upload.getByRole('button', { name: 'Carica documento' }).click();
  await expect(upload).toHaveCount(0);
  await checkDialog(page, 'patente.png', { opener: page.getByRole('button', { name: 'Anteprima: patente.png' }) });
  await checkDialog(page, 'Elimina', { opener: page.getByRole('button', { name: 'Elimina: patente.png' }) });
  await expect(page.getByRole('button', { name: 'Anteprima: patente.png' })).toBeVisible();
});

test('issuing dialogs: save issue data, preview, the Emetti confirmation, the exclusion confirmation', async ({ page }) => {
  await loginAsAdmin(page);
  const headers = await token(page);
  const models = (await (await page.request.get(appUrl('/api/autostoriche/search?filter[marca]=FIAT'), { headers })).json()).data as Array<{ id: number; marca: string; modello: string; anno_da: number }>;
  const model = models.find((m) => /^500/.test(m.modello)) ?? models[0]!;
  const cognome = uniqueSurname('EMETTERE');
  const created = await page.request.post(appUrl('/api/quotazioni'), { headers, data: {
    persona: 'f', nome: 'Anna', cognome, email: `${cognome.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321', cfisc: validCodiceFiscale(), provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: model.id, marca: model.marca, modello: model.modello, anno: model.anno_da, tipologia_ania: 'A', targa: 'EM900DL' }],
  } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.model.id as number;
  expect((await page.request.post(appUrl('/api/quotazioni/calcolo'), { headers, data: { id } })).status()).toBe(200);
  expect((await page.request.post(appUrl('/api/quotazioni/cambioStato'), { headers, data: { id, stato_quotazione_id: 7 } })).status()).toBe(200);
  await page.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(page.getByTestId('stato-quotazione')).toHaveText('In attesa di emissione');
  const panel = page.getByRole('toolbar', { name: 'Azioni di emissione' });
  for (const name of ['Salva Emissione', 'Preview Emissione', 'Emetti']) {
    await checkDialog(page, name, { opener: panel.getByRole('button', { name, exact: true }) });
  }
  await expect(page.getByTestId('stato-quotazione')).toHaveText('In attesa di emissione');

  // The demo policy waiting for signature: the exclusion of one of its vehicles asks first.
  const list = await page.request.get(appUrl('/api/quotazioni?search=SECONDA&filter[stato_quotazione_id]=9'), { headers });
  const issued = (await list.json()).data[0].id as number;
  await page.goto(appUrl(`/modifica/quotazione/${issued}`));
  await page.getByRole('tab', { name: 'Esclusione' }).click();
  const esclusione = page.getByTestId('tab-esclusione');
  await esclusione.getByLabel('Data di decorrenza esclusione').fill(dataItaliana(giornoIso(1)));
  await esclusione.getByRole('button', { name: /^Calcola Esclusione / }).first().click();
  await checkDialog(page, 'Emetti Esclusione', { opener: esclusione.getByRole('button', { name: 'Emetti Esclusione' }) });
});

test("the insurer's errors on an RCA quotation", async ({ page }) => {
  await login(page, MARIO.email, MARIO.password);
  await page.goto(appUrl('/new/quotazioni_rca'));
  await page.getByLabel('Cognome Nome').fill('greco francesca');
  const row = page.getByRole('table', { name: 'Clienti trovati' }).getByRole('row', { name: /FRANCESCA/ }).filter({ has: page.locator('td:nth-child(6)', { hasText: /^1$/ }) });
  await row.getByRole('button', { name: 'Seleziona' }).click();
  await page.getByRole('button', { name: 'Vai Avanti' }).click();
  // The sandbox answers this plate with an error and its details.
  await page.locator('#rca-dati').getByLabel(/^Targa Veicolo( \*)?$/).fill('ER000ER');
  await page.getByRole('button', { name: 'Continua' }).click();
  await page.getByRole('button', { name: 'Richiedi Preventivo' }).click();
  await expect(page.getByTestId('rca-errore')).toContainText('Errore della compagnia');
  await checkDialog(page, 'Errori', { opener: page.getByRole('button', { name: 'Dettagli' }) });
});

test("a policy's titles: payment and reversal of a payment", async ({ page }) => {
  await loginAsAdmin(page);
  const headers = await token(page);
  const titoli = async (saldato: boolean) =>
    (await (await page.request.get(appUrl(`/api/titolo?filter[saldato]=${saldato}&sort=id`), { headers })).json()).data as Array<{ polizza_id: number; numero_rata: number }>;
  const aperto = (await titoli(false))[0]!;
  await page.goto(appUrl(`/modifica/polizza/${aperto.polizza_id}`));
  await checkDialog(page, `Pagamento del titolo ${aperto.numero_rata}`, { opener: page.getByRole('button', { name: `Paga il titolo ${aperto.numero_rata}`, exact: true }) });
  const pagato = (await titoli(true))[0]!;
  await page.goto(appUrl(`/modifica/polizza/${pagato.polizza_id}`));
  await checkDialog(page, 'Storno del pagamento', { opener: page.getByRole('button', { name: `Storna il pagamento del titolo ${pagato.numero_rata}`, exact: true }) });
});

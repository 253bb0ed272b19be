// The customer's public link on a phone (390x844): the e-mailed link from the outbox, steps 0-4 with a refused consent
// first, a document per category, 'Termina Caricamento'; then staff see the new status, the consent records and the files.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { admin, answerQuestionnaire, appUrl, customerFormToQuestionnaire, fillDailyVehicles, firstConsents, loginAsAdmin, uniqueSurname, validCodiceFiscale } from './helpers.ts';

const PHONE = { width: 390, height: 844 };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

/** Nothing wider than the phone: no sideways scrolling on any step. */
async function expectFitsPhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

async function api(request: APIRequestContext, token: string, method: 'get' | 'post' | 'put', url: string, data?: unknown) {
  const res = await request[method](appUrl(url), { headers: { Authorization: `Bearer ${token}` }, ...(data ? { data } : {}) });
  const body = await res.json();
  expect(res.ok(), JSON.stringify(body)).toBe(true);
  return body;
}

test('a customer completes the public form on a phone and staff see the result', async ({ browser, request }) => {
  test.setTimeout(allow(180_000));
  // Staff prepare and confirm a quotation: the confirmation e-mails the customer their link.
  const { email, password } = admin();
  const token = (await (await request.post(appUrl('/api/login'), { data: { email, password } })).json()).token as string;
  // The product's pre-contract notices, uploaded by staff with version and validity date (documents page).
  const fornitore = (await api(request, token, 'post', '/api/compagnia', { ragioneSociale: `Storiche ${uniqueSurname('F')} S.p.A.`, tipoCompagnia: 'DIRETTO' })).data.model.id;
  const contrattuale = (await api(request, token, 'post', '/api/compagnia_contrattuale', { nome: `Storiche ${uniqueSurname('C')}` })).data.model.id;
  // The demo's historic-car products step aside, so this run's product is the one whose notices are shown.
  const existing = (await api(request, token, 'get', '/api/categoria_prodotto?per_page=-1')).data as Array<Record<string, unknown>>;
  for (const row of existing.filter((p) => p.mandatabile_type === 'auto_storica_itas' && p.attivo !== false)) {
    await api(request, token, 'put', `/api/categoria_prodotto/${row.id}`, { attivo: false, version: row.version });
  }
  const prodotto = (await api(request, token, 'post', '/api/categoria_prodotto', {
    nome: 'RC Auto Storiche', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, mandatabile_type: 'auto_storica_itas',
  })).data.model.id;
  // The notices shown are those of the active product of the quotation's kind (each run starts on a fresh database).
  const notice = async (collection: string, versione: string, validoDal: string, file: string) => {
    const res = await request.post(appUrl('/api/categoria_prodotto/upload'), {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { id: String(prodotto), collection, versione, valido_dal: validoDal, file: { name: file, mimeType: 'application/pdf', buffer: PDF } },
    });
    expect(res.status(), await res.text()).toBe(201);
  };
  await notice('set_informativo', '2024.1', '2024-01-01', 'set-informativo.pdf');
  await notice('privacy', 'P-3', '2024-01-01', 'privacy.pdf');
  const model = (await api(request, token, 'post', '/api/autostoriche', { marca: 'LANCIA', modello: `FULVIA ${uniqueSurname('E')}`, anno: 1968, valore_b: 6000, colore: 'verde', tipologia: 'A' })).data.model;
  const cognome = uniqueSurname('CLIENTE');
  const customerEmail = `${cognome.toLowerCase()}@example.it`;
  const q = (await api(request, token, 'post', '/api/quotazioni', {
    persona: 'f', sesso: 'M', nome: 'Mario', cognome, email: customerEmail, cfisc: validCodiceFiscale(), dataNascita: '1980-01-01', nazione_nascita_id: '1',
    provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via del Corso', residenzaCivico: '10',
    residenzaCap: '00186', residenza_comune_id: '058091', provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ id: 'e2e-veicolo-1', auto_storica_id: model.id, marca: 'LANCIA', modello: model.modello, anno: 1968, tipologia_ania: 'A', targa: 'RM123456' }],
  })).data.model;
  await api(request, token, 'post', '/api/quotazioni/calcolo', { id: q.id });
  await api(request, token, 'post', `/api/quotazioni/conferma/${q.id}`);

  // The outbox, read as super_admin: the e-mail to the customer carries the personal link.
  const outbox = await api(request, token, 'get', `/api/email_outbox?filter[destinatario]=${encodeURIComponent(customerEmail)}`);
  expect(outbox.data).toHaveLength(1);
  const link = /https?:\/\/\S+\/quotazione\/cliente\/[0-9a-f-]{36}\?parameter1=conferma_cliente/.exec(String(outbox.data[0].corpo))![0];
  const { pathname: path, search } = new URL(link);

  // The customer, on a phone, without login.
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(appUrl(`${path}${search}`));

  // Step 0: information, with the product's pre-contract notices to read before the consents.
  await expect(page.getByRole('heading', { level: 1, name: 'Informazioni' })).toBeVisible();
  await expect(page.getByText('Passo 1 di 5')).toBeVisible();
  const notices = page.getByTestId('informative');
  await expect(notices.getByRole('listitem')).toHaveCount(2);
  const shownVersions = (await notices.getByRole('listitem').allTextContents()).join(' | ');
  expect(shownVersions).toContain('(versione 2024.1, in vigore dal 01/01/2024)');
  const noticeUrl = await notices.getByRole('link').first().getAttribute('href');
  const noticeFile = await context.request.get(appUrl(noticeUrl!));
  expect([noticeFile.status(), noticeFile.headers()['content-type']]).toEqual([200, 'application/pdf']);
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Avanti' }).click();

  // Step 1: personal data, prefilled by the broker; the phone needs +39 and the work activity follows the person type.
  await expect(page.getByRole('heading', { level: 1, name: 'Dati anagrafici' })).toBeVisible();
  await expect(page.getByLabel('Cognome')).toHaveValue(cognome);
  await page.getByLabel('Telefono').fill('3331234567');
  await page.getByRole('radiogroup', { name: 'Nazione di nascita' }).getByLabel('Italia').check();
  await expect(page.getByRole('combobox', { name: 'Attività lavorativa' }).locator('option')).toHaveText(
    ['Seleziona…', 'Dipendente a tempo indeterminato', 'Dipendente a tempo determinato', 'Lavoratore autonomo', 'Disoccupato'],
  );
  await page.getByRole('combobox', { name: 'Attività lavorativa' }).selectOption({ label: 'Lavoratore autonomo' });
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByText('Formato telefono non valido')).toBeVisible();
  await expectFitsPhone(page);
  await expectNoSeriousViolations(page);
  await page.getByLabel('Telefono').fill('+393331234567');
  await page.getByRole('button', { name: 'Avanti' }).click();

  // Step 2: consents 1/2 (the notices beside them), the processing consent refused first.
  await expect(page.getByRole('heading', { level: 1, name: 'Consensi 1/2' })).toBeVisible();
  await expect(page.getByTestId('informative').getByRole('listitem')).toHaveCount(2);
  const trattamento = page.getByRole('radiogroup', { name: /trattamento dei miei dati personali/ });
  await trattamento.getByLabel('Non acconsento').check();
  // The next choice pressed and held across frames, as a finger or a slow click is: the refusal's message above shows
  // only once the press is released, so the radio released on is the one pressed, and it is chosen.
  const marketing = page.getByRole('radiogroup', { name: /comunicazioni commerciali/ }).getByLabel('Non acconsento');
  await marketing.scrollIntoViewIfNeeded();
  const box = (await marketing.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(400);
  await page.mouse.up();
  await expect(marketing).toBeChecked();
  await expect(trattamento).toHaveAccessibleDescription(/Obbligatorio prestare il consenso/);
  await page.getByRole('radiogroup', { name: /compagnie partner/ }).getByLabel('Acconsento', { exact: true }).check();
  await page.getByRole('radiogroup', { name: /profilazione/ }).getByLabel('Acconsento', { exact: true }).check();
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByText('Obbligatorio prestare il consenso')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Consensi 1/2' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await trattamento.getByLabel('Acconsento', { exact: true }).check();
  // Meanwhile staff publish a new set informativo: the answers are not recorded until the customer has it in front of them.
  await notice('set_informativo', '2025.1', '2025-01-01', 'set-informativo-2025.pdf');
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Informative aggiornate' })).toContainText('Le informative precontrattuali sono state aggiornate');
  await expect(page.getByTestId('informative')).toContainText('(versione 2025.1, in vigore dal 01/01/2025)');
  await expect(page.getByRole('heading', { level: 1, name: 'Consensi 1/2' })).toBeVisible();
  await page.getByRole('button', { name: 'Avanti' }).click();

  // Step 3: consents 2/2.
  await expect(page.getByRole('heading', { level: 1, name: 'Consensi 2/2' })).toBeVisible();
  await page.getByRole('radiogroup', { name: /informativa precontrattuale/ }).getByLabel('Acconsento', { exact: true }).check();
  await page.getByRole('radiogroup', { name: /codice OTP/ }).getByLabel('Acconsento', { exact: true }).check();
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Avanti' }).click();

  // Step 4: needs questionnaire and vehicles.
  await expect(page.getByRole('heading', { level: 1, name: 'Questionario e veicoli' })).toBeVisible();
  await answerQuestionnaire(page, { altreCoperture: 'Sì' });
  // Four licences allow two to six daily-use vehicles.
  await page.getByRole('combobox', { name: 'Patenti nel nucleo familiare' }).selectOption({ label: '4' });
  await expect(page.getByRole('combobox', { name: 'Veicoli di uso quotidiano' }).locator('option')).toHaveText(['Seleziona…', '2', '3', '4', '5', '6']);
  await page.getByRole('combobox', { name: 'Veicoli di uso quotidiano' }).selectOption({ label: '2' });
  await fillDailyVehicles(page);
  await expect(page.locator('#root_veicoli_storici_0_targa')).toHaveValue('RM123456');
  await page.getByRole('button', { name: 'Invia' }).click();
  await expect(page.getByText('Non puoi avere altre coperture assicurative in corso sullo stesso rischio')).toBeVisible();
  await expectFitsPhone(page);
  await expectNoSeriousViolations(page);
  await page.getByRole('radiogroup', { name: /altre coperture assicurative/ }).getByLabel('No', { exact: true }).check();
  await page.getByRole('button', { name: 'Invia' }).click();

  // Thanks, then one document per category (and the vehicle's registration document), then 'Termina Caricamento'.
  await expect(page.getByRole('heading', { name: 'Grazie!' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Caricamento documenti' })).toBeVisible();
  await expectNoSeriousViolations(page);
  const titles = ["Carta d'identità", 'Patente', 'Codice fiscale', 'Tessera club', 'Varie', `Libretto LANCIA ${model.modello} RM123456`];
  for (const [i, title] of titles.entries()) {
    const card = page.locator('.card', { has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
    const file = i % 2 ? { name: `documento-${i}.png`, mimeType: 'image/png', buffer: PNG } : { name: `documento-${i}.pdf`, mimeType: 'application/pdf', buffer: PDF };
    await card.locator('input[type=file]').setInputFiles(file);
    await expect(card.getByText(file.name)).toBeVisible();
    await expect(card.getByText('Aggiungi documento (1/3)')).toBeVisible();
  }
  await expect(page.getByRole('status').filter({ hasText: 'Documento caricato con successo' })).toBeVisible();
  // At most 3 per category: the add button goes at the third.
  const varie = page.locator('.card', { has: page.getByRole('heading', { level: 2, name: 'Varie', exact: true }) });
  for (const n of [2, 3]) {
    await varie.locator('input[type=file]').setInputFiles({ name: `varie-${n}.pdf`, mimeType: 'application/pdf', buffer: PDF });
    await expect(varie.getByText(`varie-${n}.pdf`)).toBeVisible();
  }
  await expect(varie.locator('input[type=file]')).toHaveCount(0);
  await expect(varie.getByText('Hai caricato il numero massimo di documenti per questa categoria.')).toBeVisible();
  await expectFitsPhone(page);
  await page.getByRole('button', { name: 'Termina Caricamento' }).click();
  await expect(page.getByRole('heading', { name: 'Caricamento completato' })).toBeVisible();
  await expectNoSeriousViolations(page);

  // The same link is closed now, with the same card as a wrong one.
  await page.goto(appUrl(path));
  await expect(page.getByRole('heading', { name: 'Link non più valido' })).toBeVisible();
  await expect(page.getByText('Il link non è più valido.')).toBeVisible();
  await context.close();

  // Staff: the new status, the customer's consent records and the uploaded files.
  const staff = await browser.newPage();
  await loginAsAdmin(staff);
  await staff.goto(appUrl(`/modifica/quotazione/${q.id}`));
  await expect(staff.getByTestId('intestazione-quotazione')).toContainText('Preventivo in attesa di verifica', { timeout: 30_000 });
  const consensi = staff.getByTestId('consensi');
  await expect(consensi.locator('tbody tr')).toHaveCount(6);
  await expect(consensi).toContainText('Non acconsento');
  await expect(consensi).toContainText('trattamento dei miei dati personali');
  // Each record names the notices shown (ids and versions) and the message that carried the link.
  for (const row of await consensi.locator('tbody tr').all()) {
    await expect(row).toContainText(/Set informativo v\. 2025\.1 \(n\. \d+\)/);
    await expect(row).toContainText('conferma_cliente');
  }
  await expect(staff.getByTestId('storico')).toContainText('Cliente (link personale)');
  await staff.getByRole('tab', { name: 'Documenti' }).click();
  for (const name of ['documento-0.pdf', 'documento-1.png', 'documento-2.pdf', 'documento-3.png', 'documento-4.pdf', 'documento-5.png']) {
    await expect(staff.getByText(name).first()).toBeVisible();
  }
  await staff.close();
});

/** A quotation staff confirmed for a new customer (`extra`: more of its fields): its model and the e-mailed link. */
async function confirmedLink(request: APIRequestContext, extra: Record<string, unknown> = {}) {
  const { email, password } = admin();
  const token = (await (await request.post(appUrl('/api/login'), { data: { email, password } })).json()).token as string;
  const model = (await api(request, token, 'post', '/api/autostoriche', { marca: 'LANCIA', modello: `FLAVIA ${uniqueSurname('E')}`, anno: 1966, valore_b: 6000, colore: 'verde', tipologia: 'A' })).data.model;
  const cognome = uniqueSurname('CLIENTE');
  const customerEmail = `${cognome.toLowerCase()}@example.it`;
  const q = (await api(request, token, 'post', '/api/quotazioni', {
    persona: 'f', sesso: 'F', nome: 'Giulia', cognome, email: customerEmail, cfisc: validCodiceFiscale(), dataNascita: '1980-01-01', nazione_nascita_id: '1',
    provincia_nascita_codice: 'RM', comune_nascita_id: '058091', residenzaIndirizzo: 'Via del Corso', residenzaCivico: '10',
    residenzaCap: '00186', residenza_comune_id: '058091', provincia_codice: 'RM', competenze: 20,
    veicoli_storici: [{ auto_storica_id: model.id, marca: 'LANCIA', modello: model.modello, anno: 1966, tipologia_ania: 'A', targa: 'RM654321' }],
    ...extra,
  })).data.model;
  await api(request, token, 'post', '/api/quotazioni/calcolo', { id: q.id });
  await api(request, token, 'post', `/api/quotazioni/conferma/${q.id}`);
  const outbox = await api(request, token, 'get', `/api/email_outbox?filter[destinatario]=${encodeURIComponent(customerEmail)}`);
  const link = new URL(/https?:\/\/\S+\/quotazione\/cliente\/[0-9a-f-]{36}\S*/.exec(String(outbox.data[0].corpo))![0]);
  return { token, model, id: q.id as number, path: `${link.pathname}${link.search}` };
}

/** In view and focused: what a customer on a phone sees and a screen reader reads at once. */
async function expectShown(message: ReturnType<Page['getByRole']>) {
  await expect(message).toBeInViewport();
  await expect(message).toBeFocused();
}

test('messages after saving, sending and uploading are brought into view and focused', async ({ browser, request }) => {
  test.setTimeout(allow(120_000));
  const { path } = await confirmedLink(request);
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(appUrl(path));
  await customerFormToQuestionnaire(page);
  await answerQuestionnaire(page, { altreCoperture: 'No' });
  await page.getByRole('combobox', { name: 'Patenti nel nucleo familiare' }).selectOption({ label: '4' });
  await page.getByRole('combobox', { name: 'Veicoli di uso quotidiano' }).selectOption({ label: '2' });
  await fillDailyVehicles(page);
  // 'Invia' is at the foot of a long page; the refusal (a vehicle without its plate) is at its head.
  await page.locator('#root_veicoli_storici_0_targa').fill('');
  await page.getByRole('button', { name: 'Invia' }).click();
  await expectShown(page.getByRole('alert').filter({ hasText: 'Controlla i dati inseriti' }));
  await page.locator('#root_veicoli_storici_0_targa').fill('RM654321');
  await page.getByRole('button', { name: 'Invia' }).click();
  await expectShown(page.getByRole('status').filter({ hasText: 'I tuoi dati sono stati inviati correttamente' }));
  // The last slot (the vehicle's booklet) is the furthest from the messages.
  const libretto = page.locator('.card', { has: page.getByRole('heading', { level: 2, name: /^Libretto / }) });
  await libretto.scrollIntoViewIfNeeded();
  await libretto.locator('input[type=file]').setInputFiles({ name: 'libretto.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(libretto.getByText('libretto.pdf')).toBeVisible();
  await expectShown(page.getByRole('status').filter({ hasText: 'Documento caricato con successo' }));
  // A refused file: the error is shown the same way.
  await libretto.locator('input[type=file]').setInputFiles({ name: 'testo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('non un pdf') });
  await expectShown(page.getByRole('alert').filter({ hasText: 'Errore' }));
  await context.close();
});

test('the link shows no internal id, resumes where the customer left off, takes the stored phone, checks the year, lets an upload be removed', async ({ browser, request }) => {
  test.setTimeout(allow(150_000));
  // Staff stored the phone with spaces.
  const { token, model, id, path } = await confirmedLink(request, { telefono: '+39 333 1112233' });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(appUrl(path));
  await page.getByRole('button', { name: 'Avanti' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dati anagrafici' })).toBeVisible();
  // Stored without the spaces, and valid for the customer as it is.
  await expect(page.getByLabel('Telefono')).toHaveValue('+393331112233');
  await page.getByRole('combobox', { name: 'Attività lavorativa' }).selectOption({ label: 'Lavoratore autonomo' });
  await firstConsents(page);

  // Reopened later (a new tab, the same link): on from the step reached, not from the start.
  const again = await context.newPage();
  await page.close();
  await again.goto(appUrl(path));
  await expect(again.getByRole('heading', { level: 1, name: 'Consensi 2/2' })).toBeVisible();
  await expect(again.getByText('Passo 4 di 5')).toBeVisible();
  await again.getByRole('radiogroup', { name: /informativa precontrattuale/ }).getByLabel('Acconsento', { exact: true }).check();
  await again.getByRole('radiogroup', { name: /codice OTP/ }).getByLabel('Acconsento', { exact: true }).check();
  await again.getByRole('button', { name: 'Avanti' }).click();
  await expect(again.getByRole('heading', { level: 1, name: 'Questionario e veicoli' })).toBeVisible();

  // The vehicle row: make and model by name, no row id and no catalogue id anywhere on screen.
  await expect(again.locator('#root_veicoli_storici_0_marca')).toHaveValue('LANCIA');
  await expect(again.locator('#root_veicoli_storici_0_modello')).toHaveValue(model.modello);
  await expect(again.getByText('Id riga')).toHaveCount(0);
  const rowFields = await again.locator('[id^="root_veicoli_storici_0_"]:visible').evaluateAll((els) => els.map((e) => e.id));
  expect(rowFields).toContain('root_veicoli_storici_0_modello');
  expect(rowFields.filter((f) => /_0_(id|auto_storica_id)$/.test(f))).toEqual([]);
  const shown = await again.locator('input:visible, select:visible').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(shown.filter((v) => /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(v) || v === String(model.id))).toEqual([]);

  // The year: from 1900 to this year, said at the field.
  await answerQuestionnaire(again, { altreCoperture: 'No' });
  await again.getByRole('combobox', { name: 'Patenti nel nucleo familiare' }).selectOption({ label: '4' });
  await again.getByRole('combobox', { name: 'Veicoli di uso quotidiano' }).selectOption({ label: '2' });
  await fillDailyVehicles(again);
  const year = new Date().getFullYear();
  await again.locator('#root_veicoli_storici_0_anno').fill(String(year + 1));
  await again.getByRole('button', { name: 'Invia' }).click();
  await expect(again.getByText(`Inserisci un anno valido, dal 1900 al ${year}`).first()).toBeVisible();
  await again.locator('#root_veicoli_storici_0_anno').fill('1966');
  await again.getByRole('button', { name: 'Invia' }).click();
  await expect(again.getByRole('heading', { name: 'Grazie!' })).toBeVisible();

  // A wrong upload removed, after a confirmation; a file staff added is not the customer's to remove.
  const staffUpload = await request.post(appUrl('/api/quotazioni/upload'), {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { id: String(id), collection: 'varie', model: 'Quotazione', file: { name: 'ufficio.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  expect(staffUpload.status(), await staffUpload.text()).toBe(201);
  await again.reload();
  const varie = again.locator('.card', { has: again.getByRole('heading', { level: 2, name: 'Varie', exact: true }) });
  await expect(varie.getByText('ufficio.pdf')).toBeVisible();
  await varie.locator('input[type=file]').setInputFiles({ name: 'sbagliato.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(varie.getByText('sbagliato.pdf')).toBeVisible();
  await expect(varie.getByRole('button', { name: /^Rimuovi/ })).toHaveCount(1);
  await varie.getByRole('button', { name: 'Rimuovi sbagliato.pdf' }).click();
  const dialog = again.getByRole('dialog', { name: 'Rimuovi documento' });
  await expect(dialog).toContainText("Vuoi rimuovere il documento 'sbagliato.pdf'?");
  await dialog.getByRole('button', { name: 'Annulla' }).click();
  await expect(varie.getByText('sbagliato.pdf')).toBeVisible();
  await varie.getByRole('button', { name: 'Rimuovi sbagliato.pdf' }).click();
  await dialog.getByRole('button', { name: 'Rimuovi' }).click();
  await expect(varie.getByText('sbagliato.pdf')).toHaveCount(0);
  await expectShown(again.getByRole('status').filter({ hasText: 'Documento rimosso.' }));
  await expect(varie.getByText('Aggiungi documento (1/3)')).toBeVisible();
  await expectNoSeriousViolations(again);
  await context.close();
});

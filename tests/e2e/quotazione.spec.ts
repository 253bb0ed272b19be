// Historic-car quotations: list with status chips, management screen, derogation flow across roles, outbox, row scope, axe.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Browser, Page } from '@playwright/test';
import { admin, appUrl, demoUsers, draftThroughApi, fillDailyVehicles, login, uniqueSurname } from './helpers.ts';

const user = (email: string) => demoUsers().find((u) => u.email === email)!;
const MARIO = user('mario.rossi@demo.broker.it');
const LAURA = user('laura.verdi@demo.broker.it');
const APPROVER = user('approvatore@demo.broker.it');
const STAFF = user('staff@demo.broker.it');

/** Screenshots for a person to look at, only when asked (E2E_SHOTS=folder). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
}

async function session(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email, password);
  return page;
}

async function token(page: Page): Promise<string> {
  return (await page.evaluate(() => sessionStorage.getItem('token')))!;
}

/** The labels of the workflow action buttons, in order: exactly what the machine allows. */
function actionButtons(page: Page) {
  return page.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button');
}

function status(page: Page) {
  return page.getByTestId('stato-quotazione');
}

/** Runs an action button and accepts its confirmation, checking the question asked. */
async function runAction(page: Page, label: string, question: string) {
  await page.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(question);
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

test('derogation flow: collaborator, approver, confirmation e-mail in the outbox', async ({ browser }) => {
  test.setTimeout(allow(120_000));
  const surname = uniqueSurname('STORICA');
  const email = `${surname.toLowerCase()}@esempio.it`;

  // The collaborator creates the quotation.
  const mario = await session(browser, MARIO.email, MARIO.password);
  await mario.goto(appUrl('/auto_storiche'));
  await mario.getByRole('button', { name: 'Nuova Quotazione' }).click();
  await expect(mario).toHaveURL(/\/new\/quotazione$/);
  await expect(mario.getByRole('heading', { level: 1 })).toHaveText('Nuova Quotazione');
  await expect(actionButtons(mario)).toHaveText(['Salva']);

  await mario.getByLabel('Sesso').selectOption({ label: 'Maschio' });
  await mario.getByRole('textbox', { name: 'Nome', exact: true }).fill('Giorgio');
  await mario.getByRole('textbox', { name: 'Cognome', exact: true }).fill(surname);
  await mario.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await mario.getByLabel('Telefono').fill('+39 333 1234567');
  await mario.getByRole('textbox', { name: 'Provincia', exact: true }).fill('RM');

  // Legal person: the natural-person fields go, company name and VAT number come.
  await mario.getByLabel('Persona').selectOption({ label: 'Giuridica' });
  await expect(mario.getByLabel('Ragione Sociale')).toBeVisible();
  await expect(mario.getByLabel('Sesso')).toHaveCount(0);
  await expect(mario.getByLabel('Data di Nascita')).toHaveCount(0);
  await mario.getByLabel('Persona').selectOption({ label: 'Fisica' });
  await expect(mario.getByLabel('Ragione Sociale')).toHaveCount(0);
  // Hidden fields hold no data (the schema's condition maps them to false): the person's data is typed again.
  await expect(mario.getByRole('textbox', { name: 'Nome', exact: true })).toHaveValue('');
  await mario.getByLabel('Sesso').selectOption({ label: 'Maschio' });
  await mario.getByRole('textbox', { name: 'Nome', exact: true }).fill('Giorgio');
  await mario.getByRole('textbox', { name: 'Cognome', exact: true }).fill(surname);

  // Daily-use vehicles follow the declared count: rows added and removed at the end.
  const moderni = mario.locator('[id^="root_veicoli_moderni_"][id$="_marca"]');
  await expect(moderni).toHaveCount(1);
  await mario.locator('#root_quotidiano').fill('3');
  await expect(moderni).toHaveCount(3);
  await mario.locator('#root_quotidiano').fill('1');
  await expect(moderni).toHaveCount(1);
  await mario.locator('#root_veicoli_moderni_0_marca').fill('Fiat');
  await mario.locator('#root_veicoli_moderni_0_modello').fill('Panda');
  await mario.locator('#root_veicoli_moderni_0_anno').fill('19');
  await mario.locator('#root_veicoli_moderni_0_anno').blur();
  await expect(mario.locator('#root_veicoli_moderni_0_anno__error')).toHaveText("L'anno deve essere di 4 cifre");
  await mario.locator('#root_veicoli_moderni_0_anno').fill('2019');
  await mario.locator('#root_veicoli_moderni_0_targa').fill('fx123ab');

  // A yellow model from the catalogue: make, then search among its models.
  await mario.getByRole('button', { name: 'Aggiungi veicolo' }).click();
  const dialog = mario.getByRole('dialog', { name: 'Aggiungi veicolo storico' });
  await dialog.getByLabel('Marca').selectOption('FIAT');
  await dialog.getByLabel('Cerca modello').fill('124');
  await dialog.getByRole('radio', { name: /124 SPIDER/ }).check();
  await expect(dialog.getByLabel('Anno')).toHaveValue('1966');
  await dialog.getByRole('button', { name: 'Aggiungi', exact: true }).click();
  await expect(dialog.locator('.invalid-feedback')).toHaveText(['Campo Obbligatorio.']);
  await expectNoSeriousViolations(mario);
  await dialog.getByLabel('Targa', { exact: true }).fill(' ab123cd ');
  await dialog.getByLabel('Furto').check();
  await dialog.getByRole('button', { name: 'Aggiungi', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const vehicle = mario.getByTestId('veicolo-storico');
  await expect(vehicle).toHaveCount(1);
  await expect(vehicle).toContainText('124 SPIDER');
  await expect(vehicle).toContainText('AB123CD');
  await expect(vehicle).toContainText('Autovettura');
  // A second vehicle, then removed again after the confirmation.
  await mario.getByRole('button', { name: 'Aggiungi veicolo' }).click();
  await dialog.getByLabel('Marca').selectOption('FIAT');
  await dialog.getByRole('radio', { name: /^500 F/ }).check();
  await dialog.getByLabel('Targa', { exact: true }).fill('RM000222');
  await dialog.getByRole('button', { name: 'Aggiungi', exact: true }).click();
  await expect(vehicle).toHaveCount(2);
  await mario.getByRole('button', { name: 'Elimina veicolo FIAT 500 F RM000222' }).click();
  const confirmDelete = mario.getByRole('dialog');
  await expect(confirmDelete).toContainText('Sicuro di voler cancellare il veicolo?');
  await confirmDelete.getByRole('button', { name: 'Elimina' }).click();
  await expect(vehicle).toHaveCount(1);
  await expect(vehicle).toContainText('AB123CD');
  await shot(mario, 'quotazione-nuova');

  await mario.getByRole('button', { name: 'Salva', exact: true }).click();
  await expect(mario).toHaveURL(/\/modifica\/quotazione\/\d+$/);
  const id = Number(mario.url().split('/').pop());
  await expect(mario.getByRole('heading', { level: 1 })).toHaveText(`Quotazione n. ${id} - ${surname} GIORGIO`);
  await expect(mario.getByTestId('intestazione-quotazione')).toContainText(`GIORGIO ${surname}`);
  await expect(mario.getByTestId('intestazione-quotazione')).toContainText(MARIO.name);
  // The product by its title, not its code.
  await expect(mario.getByTestId('intestazione-quotazione')).toContainText('Auto Storiche ITAS');
  await expect(mario.getByTestId('intestazione-quotazione')).not.toContainText('auto_storica_itas');
  await expect(status(mario)).toHaveText('Bozza');
  // Not calculated yet: the machine does not offer Conferma.
  await expect(actionButtons(mario)).toHaveText(['Aggiorna']);

  await mario.getByRole('button', { name: 'Calcola' }).click();
  await expect(mario.getByTestId('notice').filter({ hasText: 'Calcolo eseguito.' })).toBeVisible();
  // Yellow is for who holds show_quotazioni_suoi_collaboratori (spec 000 §2.9): the collaborator sees no chip.
  await expect(mario.getByTestId('colore-quotazione')).toHaveCount(0);
  await expect(mario.getByTestId('premio-totale')).toHaveText(/€/);
  // Insurer premium and broker rights are for super_admin only.
  await expect(mario.getByTestId('premio-compagnia')).toHaveCount(0);
  await expect(mario.getByTestId('avviso-workflow')).toHaveText(['Attenzione! Deroga necessaria.']);
  await expect(actionButtons(mario)).toHaveText(['Aggiorna', 'Conferma']);

  // Competenze change the total at once; a forced premium under the premium is red and the server warns on save.
  const cents = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
  const base = cents(await mario.getByTestId('premio-base').textContent());
  await mario.getByRole('textbox', { name: 'Competenze' }).fill('20');
  await expect.poll(async () => cents(await mario.getByTestId('premio-totale').textContent())).toBe(base + 2000);
  await mario.getByRole('textbox', { name: 'Premio forzato' }).fill('100');
  await expect(mario.getByTestId('premio-forzato')).toHaveClass(/text-danger/);
  await mario.getByRole('button', { name: 'Aggiorna', exact: true }).click();
  await expect(mario.getByRole('complementary').getByText('Il premio forzato è inferiore al premio calcolato.')).toBeVisible();
  await expect(mario.getByRole('textbox', { name: 'Competenze' })).toHaveValue('20');
  await expect(actionButtons(mario)).toHaveText(['Aggiorna', 'Conferma']);
  await shot(mario, 'quotazione-bozza');
  await expectNoSeriousViolations(mario);

  await runAction(mario, 'Conferma', 'Attenzione! Deroga necessaria. Vuoi inviare la quotazione in deroga?');
  await expect(status(mario)).toHaveText('In attesa di deroga');
  await expect(actionButtons(mario)).toHaveText([]);
  await expect(mario.getByTestId('storico').locator('tbody tr')).toHaveCount(1);

  // The approver sees Approva and Rifiuta only.
  const approver = await session(browser, APPROVER.email, APPROVER.password);
  await approver.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(status(approver)).toHaveText('In attesa di deroga');
  await expect(actionButtons(approver)).toHaveText(['Approva', 'Rifiuta']);
  await runAction(approver, 'Approva', 'Approvare la quotazione in deroga?');
  await expect(status(approver)).toHaveText('Quotazione approvata');
  await expect(actionButtons(approver)).toHaveText([]);
  await shot(approver, 'quotazione-approvata');

  // Back to the collaborator: confirm to the customer.
  await mario.reload();
  await expect(status(mario)).toHaveText('Quotazione approvata');
  await expect(actionButtons(mario)).toHaveText(['Conferma', 'Conferma per emissione diretta']);
  await runAction(mario, 'Conferma', "Confermare la quotazione e inviare l'email al cliente?");
  await expect(status(mario)).toHaveText('In attesa compilazione form');
  await expect(actionButtons(mario)).toHaveText([]);
  const storico = mario.getByTestId('storico').locator('tbody tr');
  await expect(storico).toHaveCount(3);
  await expect(storico.nth(1)).toContainText(APPROVER.name);
  await expect(storico.nth(1)).toContainText('Approva');

  // The customer's e-mail waits in the outbox, seen by super_admin.
  const root = await session(browser, admin().email, admin().password);
  await root.getByRole('link', { name: 'Email in uscita' }).click();
  await root.getByRole('searchbox', { name: /Cerca in Email in uscita/ }).fill(email);
  const mail = root.locator('.ag-row', { hasText: email });
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText(`La tua quotazione auto storica n. ${id}`);

  // super_admin also sees the insurer's premium and the broker's rights, and may change the status by hand.
  await root.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(status(root)).toHaveText('In attesa compilazione form');
  await expect(root.getByTestId('premio-compagnia')).toHaveText(/€/);
  await expect(root.getByTestId('diritti-broker')).toHaveText(/€/);
  await expect(actionButtons(root)).toHaveText([]);
  await expect(root.getByLabel('Nuovo stato')).toBeVisible();
});

test('status chips count per status and filter the list', async ({ browser }) => {
  const mario = await session(browser, MARIO.email, MARIO.password);
  await mario.goto(appUrl('/auto_storiche'));
  const counts = (await (
    await mario.request.get(appUrl('/api/stati_quotazione'), { headers: { Authorization: `Bearer ${await token(mario)}` } })
  ).json()) as { data: Array<{ id: number; nome: string; count: number }> };
  const chips = mario.getByRole('group', { name: 'Filtra per stato' }).getByRole('button');
  const total = counts.data.reduce((sum, s) => sum + s.count, 0);
  expect(total).toBeGreaterThan(0);
  await expect(chips).toHaveText([`Tutti${total}`, ...counts.data.map((s) => `${s.nome}${s.count}`)]);
  await expect(mario.getByText(`${total} elementi`)).toBeVisible();

  const bozza = counts.data.find((s) => s.id === 1)!;
  const bozzaChip = chips.filter({ hasText: /^Bozza\d+$/ });
  await bozzaChip.click();
  await expect(mario).toHaveURL(/filter%5Bstato_quotazione_id%5D=1/);
  await expect(bozzaChip).toHaveAttribute('aria-pressed', 'true');
  await expect(mario.getByText(bozza.count === 1 ? '1 elemento' : `${bozza.count} elementi`)).toBeVisible();
  const stati = mario.locator('.ag-row [col-id="stato_quotazione_id"]');
  await expect(stati).toHaveText(Array(Math.min(bozza.count, 15)).fill('Bozza'));
  await shot(mario, 'lista-bozza');

  await chips.filter({ hasText: /^Tutti\d+$/ }).click();
  await expect(mario).not.toHaveURL(/stato_quotazione_id/);
  await expect(mario.getByText(`${total} elementi`)).toBeVisible();
});

test("a collaborator cannot see another collaborator's quotation", async ({ browser }) => {
  const mario = await session(browser, MARIO.email, MARIO.password);
  const list = await (
    await mario.request.get(appUrl('/api/quotazioni?per_page=1'), { headers: { Authorization: `Bearer ${await token(mario)}` } })
  ).json();
  const theirs = list.data[0] as { id: number; cognome: string };
  expect(theirs.id).toEqual(expect.any(Number));

  const laura = await session(browser, LAURA.email, LAURA.password);
  await laura.goto(appUrl(`/modifica/quotazione/${theirs.id}`));
  await expect(laura.getByRole('alert')).toContainText('[404] risorsa non trovata');
  await laura.goto(appUrl(`/auto_storiche?search=${encodeURIComponent(theirs.cognome)}`));
  await expect(laura.locator('.ag-overlay-no-rows-center')).toHaveText('nessun elemento trovato');
  await expect(laura.getByRole('group', { name: 'Filtra per stato' }).getByRole('button').first()).toHaveText('Tutti0');
});

/** A calculated draft of Mario Rossi made through the API, with one model of the catalogue. */

test('a rejection asks for a note and sends the quotation back to draft', async ({ browser }) => {
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draftThroughApi(mario, /^124 SPIDER/, uniqueSurname('DEROGA'));
  await mario.goto(appUrl(`/modifica/quotazione/${id}`));
  await runAction(mario, 'Conferma', 'Attenzione! Deroga necessaria. Vuoi inviare la quotazione in deroga?');
  await expect(status(mario)).toHaveText('In attesa di deroga');

  const approver = await session(browser, APPROVER.email, APPROVER.password);
  await approver.goto(appUrl(`/modifica/quotazione/${id}`));
  await approver.getByRole('toolbar', { name: 'Azioni della quotazione' }).getByRole('button', { name: 'Rifiuta', exact: true }).click();
  const dialog = approver.getByRole('dialog');
  await expect(dialog).toContainText('Rifiutare la deroga? La quotazione torna in bozza.');
  await dialog.getByRole('button', { name: 'Rifiuta' }).click();
  await expect(dialog.getByLabel('Nota')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Campo Obbligatorio.');
  await expectNoSeriousViolations(approver);
  await dialog.getByLabel('Nota').fill('Valore del veicolo da verificare');
  await dialog.getByRole('button', { name: 'Rifiuta' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(status(approver)).toHaveText('Bozza');
  const last = approver.getByTestId('storico').locator('tbody tr').last();
  await expect(last).toContainText('Rifiuta');
  await expect(last).toContainText('Valore del veicolo da verificare');
});

test('direct quotation screen and manual status change', async ({ browser }) => {
  test.setTimeout(allow(180_000));
  const surname = uniqueSurname('DIRETTA');
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draftThroughApi(mario, /^500 F/, surname);
  await mario.goto(appUrl(`/modifica/quotazione/${id}`));
  // A first render of the screen may take long on a busy machine.
  await expect(actionButtons(mario)).toHaveText(['Aggiorna', 'Conferma', 'Conferma per emissione diretta'], { timeout: 30_000 });
  await expect(mario.getByTestId('avviso-workflow')).toHaveCount(0);
  await runAction(mario, 'Conferma per emissione diretta', 'Confermare la quotazione per la compilazione diretta dei dati del cliente?');
  // Status 12 lives on the direct screen; the list's edit leads there too.
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione_diretta/${id}$`));
  await expect(status(mario)).toHaveText('In attesa compilazione diretta');
  await mario.goto(appUrl(`/auto_storiche?search=${surname}`));
  await mario.getByRole('button', { name: new RegExp(`^Modifica Quotazione n. ${id}`) }).click();
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione_diretta/${id}$`));
  // The direct screen (spec 001 §2): tabs, 'Salva', gender A is a company (names and birth data hidden, company name and VAT shown).
  await expect(actionButtons(mario)).toHaveText(['Salva', 'Passa in attesa di emissione']);
  await expect(mario.getByRole('tab', { name: 'Raccolta dati' })).toBeVisible();
  await expect(mario.getByRole('tab', { name: 'Documenti' })).toBeVisible();
  await expect(mario.getByLabel('Ragione Sociale')).toHaveCount(0);
  // The collaborator is picked by name, never typed as a code.
  await expect(mario.getByLabel('Collaboratore')).toHaveValue(/ROSSI/);
  // Not without the policyholder's tax code, which the issue sends to the insurer: said at the field, the status stays.
  await runAction(mario, 'Passa in attesa di emissione', 'Passare la quotazione in attesa di emissione?');
  const codiceFiscale = mario.getByRole('textbox', { name: 'Codice Fiscale' });
  await expect(codiceFiscale).toHaveAttribute('aria-invalid', 'true');
  await expect(status(mario)).toHaveText('In attesa compilazione diretta');
  await codiceFiscale.fill('RSSMRA80A01H501U');
  await fillDailyVehicles(mario);
  await runAction(mario, 'Passa in attesa di emissione', 'Passare la quotazione in attesa di emissione?');
  await expect(status(mario)).toHaveText('In attesa di emissione');
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione/${id}$`));
  await expect(actionButtons(mario)).toHaveText(['Richiedi emissione']);
  // The direct address of a quotation that is not direct goes back to the normal screen.
  await mario.goto(appUrl(`/modifica/quotazione_diretta/${id}`));
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione/${id}$`));
  // No manual change without cambiare_stato_quotazione.
  await expect(mario.getByLabel('Nuovo stato')).toHaveCount(0);

  const staff = await session(browser, STAFF.email, STAFF.password);
  await staff.goto(appUrl(`/modifica/quotazione/${id}`));
  await expect(status(staff)).toHaveText('In attesa di emissione', { timeout: 30_000 });
  // Staff may issue, so the request for issue is not theirs (spec 001 §4).
  await expect(actionButtons(staff)).toHaveText([]);
  await staff.getByLabel('Nuovo stato').selectOption({ label: 'Bozza' });
  await staff.getByRole('button', { name: 'Cambia stato' }).click();
  const dialog = staff.getByRole('dialog');
  await expect(dialog).toContainText('Cambiare manualmente lo stato della quotazione?');
  await dialog.getByRole('button', { name: 'Cambia stato' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(status(staff)).toHaveText('Bozza');
  await expect(actionButtons(staff)).toHaveText(['Aggiorna', 'Conferma', 'Conferma per emissione diretta']);
  await shot(staff, 'quotazione-staff');
  await expect(staff.getByTestId('storico').locator('tbody tr').last()).toContainText('Cambia stato');

});

test('direct quotation of a company: gender A, issue date in the right column, Salva, then Passa in attesa di emissione', async ({ browser }) => {
  test.setTimeout(allow(180_000));
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draftThroughApi(mario, /^500 F/, uniqueSurname('DIRETTA'));
  const headers = { Authorization: `Bearer ${await token(mario)}` };
  expect((await mario.request.post(appUrl(`/api/quotazioni/confermaDiretta/${id}`), { headers })).ok()).toBe(true);
  await mario.goto(appUrl(`/modifica/quotazione_diretta/${id}`));
  const drawer = mario.getByRole('complementary', { name: 'Anteprima quotazione' });
  await expect(drawer).toBeVisible({ timeout: 30_000 });
  await expect(mario.locator('#root_nome')).toBeVisible();
  await expect(mario.locator('#root_rsoc')).toHaveCount(0);
  await expect(mario.locator('#root_piva')).toHaveCount(0);

  // The right column: status chip, premiums, the issue date, Salva and the emission button.
  await expect(drawer.getByTestId('stato-quotazione')).toHaveText('In attesa compilazione diretta');
  await expect(drawer.getByTestId('premio-totale')).toBeVisible();
  await expect(drawer.getByLabel('Decorrenza')).toBeVisible();
  await expect(mario.getByRole('tabpanel').getByLabel('Decorrenza')).toHaveCount(0);
  await expect(actionButtons(mario)).toHaveText(['Salva', 'Passa in attesa di emissione']);

  // Gender A is a company: names and birth data hidden, company name and VAT number shown; the gender stays chosen.
  await mario.getByLabel('Genere').selectOption({ label: 'Azienda' });
  await expect(mario.locator('#root_nome')).toHaveCount(0);
  await expect(mario.locator('#root_cognome')).toHaveCount(0);
  await expect(mario.locator('#root_dataNascita')).toHaveCount(0);
  await expect(mario.locator('#root_nazione_nascita_id')).toHaveCount(0);
  await expect(mario.getByLabel('Genere').locator('option:checked')).toHaveText('Azienda');
  await mario.getByLabel('Ragione Sociale').fill('Auto d\'epoca srl');
  await mario.getByLabel('Partita IVA').fill('01234567897');
  // The collaborator is picked by name from the suggestions, never typed as a code.
  const collaboratore = mario.getByRole('combobox', { name: 'Collaboratore' });
  await collaboratore.fill('ross');
  await mario.getByRole('option', { name: 'ROSSI MARIO' }).click();
  await expect(collaboratore).toHaveValue('ROSSI MARIO');
  await drawer.getByLabel('Decorrenza').fill('01/03/2027');
  // One daily-use vehicle declared: its row is filled in.
  for (const [field, value] of [['marca', 'Fiat'], ['modello', 'Panda'], ['anno', '2019'], ['targa', 'AB123CD']]) {
    await mario.locator(`#root_veicoli_moderni_0_${field}`).fill(value!);
  }
  await expectNoSeriousViolations(mario);
  await actionButtons(mario).getByText('Salva', { exact: true }).click();
  await expect(mario.getByText(/Quotazione (aggiornata|salvata) con successo/)).toBeVisible();
  const saved = (await (await mario.request.get(appUrl(`/api/quotazioni/${id}`), { headers })).json()).data;
  expect(saved).toMatchObject({ persona: 'g', sesso: 'A', rsoc: "AUTO D'EPOCA SRL", piva: '01234567897', nome: null, cognome: null, decorrenza: '2027-03-01', stato_quotazione_id: 12 });
  // After the reload the company is still shown as such.
  await mario.reload();
  await expect(mario.getByLabel('Ragione Sociale')).toHaveValue("AUTO D'EPOCA SRL");
  await expect(mario.locator('#root_nome')).toHaveCount(0);

  // 'Passa in attesa di emissione' saves pending changes first, then emits.
  await mario.getByLabel('Partita IVA').fill('12345678903');
  await runAction(mario, 'Passa in attesa di emissione', 'Passare la quotazione in attesa di emissione?');
  await expect(mario).toHaveURL(new RegExp(`/modifica/quotazione/${id}$`));
  await expect(status(mario)).toHaveText('In attesa di emissione');
  const emitted = (await (await mario.request.get(appUrl(`/api/quotazioni/${id}`), { headers })).json()).data;
  expect(emitted).toMatchObject({ persona: 'g', sesso: 'A', piva: '12345678903', stato_quotazione_id: 7 });
});

test('the list offers delete only where the machine allows it; a refusal closes the question and says why', async ({ browser }) => {
  const surname = uniqueSurname('FIRMA');
  const mario = await session(browser, MARIO.email, MARIO.password);
  const id = await draftThroughApi(mario, /^500 F/, surname);
  const other = await draftThroughApi(mario, /^500 F/, surname);
  const staff = await session(browser, STAFF.email, STAFF.password);
  const moveToSignature = async (quotation: number) => {
    const moved = await staff.request.post(appUrl('/api/quotazioni/cambioStato'), {
      headers: { Authorization: `Bearer ${await token(staff)}` },
      data: { id: quotation, stato_quotazione_id: 9 },
    });
    expect(moved.status()).toBe(200);
  };
  await moveToSignature(id);
  await staff.goto(appUrl(`/auto_storiche?search=${surname}`));
  const row = staff.locator('.ag-row', { hasText: `${id}` }).filter({ hasText: 'In attesa di firma' });
  await expect(staff.locator('.ag-row', { hasText: surname })).toHaveCount(2);
  await expect(row).toHaveCount(1);
  // In 'In attesa di firma' the machine has no delete: the row offers none.
  await expect(staff.getByRole('button', { name: new RegExp(`^Elimina Quotazione n. ${id} `) })).toHaveCount(0);
  await expect(staff.getByRole('button', { name: new RegExp(`^Modifica Quotazione n. ${id} `) })).toHaveCount(1);
  // The other one is still a draft; it moves on while the question is open: the server refuses, the dialog closes.
  await staff.getByRole('button', { name: new RegExp(`^Elimina Quotazione n. ${other} `) }).click();
  const dialog = staff.getByRole('dialog');
  await expect(dialog).toContainText('Sicuro di voler cancellare la quotazione?');
  await moveToSignature(other);
  await dialog.getByRole('button', { name: 'Elimina' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(staff.getByTestId('notice').filter({ hasText: 'In attesa di firma' })).toBeVisible();
  await expect(staff.locator('.ag-row', { hasText: surname })).toHaveCount(2);
});

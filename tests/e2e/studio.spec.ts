// The definitions studio, through its screens only: a field added to customers shows in their form and list, a rename
// keeps the stored value, and going back to the previous version takes the field away again; no restart.
import { expect, test } from './fixtures.ts';
import { appUrl, loginAsAdmin } from './helpers.ts';
import { expectNoSeriousViolations } from './axe.ts';

test('studio: add a customer field, rename it keeping data, go back to the previous version', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page);
  await page.goto(appUrl('/studio'));
  await expect(page.getByRole('heading', { name: 'Campi' })).toBeVisible();
  await page.getByLabel('Risorsa').selectOption('cliente');
  const before = Number((await page.getByText(/Definizioni in uso: versione \d+/).textContent())!.match(/versione (\d+)/)![1]);
  await expectNoSeriousViolations(page);

  await page.getByRole('button', { name: 'Nuovo campo' }).click();
  await page.getByLabel('Nome tecnico').fill('professione_studio');
  await page.getByLabel('Etichetta').fill('Professione');
  await page.getByLabel('Colonna nella lista').check();
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  const piano = page.getByTestId('studio-piano');
  await expect(piano).toContainText('ALTER TABLE "cliente" ADD COLUMN "professione_studio" text');
  await expectNoSeriousViolations(page);
  await piano.getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 1}` })).toBeVisible();

  // The application, not the studio: the list's column and the form's field, with a value saved.
  await page.goto(appUrl('/cliente?sort=id'));
  await expect(page.getByRole('columnheader', { name: 'Professione' })).toBeVisible();
  await page.getByRole('button', { name: /^Modifica / }).first().click();
  await page.getByLabel('Professione').fill('Restauratore');
  await page.getByRole('button', { name: 'Aggiorna' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: /aggiornat|salvat/i }).first()).toBeVisible();
  const editUrl = page.url();

  // Rename: the stored value follows the field.
  await page.goto(appUrl('/studio'));
  await page.getByLabel('Risorsa').selectOption('cliente');
  await page.getByRole('button', { name: 'Modifica il campo Professione' }).click();
  await page.getByLabel('Nome tecnico').fill('professione');
  await page.getByLabel('Etichetta').fill('Professione svolta');
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  await expect(page.getByTestId('studio-piano')).toContainText('RENAME COLUMN "professione_studio" TO "professione"');
  await page.getByTestId('studio-piano').getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 2}` })).toBeVisible();
  await page.goto(editUrl);
  await expect(page.getByLabel('Professione svolta')).toHaveValue('Restauratore');

  // Back to the version before the field: the form no longer shows it (the column and its data stay in the table).
  await page.goto(appUrl('/studio'));
  await page.getByTestId('studio-versioni').getByRole('row').filter({ has: page.getByRole('cell', { name: String(before), exact: true }) })
    .getByRole('button', { name: 'Ripristina questa versione' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ripristina' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 3}` })).toBeVisible();
  await page.goto(editUrl);
  await expect(page.getByLabel('Cognome')).toBeVisible();
  await expect(page.getByLabel('Professione svolta')).toHaveCount(0);
});

test('studio: a conditional field, a computed field, a new resource in the menu, a guarded transition; then back', async ({ page }) => {
  test.setTimeout(240_000);
  await loginAsAdmin(page);
  const headers = { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
  await page.goto(appUrl('/studio'));
  await page.getByLabel('Risorsa').selectOption('cliente');
  const before = Number((await page.getByText(/Definizioni in uso: versione \d+/).textContent())!.match(/versione (\d+)/)![1]);
  let versione = before;
  const applyPlanned = async (expected: string | RegExp) => {
    await page.getByRole('button', { name: 'Verifica il piano' }).click();
    const piano = page.getByTestId('studio-piano');
    await expect(piano).toContainText(expected);
    await piano.getByRole('button', { name: 'Applica' }).click();
    versione++;
    await expect(page.getByTestId('notice').filter({ hasText: `versione ${versione}` })).toBeVisible();
  };
  const nuovoCampo = async (values: Record<string, string>) => {
    await page.getByRole('button', { name: 'Nuovo campo' }).click();
    const form = page.getByRole('region', { name: 'Nuovo campo' });
    for (const [label, value] of Object.entries(values)) {
      const input = form.getByLabel(label);
      if (await input.evaluate((e) => e.tagName === 'SELECT')) await input.selectOption({ label: value });
      else await input.fill(value);
    }
  };

  await nuovoCampo({ 'Nome tecnico': 'ragione_estesa', Etichetta: 'Ragione sociale estesa', 'Visibile solo quando il campo': 'tipo', 'ha il valore': 'CORPORATE' });
  await applyPlanned('ADD COLUMN "ragione_estesa" text');
  await nuovoCampo({ 'Nome tecnico': 'premio_studio', Etichetta: 'Premio studio', Tipo: 'Importo in euro' });
  await applyPlanned('ADD COLUMN "premio_studio" numeric(14,2)');
  await nuovoCampo({ 'Nome tecnico': 'totale_studio', Etichetta: 'Totale studio', Tipo: 'Importo in euro', 'Calcolato come': 'premio_studio * 2' });
  await applyPlanned('ADD COLUMN "totale_studio" numeric(14,2)');

  await page.getByRole('button', { name: 'Nuova risorsa' }).click();
  await page.getByLabel('Nome tecnico della risorsa').fill('officina');
  await page.getByLabel('Titolo (plurale, anche nel menu)').fill('Officine');
  await page.getByLabel('Singolare').fill('Officina');
  await page.getByLabel('Nome femminile (Nuova …)').check();
  await page.getByLabel('Chi la vede (permesso)').selectOption({ label: 'show_dashboard — Vede la dashboard' });
  await page.getByLabel('Chi la modifica (permesso)').selectOption({ label: 'show_dashboard — Vede la dashboard' });
  await applyPlanned('CREATE TABLE "officina"');

  await page.getByLabel('Flusso').selectOption('quotazione_auto_storica');
  await page.getByRole('button', { name: 'Nuova transizione' }).click();
  await page.getByLabel('Stato di partenza').selectOption({ label: 'Bozza' });
  await page.getByLabel('Evento (MAIUSCOLE_CON_TRATTINI_BASSI)').fill('CHIEDI_DEROGA');
  await page.getByLabel('Etichetta del pulsante').fill('Chiedi deroga');
  await page.getByLabel('Stato di arrivo').selectOption({ label: 'In attesa di deroga' });
  await page.getByLabel('Permesso richiesto').selectOption({ label: 'conferma_quotazione — Salva, aggiorna e conferma le quotazioni' });
  await applyPlanned(/Istruzioni sul database/);

  await page.getByLabel('Risorsa').selectOption('cliente');
  await page.getByRole('button', { name: 'Lista', exact: true }).click();
  await page.getByRole('region', { name: 'Lista di Clienti' }).getByLabel('Righe per pagina').fill('25');
  await applyPlanned(/Istruzioni sul database/);

  try {
    // In the application: the customer form hides the conditional field until Corporate, and computes the total.
    await page.goto(appUrl('/cliente?sort=id'));
    await page.getByRole('button', { name: /^Modifica / }).first().click();
    await page.getByLabel('Tipo Cliente').selectOption({ label: 'Retail' });
    await expect(page.getByLabel('Ragione sociale estesa')).toHaveCount(0);
    await page.getByLabel('Tipo Cliente').selectOption({ label: 'Corporate' });
    await expect(page.getByLabel('Ragione sociale estesa')).toBeVisible();
    await page.getByLabel('Premio studio').fill('100');
    await expect(page.getByLabel('Totale studio')).toHaveValue(/200/);
    await page.goto(appUrl('/cliente'));
    await expect(page.getByRole('combobox', { name: 'Righe per pagina' })).toHaveValue('25');

    // The new resource: in the side menu, listed, and a record saved through its generic form.
    await page.goto(appUrl('/'));
    await page.getByRole('link', { name: 'Officine' }).first().click();
    await expect(page).toHaveURL(/\/officina$/);
    await page.getByRole('button', { name: 'Nuova Officina' }).click();
    await page.getByLabel('Nome').fill('Officina Rossi');
    await page.getByRole('button', { name: 'Aggiungi' }).click();
    await expect(page.getByTestId('notice').first()).toBeVisible();
    await page.goto(appUrl('/officina'));
    await expect(page.getByRole('gridcell', { name: 'Officina Rossi', exact: true })).toBeVisible();

    // The transition: a draft quotation offers 'Chiedi deroga' to whoever holds the permission.
    const bozze = await (await page.request.get(appUrl('/api/quotazioni?filter[stato_quotazione_id]=1&per_page=1'), { headers })).json();
    await page.goto(appUrl(`/modifica/quotazione/${bozze.data[0].id}`));
    await expect(page.getByRole('button', { name: 'Chiedi deroga' })).toBeVisible();
  } finally {
    const now = (await (await page.request.get(appUrl('/api/definizioni'), { headers })).json()).versione;
    const back = await page.request.post(appUrl(`/api/definizioni/versioni/${before}/ripristina`), { headers, data: { versione: now } });
    expect(back.status(), await back.text()).toBe(200);
  }
});

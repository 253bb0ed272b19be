// The dashboard's desks (issue 18) on the demo data: charts and cards by permission, products and appendices opening
// their owner's tab, the documents tracking desk (filter by what is missing, confirm), the archive (download, preview).
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { appUrl, demoUsers, login } from './helpers.ts';
import { giornoIso } from '../../src/shared/dates.ts';

const STAFF = demoUsers().find((u) => u.email === 'staff@demo.broker.it')!;
const COLLAB = demoUsers().find((u) => u.email === 'mario.rossi@demo.broker.it')!;
const DOMANI = giornoIso(1);

async function token(page: Page) {
  return page.evaluate(() => sessionStorage.getItem('token'));
}

async function api(page: Page, method: 'get' | 'post', path: string, data?: unknown) {
  const res = await page.request[method](appUrl(path), { headers: { authorization: `Bearer ${await token(page)}` }, ...(data ? { data } : {}) });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** The demo quotation of this surname, by the list's search. */
async function quotazione(page: Page, cognome: string, stato: number): Promise<number> {
  const list = await api(page, 'get', `/api/quotazioni?search=${cognome}&filter[stato_quotazione_id]=${stato}`);
  expect(list.data.length, `demo quotation ${cognome} in status ${stato}`).toBeGreaterThan(0);
  return list.data[0].id as number;
}

/** The grid's data rows (not the header row). */
const dataRows = (page: Page) => page.getByRole('row').filter({ has: page.getByRole('gridcell') });

test('dashboard: charts drawn from the user\'s data, cards only for permitted pages, live counts', async ({ page, browser }) => {
  await login(page, STAFF.email, STAFF.password);
  await page.goto(appUrl('/dashboard'));
  for (const id of ['grafico-premi', 'grafico-quotazioni', 'grafico-scaduti']) await expect(page.getByTestId(id).locator('canvas')).toBeVisible();
  const cards = page.locator('.dashboard-card a');
  await expect(cards.filter({ hasText: 'Prodotti' })).toHaveCount(1);
  await expect(cards.filter({ hasText: 'Track Gestione Documenti' })).toHaveCount(1);
  await expect(page.getByTestId('conteggio-documenti_mancanti')).toContainText('con documenti mancanti');
  await expectNoSeriousViolations(page, { bestPractice: false, everyImpact: true });

  // A collaborator: the same charts over their own data, no products desk.
  const collab = await (await browser.newContext()).newPage();
  await login(collab, COLLAB.email, COLLAB.password);
  await collab.goto(appUrl('/dashboard'));
  await expect(collab.getByTestId('grafico-quotazioni').locator('canvas')).toBeVisible();
  await expect(collab.locator('.dashboard-card a').filter({ hasText: /^Gestione Documenti$/ })).toHaveCount(1);
  await expect(collab.locator('.dashboard-card a').filter({ hasText: 'Prodotti' })).toHaveCount(0);
  // The chart counts what the user's own quotation list holds, for each of them.
  const totale = (d: { quotazioni: Array<{ totale: number }> }) => d.quotazioni.reduce((n, s) => n + s.totale, 0);
  for (const who of [collab, page]) {
    const chart = totale((await api(who, 'get', '/api/dashboard')).data);
    expect(chart).toBe((await api(who, 'get', '/api/quotazioni?per_page=1')).total);
  }
  await collab.context().close();
});

test('PRODOTTI: every mandate product with its supplier, filtered; a row opens the supplier\'s Prodotti tab', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  await page.goto(appUrl('/dashboard'));
  await page.locator('.dashboard-card a').filter({ hasText: 'Prodotti' }).click();
  await expect(page).toHaveURL(/\/prodotti$/);
  const rows = dataRows(page);
  await expect(rows.first()).toBeVisible();
  const fornitore = (await rows.first().locator('[col-id="compagnia_fornitore_id"]').textContent())!.trim();
  expect(fornitore).not.toMatch(/^\d+$/);
  await page.getByRole('button', { name: 'Filtri', exact: true }).click();
  await page.getByLabel('Fornitore', { exact: true }).fill(fornitore.slice(0, 6));
  await expect(page).toHaveURL(/filter%5Bfornitore%5D=/);
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.locator('[col-id="compagnia_fornitore_id"]').allTextContents()) expect(text.trim()).toBe(fornitore);
  await expectNoSeriousViolations(page, { bestPractice: false, everyImpact: true });
  await rows.first().getByRole('button', { name: /^Apri / }).click();
  await expect(page).toHaveURL(/\/modifica\/compagnia\/\d+\?tab=prodotti-mandato$/);
  await expect(page.getByRole('tab', { name: 'Prodotti' })).toHaveAttribute('aria-selected', 'true');
});

test('APPENDICI: every appendix with policy, vehicle, dates and amounts; a row opens the quotation\'s appendix tab', async ({ page }) => {
  test.setTimeout(allow(90_000));
  await login(page, STAFF.email, STAFF.password);
  // An inclusion being prepared on the demo's issued and renewed policy ('Nino Successo').
  const id = await quotazione(page, 'SUCCESSO', 10);
  const modello = (await api(page, 'get', '/api/autostoriche?per_page=1')).data[0];
  await api(page, 'post', `/api/v1/goold/quotations/inclusion/calculate/${id}`, { date: DOMANI, historic: { auto_storica_id: modello.id, targa: 'DK777DK' } });
  await page.goto(appUrl('/appendici'));
  const row = dataRows(page).filter({ hasText: 'DK777DK' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Inclusione');
  await expectNoSeriousViolations(page, { bestPractice: false, everyImpact: true });
  await row.getByRole('button', { name: /^Apri / }).click();
  await expect(page).toHaveURL(new RegExp(`/modifica/quotazione/${id}\\?tab=inclusione$`));
  await expect(page.getByRole('tab', { name: 'Inclusione' })).toHaveAttribute('aria-selected', 'true');
});

test('TRACK GESTIONE DOCUMENTI: filter by what is missing, confirm the documents from the desk', async ({ page }) => {
  test.setTimeout(allow(90_000));
  await login(page, STAFF.email, STAFF.password);
  // 'Gino Verifica' waits for the documents' check (status 6): give it an identity card.
  const id = await quotazione(page, 'VERIFICA', 6);
  const upload = await page.request.post(appUrl('/api/quotazioni/upload'), {
    headers: { authorization: `Bearer ${await token(page)}` },
    multipart: { id: String(id), collection: 'carta_identita', model: 'Quotazione', nome_file: 'Carta Verifica.pdf', file: { name: 'ci.pdf', mimeType: 'application/pdf', buffer: await pdf('Carta') } },
  });
  expect(upload.status(), await upload.text()).toBe(201);

  await page.goto(appUrl('/track_gestione_documenti'));
  const row = dataRows(page).filter({ hasText: 'VERIFICA' });
  await expect(row).toBeVisible();
  await expect(row.locator('[data-chip="Carta d\'identità"]')).toHaveAttribute('data-state', 'caricato');
  await expect(row.locator('[data-chip="Patente"]')).toHaveAttribute('data-state', 'mancante');

  await page.getByRole('button', { name: 'Filtri', exact: true }).click();
  await page.getByLabel('Manca il documento').selectOption({ label: 'Patente' });
  await expect(page).toHaveURL(/filter%5Bmancante%5D=patente/);
  await expect(row).toBeVisible();
  // 'Esporta' writes the filtered rows with the columns shown and their labels.
  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Esporta' }).click();
  await page.getByRole('button', { name: 'CSV', exact: true }).click();
  const csv = await exported;
  expect(csv.suggestedFilename()).toMatch(/^track_gestione_documenti-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await csv.path())!, 'utf8')).replace(/^\ufeff/, '').trim().split('\r\n');
  expect(lines[0]).toBe('Riferimento;Stato;Documenti;Documenti richiesti;Caricati;Firmato;Aggiornato il');
  const verifica = lines.find((l) => l.includes('VERIFICA'));
  expect(verifica).toContain("Carta d'identità: caricato");
  expect(verifica).toContain('Patente: mancante');
  expect(lines.slice(1).every((l) => l.includes('Patente: mancante'))).toBe(true);
  await page.getByLabel('Manca il documento').selectOption({ label: 'Carta d\'identità' });
  await expect(page).toHaveURL(/filter%5Bmancante%5D=carta_identita/);
  await expect(dataRows(page).first()).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByLabel('Manca il documento').selectOption({ label: 'Tutti' });
  await expect(row).toBeVisible();
  await expectNoSeriousViolations(page, { bestPractice: false, everyImpact: true });

  await row.getByRole('button', { name: /^Conferma documenti/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Confermare i documenti');
  await dialog.getByRole('button', { name: 'Conferma documenti' }).click();
  await expect(dialog).toHaveCount(0);
  // The export's own notice may still be shown: look for the confirmation among the notices.
  await expect(page.getByTestId('notice').filter({ hasText: 'In attesa di emissione' })).toBeVisible();
  await expect(row.locator('[data-chip="Carta d\'identità"]')).toHaveAttribute('data-state', 'confermato');
  await expect(row.getByRole('button', { name: /^Conferma documenti/ })).toHaveCount(0);
});

test('GESTIONE DOCUMENTI: every file in scope, downloaded and previewed', async ({ page }) => {
  await login(page, STAFF.email, STAFF.password);
  await page.goto(appUrl('/gestione_documenti'));
  const rows = dataRows(page);
  await expect(rows.first()).toBeVisible();
  await expectNoSeriousViolations(page, { bestPractice: false, everyImpact: true });
  const first = rows.first();
  const name = (await first.locator('[col-id="name"]').textContent())!.trim();
  const download = page.waitForEvent('download');
  await first.getByRole('button', { name: `Scarica: ${name}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(name);
  await first.getByRole('button', { name: `Anteprima: ${name}` }).click();
  await expect(page.getByTestId('anteprima-documento').locator('iframe, img')).toBeVisible();
  await page.keyboard.press('Escape');
  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Esporta' }).click();
  await page.getByRole('button', { name: 'Excel (XLSX)' }).click();
  const xlsx = await exported;
  expect(xlsx.suggestedFilename()).toMatch(/^gestione_documenti-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await xlsx.path())!);
  expect(book.worksheets[0]!.getRow(1).values).toEqual([undefined, 'Documento', 'Tipo', 'Riferimento', 'Categoria', 'Caricato il']);
  expect(book.worksheets[0]!.rowCount).toBeGreaterThan(1);
});

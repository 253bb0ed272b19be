// Documents and signature on the quotation screen: staff upload a PDF and an image, preview them, regenerate the
// contract, send it for OTP signature; the sandbox signs it and the box shows 'Documenti Firmati'.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Browser, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { appUrl, demoUsers, login, uniqueSurname } from './helpers.ts';

const STAFF = demoUsers().find((u) => u.email === 'staff@demo.broker.it')!;
// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function pdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 200]);
  page.drawText(text, { x: 20, y: 100, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

async function session(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  // Previews load blobs into frames and images: the server's Content-Security-Policy must allow them.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      ((window as unknown as { __csp?: string[] }).__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await login(page, STAFF.email, STAFF.password);
  return page;
}

async function api(page: Page, method: 'post' | 'get', path: string, data?: unknown) {
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const res = await page.request[method](appUrl(path), { headers: { Authorization: `Bearer ${token}` }, ...(data ? { data } : {}) });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function upload(page: Page, categoria: string, name: string, mimeType: string, buffer: Buffer) {
  await page.getByTestId('documenti').getByRole('button', { name: 'Carica documento', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Categoria').selectOption({ label: categoria });
  await dialog.getByLabel('File (PDF, JPEG o PNG)').setInputFiles({ name, mimeType, buffer });
  await dialog.getByRole('button', { name: 'Carica documento' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('documento-caricato')).toHaveText('Documento caricato con successo');
}

test('staff upload, preview, send for OTP signature; the signed PDF is listed', async ({ browser }) => {
  test.setTimeout(allow(120_000));
  const staff = await session(browser);
  const surname = uniqueSurname('DOCUMENTI');
  const created = await api(staff, 'post', '/api/quotazioni', {
    persona: 'f', nome: 'Sara', cognome: surname, email: `${surname.toLowerCase()}@esempio.it`, telefono: '+39 333 7654321', provincia_codice: 'MI',
    veicoli_storici: [{ marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'MI000222' }],
  });
  const id = created.data.model.id as number;
  await api(staff, 'post', '/api/quotazioni/cambioStato', { id, stato_quotazione_id: 5 });

  await staff.goto(appUrl(`/modifica/quotazione/${id}`));
  await staff.getByRole('tab', { name: 'Documenti' }).click();
  await upload(staff, "Carta d'identità", 'carta.pdf', 'application/pdf', await pdf('Carta di identità di prova'));
  await upload(staff, 'Patente', 'patente.png', 'image/png', PNG);
  await expect(staff.getByTestId('collezione-carta_identita').getByTestId('documento')).toContainText('carta.pdf');
  await expect(staff.getByTestId('collezione-patente').getByTestId('documento')).toContainText('patente.png');
  await expectNoSeriousViolations(staff);

  // In-browser preview: the image as an image, the PDF in a frame.
  await staff.getByRole('button', { name: 'Anteprima: patente.png' }).click();
  await expect(staff.getByTestId('anteprima-documento').getByRole('img', { name: 'patente.png' })).toBeVisible();
  await staff.getByRole('button', { name: 'Chiudi' }).click();
  await staff.getByRole('button', { name: 'Anteprima: carta.pdf' }).click();
  await expect(staff.getByTestId('anteprima-documento').locator('iframe[title="carta.pdf"]')).toHaveAttribute('src', /^blob:/);
  await staff.getByRole('button', { name: 'Chiudi' }).click();
  expect(await staff.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);

  // The issue documents: the insurer's contract, then the quotation waits for signature.
  await api(staff, 'post', '/api/quotazioni/cambioStato', { id, stato_quotazione_id: 7 });
  await staff.reload();
  await staff.getByRole('tab', { name: 'Documenti' }).click();
  await staff.getByRole('button', { name: 'Rigenera documenti di emissione' }).click();
  await expect(staff.getByTestId('collezione-contratto_itas').getByTestId('documento')).toContainText(`Contratto quotazione ${id} v1.pdf`);
  await api(staff, 'post', '/api/quotazioni/cambioStato', { id, stato_quotazione_id: 9 });
  await staff.reload();

  const box = staff.getByTestId('box-firma');
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti pronti per essere firmati');
  await expect(box.getByTestId('etichetta-modalita')).toHaveClass(/text-danger/);
  await expect(box.getByTestId('contatti-firma')).toContainText('+393337654321');
  await expectNoSeriousViolations(staff);
  await box.getByLabel('Firma Digitale OTP').check();
  await expect(box.getByTestId('etichetta-modalita')).not.toHaveClass(/text-danger/);
  await box.getByRole('button', { name: 'Invia richiesta di firma' }).click();
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti inviati per la firma');

  // The sandbox signs after its delay; the box asks again by itself and the quotation is concluded.
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti Firmati', { timeout: 30_000 });
  await expect(staff.getByTestId('stato-quotazione')).toHaveText('Conclusa con successo');
  await staff.getByRole('tab', { name: 'Documenti' }).click();
  await expect(staff.getByTestId('collezione-contratto_firmato').getByTestId('documento')).toContainText(`Documenti firmati ${id}.pdf`);
});

test('manual signature: staff download the contract to sign, any other PDF is refused, the contract signed is taken; the box shows Documenti Firmati', async ({ browser }) => {
  test.setTimeout(allow(90_000));
  const staff = await session(browser);
  const surname = uniqueSurname('CARTA');
  const created = await api(staff, 'post', '/api/quotazioni', {
    persona: 'f', nome: 'Nora', cognome: surname, email: `${surname.toLowerCase()}@esempio.it`, provincia_codice: 'MI',
    veicoli_storici: [{ marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', targa: 'MI000333' }],
  });
  const id = created.data.model.id as number;
  await api(staff, 'post', '/api/quotazioni/cambioStato', { id, stato_quotazione_id: 7 });
  await api(staff, 'post', `/api/v1/goold/emissione/${id}/rigenera-documenti-emissione`);
  await api(staff, 'post', '/api/quotazioni/cambioStato', { id, stato_quotazione_id: 9 });
  await staff.goto(appUrl(`/modifica/quotazione/${id}`));

  const box = staff.getByTestId('box-firma');
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti pronti per essere firmati');
  await box.getByLabel('Firma Manuale').check();
  const manuale = box.getByTestId('firma-manuale');
  await expect(manuale.getByTestId('codice-contratto')).toContainText(`Codice contratto: AS-${id}-V1-`);
  const download = staff.waitForEvent('download');
  await manuale.getByRole('button', { name: `Scarica: Contratto quotazione ${id} v1.pdf` }).click();
  const scaricato = await download;
  expect(scaricato.suggestedFilename()).toBe(`Contratto quotazione ${id} v1.pdf`);
  // Any PDF is not the contract signed: the box shows why, the request stays open.
  await manuale.getByLabel('Carica contratto firmato').setInputFiles({ name: 'altro.pdf', mimeType: 'application/pdf', buffer: await pdf('Firmato dal cliente') });
  await expect(box.getByTestId('errore-firma')).toContainText('non è il contratto da firmare');
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti pronti per essere firmati');
  // The downloaded contract, signed by the customer.
  const contratto = await PDFDocument.load(await readFile(await scaricato.path()));
  contratto.getPage(0).drawText('Nora', { x: 250, y: 120, size: 14, font: await contratto.embedFont(StandardFonts.HelveticaOblique) });
  await manuale.getByLabel('Carica contratto firmato').setInputFiles({ name: 'firmato a mano.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await contratto.save()) });
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti Firmati', { timeout: 20_000 });
  await expect(staff.getByTestId('stato-quotazione')).toHaveText('Conclusa con successo');
  await staff.getByRole('tab', { name: 'Documenti' }).click();
  await expect(staff.getByTestId('collezione-contratto_firmato').getByTestId('documento')).toContainText('firmato a mano.pdf');
});

test('documents page: staff upload a pre-contract notice, a collaborator sees the one in force', async ({ browser }) => {
  const staff = await session(browser);
  await staff.goto(appUrl('/documenti'));
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Documenti precontrattuali');
  const first = staff.locator('section.card').first();
  const product = (await first.getByRole('heading', { level: 2 }).textContent())!;
  await first.getByRole('button', { name: 'Carica documento', exact: true }).click();
  const dialog = staff.getByRole('dialog');
  await dialog.getByLabel('Categoria').selectOption({ label: 'Set informativo' });
  await dialog.getByLabel('Versione').fill('2025.2');
  await dialog.getByLabel('Valido dal').fill('01/02/2025');
  await dialog.getByLabel('File (PDF, JPEG o PNG)').setInputFiles({ name: 'set-informativo.pdf', mimeType: 'application/pdf', buffer: await pdf('Set informativo 2025.2') });
  await dialog.getByRole('button', { name: 'Carica documento' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(first.getByTestId('collezione-set_informativo').getByTestId('documento').first()).toContainText('Versione 2025.2');

  const mario = await (await browser.newContext()).newPage();
  const MARIO = demoUsers().find((u) => u.email === 'mario.rossi@demo.broker.it')!;
  await login(mario, MARIO.email, MARIO.password);
  await mario.getByRole('navigation', { name: 'Menu Rapido' }).getByRole('link', { name: 'Documenti', exact: true }).click();
  const card = mario.locator('section.card', { has: mario.getByRole('heading', { name: product }) });
  const row = card.getByTestId('collezione-set_informativo').getByTestId('documento').filter({ hasText: '2025.2' });
  await expect(row).toContainText('In vigore');
  await expect(card.getByRole('button', { name: 'Carica documento' })).toHaveCount(0);
  await expectNoSeriousViolations(mario);
  await row.getByRole('button', { name: /^Anteprima/ }).click();
  await expect(mario.getByTestId('anteprima-documento').locator('iframe')).toHaveAttribute('src', /^blob:/);
});

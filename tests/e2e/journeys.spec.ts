// Journeys on a fresh install with the demo data (its own server, nothing shared with the other specs): every demo
// quotation taken from its status to the end by the role that would, through the screens; the breaks between features
// (issue, signature, renewal, registry refresh, appendices, model import) show up here and not in per-call tests.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Browser, Page } from '@playwright/test';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { customerFormToQuestionnaire, demoUsers, fillDailyVehicles, sendQuestionnaire } from './helpers.ts';
import { ROOT, startServer, type StartedServer } from './server.ts';
import { dataItaliana, giornoIso } from '../../src/shared/dates.ts';

const user = (email: string) => demoUsers().find((u) => u.email === email)!;
const STAFF = user('staff@demo.broker.it');
const MARIO = user('mario.rossi@demo.broker.it');
const APPROVER = user('approvatore@demo.broker.it');
const ADMIN = { email: 'admin@journeys.test', password: 'Admin-Journeys-Password-2026' };
const OGGI = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const STATO = { bozza: 1, deroga: 2, approvata: 3, form: 4, documenti: 5, verifica: 6, emissione: 7, richiesta: 8, firma: 9, successo: 10, errore: 11, diretta: 12, rinnovo: 13 };

let server: StartedServer;
const url = (pathname: string) => new URL(pathname, server.url).toString();

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(allow(180_000));
  const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SEED_DEMO: '1' };
  // As a new user does it: `npm start` loads the demo, then the app is started again on the same data.
  const first = await startServer('journeys', env);
  await first.stop({ keep: true });
  server = await startServer('journeys', env, first.dataDir);
});
test.afterAll(async () => server?.stop());
// Each test signs its roles in afresh: the sessions of the last one are closed, not left open in the browser.
test.afterEach(async ({ browser }) => {
  for (const context of browser.contexts()) await context.close();
});

async function session(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url('/login'));
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });
  return page;
}

async function api(page: Page, method: 'get' | 'post' | 'put', pathname: string, data?: unknown) {
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const res = await page.request[method](url(pathname), { headers: { Authorization: `Bearer ${token}` }, ...(data === undefined ? {} : { data }) });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

async function quotazione(page: Page, id: number): Promise<Record<string, unknown>> {
  const res = await api(page, 'get', `/api/quotazioni/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A demo quotation by its customer's surname (and e-mail, where the demo's customers share a surname). */
async function demoId(page: Page, cognome: string, email?: string, stato?: number): Promise<number> {
  const res = await api(page, 'get', `/api/quotazioni?search=${encodeURIComponent(cognome)}&per_page=50`);
  const rows = (res.body.data as Array<{ id: number; cognome: string; email?: string; stato_quotazione_id: number }>)
    .filter((r) => r.cognome?.toUpperCase() === cognome.toUpperCase() && (!email || r.email?.toLowerCase() === email))
    .filter((r) => stato === undefined || r.stato_quotazione_id === stato);
  expect(rows, `demo quotation ${cognome}`).toHaveLength(1);
  return rows[0]!.id;
}

async function apri(page: Page, id: number) {
  await page.goto(url(`/modifica/quotazione/${id}`));
  await expect(page.getByTestId('stato-quotazione').first()).toBeVisible({ timeout: 30_000 });
}

const azioni = (page: Page) => page.getByRole('toolbar', { name: 'Azioni della quotazione' });
const emissione = (page: Page) => page.getByRole('toolbar', { name: 'Azioni di emissione' });

/** A workflow button and its confirmation dialog. */
async function azione(page: Page, label: string) {
  await azioni(page).getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

async function stato(page: Page, id: number): Promise<number> {
  return Number((await quotazione(page, id)).stato_quotazione_id);
}

/** Bozza and the renewal's draft: the owner prices it and confirms it for direct entry (staff path) or for the customer's link. */
async function conferma(page: Page, id: number, via: 'diretta' | 'cliente') {
  await apri(page, id);
  // A draft not priced yet (a renewal's) is calculated first: the machine confirms only a priced one.
  if (!((await quotazione(page, id)).preventivi as unknown[] | null)?.length) {
    await page.getByRole('button', { name: 'Calcola', exact: true }).click();
    await expect(page.getByTestId('notice').filter({ hasText: 'Calcolo eseguito.' })).toBeVisible();
  }
  await azione(page, via === 'diretta' ? 'Conferma per emissione diretta' : 'Conferma');
}

/** 12: the owner completes the customer's data on the direct screen and passes it to issue. */
async function compilaDiretta(page: Page, id: number) {
  await page.goto(url(`/modifica/quotazione_diretta/${id}`));
  await expect(page.getByTestId('stato-quotazione').first()).toHaveText('In attesa compilazione diretta', { timeout: 30_000 });
  // The policyholder's tax code, where the draft has none: the issue sends it to the insurer.
  const codiceFiscale = page.getByRole('textbox', { name: 'Codice Fiscale' });
  if (!(await codiceFiscale.inputValue())) await codiceFiscale.fill('RSSMRA80A01H501U');
  await fillDailyVehicles(page);
  await azione(page, 'Passa in attesa di emissione');
  await expect(page.getByTestId('stato-quotazione').first()).toHaveText('In attesa di emissione');
}

/** 4 and 5: the customer opens the personal link, fills the form if asked, uploads a document per category and ends. */
async function cliente(browser: Browser, staff: Page, id: number) {
  const q = await quotazione(staff, id);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(url(`/quotazione/cliente/${String(q.uuid)}?parameter1=conferma_cliente`));
  if (Number(q.stato_quotazione_id) === STATO.form) {
    await customerFormToQuestionnaire(page);
    await sendQuestionnaire(page);
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Caricamento documenti' })).toBeVisible();
  const card = page.locator('.card', { has: page.getByRole('heading', { level: 2, name: "Carta d'identità", exact: true }) });
  await card.locator('input[type=file]').setInputFiles({ name: 'carta.png', mimeType: 'image/png', buffer: PNG });
  await expect(card.getByText('carta.png')).toBeVisible();
  await page.getByRole('button', { name: 'Termina Caricamento' }).click();
  await expect(page.getByRole('heading', { name: 'Caricamento completato' })).toBeVisible();
  await context.close();
}

/** 7 and 8: staff save the issue data, preview and issue; the policy waits for signature. */
async function emetti(page: Page, id: number) {
  await apri(page, id);
  await emissione(page).getByRole('button', { name: 'Salva Emissione' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Data incasso premio').fill(dataItaliana(OGGI));
  await dialog.getByRole('button', { name: 'Salva Emissione' }).click();
  await expect(dialog).toHaveCount(0);
  await emissione(page).getByRole('button', { name: 'Preview Emissione' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Preview Emissione' }).click();
  await expect(dialog.getByTestId('esito-anteprima')).toBeVisible();
  await dialog.getByRole('button', { name: 'Annulla' }).click();
  await emissione(page).getByRole('button', { name: 'Emetti' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Decorrenza')).toBeVisible();
  // Once in CI the dialog stayed open and no request left after this click. Clicking again while the dialog is still
  // open is safe: a click while one is in flight sends nothing (the dialog's guard) and the issue is idempotent.
  const emessa = page.getByTestId('notice').filter({ hasText: 'Polizza emessa correttamente' });
  await expect(async () => {
    const conferma = dialog.getByRole('button', { name: 'Emetti' });
    if (await conferma.isVisible()) await conferma.click({ timeout: 5_000 });
    await expect(emessa).toBeVisible({ timeout: 20_000 });
  }).toPass({ timeout: 60_000 });
  expect(await stato(page, id)).toBe(STATO.firma);
}

/** A PDF that is the contract to sign: the downloaded file, as the customer would bring it back signed on paper. */
async function firmaManuale(page: Page, id: number) {
  await apri(page, id);
  const box = page.getByTestId('box-firma');
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti pronti per essere firmati');
  await box.getByLabel('Firma Manuale').check();
  const manuale = box.getByTestId('firma-manuale');
  const download = page.waitForEvent('download');
  await manuale.getByRole('button', { name: /^Scarica: Contratto/ }).first().click();
  const contratto = await (await download).path();
  const signed = await PDFDocument.load(await import('node:fs/promises').then((fs) => fs.readFile(contratto!)));
  const last = signed.getPages().at(-1)!;
  last.drawText('Firmato dal contraente', { x: 40, y: 40, size: 12, font: await signed.embedFont(StandardFonts.Helvetica) });
  await manuale.getByLabel('Carica contratto firmato').setInputFiles({ name: 'contratto firmato.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await signed.save()) });
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti Firmati', { timeout: 20_000 });
  await expect(page.getByTestId('stato-quotazione').first()).toHaveText('Conclusa con successo');
}

async function firmaOtp(page: Page, id: number) {
  await apri(page, id);
  const box = page.getByTestId('box-firma');
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti pronti per essere firmati');
  await box.getByLabel('Firma Digitale OTP').check();
  await box.getByRole('button', { name: 'Invia richiesta di firma' }).click();
  await expect(box.getByTestId('stato-firma')).toHaveText(/Documenti inviati per la firma|Documenti Firmati/);
  await expect(box.getByTestId('stato-firma')).toHaveText('Documenti Firmati', { timeout: 30_000 });
  await expect(page.getByTestId('stato-quotazione').first()).toHaveText('Conclusa con successo');
}

interface Ruoli { staff: Page; mario: Page; approvatore: Page; browser: Browser }

/**
 * Moves a quotation, one status at a time, by whoever acts at that status, until it is concluded. `cliente` sends the
 * draft to the customer's link instead of the direct screen; `firma` picks the signature.
 */
async function finoAllaFine(r: Ruoli, id: number, opts: { via?: 'diretta' | 'cliente'; firma?: 'otp' | 'manuale' } = {}) {
  const seen: number[] = [];
  for (let step = 0; step < 12; step++) {
    const s = await stato(r.staff, id);
    seen.push(s);
    if (s === STATO.successo || s === STATO.errore) return seen;
    if (s === STATO.bozza || s === STATO.rinnovo || s === STATO.approvata) await conferma(r.mario, id, opts.via ?? 'diretta');
    else if (s === STATO.deroga) { await apri(r.approvatore, id); await azione(r.approvatore, 'Approva'); }
    else if (s === STATO.diretta) await compilaDiretta(r.mario, id);
    else if (s === STATO.form || s === STATO.documenti) await cliente(r.browser, r.staff, id);
    else if (s === STATO.verifica) { await apri(r.staff, id); await azione(r.staff, 'Conferma documenti'); }
    else if (s === STATO.emissione || s === STATO.richiesta) await emetti(r.staff, id);
    else if (s === STATO.firma) await (opts.firma === 'manuale' ? firmaManuale(r.staff, id) : firmaOtp(r.staff, id));
    const after = await stato(r.staff, id);
    expect(after, `quotation ${id} did not move from ${s}`).not.toBe(s);
  }
  throw new Error(`quotation ${id} never ended: ${seen.join(' → ')}`);
}

async function ruoli(browser: Browser): Promise<Ruoli> {
  const staff = await session(browser, STAFF);
  const mario = await session(browser, MARIO);
  const approvatore = await session(browser, APPROVER);
  return { staff, mario, approvatore, browser };
}

test('every demo quotation in progress is taken to the end by the roles that act on it', async ({ browser }) => {
  // Twelve quotations to the end through the screens: 6 minutes on a loaded 2-core machine; room for a slower one.
  test.setTimeout(allow(900_000));
  const r = await ruoli(browser);
  const piani: Array<[string, Parameters<typeof finoAllaFine>[2], string?]> = [
    ['EMISSIONE', { firma: 'otp' }],
    ['RICHIESTA', { firma: 'manuale' }],
    ['VERIFICA', { firma: 'otp' }],
    ['DOCUMENTI', { firma: 'manuale' }],
    ['FORM', { firma: 'otp' }],
    ['DIRETTA', { firma: 'manuale' }],
    ['APPROVATA', { firma: 'otp' }],
    ['DEROGA', { firma: 'manuale' }],
    ['BOZZA', { firma: 'manuale' }],
    ['GRECO', { firma: 'otp' }, 'paolo.greco@esempio.it'],
    ['ROMANO', { firma: 'manuale' }, 'lucia.romano@esempio.it'],
    ['BRUNO', { firma: 'otp' }, 'franco.bruno@esempio.it'],
  ];
  for (const [cognome, opts, email] of piani) {
    const id = await demoId(r.staff, cognome, email);
    const path = await finoAllaFine(r, id, opts);
    expect(path.at(-1), `${cognome}: ${path.join(' → ')}`).toBe(STATO.successo);
  }
});

test('policies the demo issued are signed by OTP and by hand: the contract is there whoever issued', async ({ browser }) => {
  test.setTimeout(allow(180_000));
  const r = await ruoli(browser);
  const firma = await demoId(r.staff, 'FIRMA');
  expect(await stato(r.staff, firma)).toBe(STATO.firma);
  await firmaOtp(r.staff, firma);
  const seconda = await demoId(r.staff, 'SECONDA');
  await firmaManuale(r.staff, seconda);
  // A random PDF is not the contract: the manual signature needs the contract itself.
  const stornata = await demoId(r.staff, 'STORNATA');
  expect(await stato(r.staff, stornata)).toBe(STATO.errore);
});

test('a renewal refreshes its registry data and is taken to the end; an issued policy takes an inclusion and an exclusion', async ({ browser }) => {
  test.setTimeout(allow(240_000));
  const r = await ruoli(browser);
  const admin = await session(browser, ADMIN);
  // The policy the demo concluded (its renewal draft shares the customer).
  const successo = await demoId(admin, 'SUCCESSO', undefined, STATO.successo);
  const rinnovoId = Number((await quotazione(admin, successo)).rinnovo_quotazione_id ?? (await quotazione(admin, successo)).rinnovo_id);
  expect(rinnovoId, 'the demo renewed Nino Successo').toBeGreaterThan(0);
  await apri(r.staff, rinnovoId);
  await expect(r.staff.getByTestId('stato-quotazione').first()).toHaveText('Bozza rinnovo');
  const targa = String(((await quotazione(r.staff, rinnovoId)).veicoli_storici as Array<{ targa: string }>)[0]!.targa);
  await r.staff.getByRole('button', { name: `Aggiorna dati Ania ${targa}` }).click();
  await expect(r.staff.getByText('Dati Ania aggiornati')).toBeVisible();
  const path = await finoAllaFine(r, rinnovoId, { firma: 'otp' });
  expect(path.at(-1)).toBe(STATO.successo);

  // Inclusion and exclusion on the policy just renewed and signed, on its second day (a renewal starts when the old one ends).
  const decorrenza = String((await quotazione(r.staff, rinnovoId)).decorrenza);
  const giorno = giornoIso(1, decorrenza);
  await apri(r.staff, rinnovoId);
  await r.staff.getByRole('tab', { name: 'Inclusione' }).click();
  const inclusione = r.staff.getByTestId('tab-inclusione');
  await inclusione.getByLabel('Data di decorrenza inclusione').fill(dataItaliana(giorno));
  await inclusione.getByRole('button', { name: 'Scegli il veicolo da includere' }).click();
  const dialog = r.staff.getByRole('dialog', { name: 'Aggiungi veicolo storico' });
  await dialog.getByLabel('Marca').selectOption('FIAT');
  await dialog.getByLabel('Cerca modello').fill('124');
  await dialog.getByRole('radio', { name: /124 SPIDER/ }).check();
  await dialog.getByLabel('Targa', { exact: true }).fill('JR123CL');
  await dialog.getByRole('button', { name: 'Aggiungi', exact: true }).click();
  await inclusione.getByRole('button', { name: 'Calcola' }).click();
  await expect(inclusione.getByTestId('nuovo-premio-annuale')).toContainText('€');
  await r.staff.getByRole('button', { name: 'Preview Appendice di Inclusione' }).click();
  await r.staff.getByRole('button', { name: 'Emetti Inclusione' }).click();
  await r.staff.getByRole('dialog').getByRole('button', { name: 'Emetti Inclusione' }).click();
  await expect(r.staff.getByText('Inclusione Emessa Correttamente')).toBeVisible();
  await r.staff.getByRole('tab', { name: 'Esclusione' }).click();
  const esclusione = r.staff.getByTestId('tab-esclusione');
  await esclusione.getByLabel('Data di decorrenza esclusione').fill(dataItaliana(giorno));
  await esclusione.getByRole('button', { name: `Calcola Esclusione ${targa}` }).click();
  await esclusione.getByRole('button', { name: 'Emetti Esclusione' }).click();
  await r.staff.getByRole('dialog').getByRole('button', { name: 'Emetti Esclusione' }).click();
  await expect(r.staff.getByText('Esclusione avvenuta con successo')).toBeVisible();
  await expect(esclusione.getByTestId('appendici-emesse')).toContainText('Inclusione');
  await expect(esclusione.getByTestId('appendici-emesse')).toContainText('Esclusione');
});

test("a collaborator's screens and answers hold no figure reserved to others", async ({ browser }) => {
  const mario = await session(browser, MARIO);
  const list = await api(mario, 'get', '/api/quotazioni?per_page=100');
  expect(list.status).toBe(200);
  // A figure the user may not read is answered empty (null), as every API answer does; red is everyone's colour.
  for (const row of list.body.data as Array<Record<string, unknown>>) {
    expect(row.premio_verti ?? null).toBeNull();
    expect(['r', null]).toContain(row.colore ?? null);
  }
  const one = (list.body.data as Array<{ id: number }>)[0]!.id;
  const q = await api(mario, 'get', `/api/quotazioni/${one}`);
  expect(q.body.data.premio_verti ?? null).toBeNull();
  for (const p of (q.body.data.preventivi ?? []) as Array<Record<string, unknown>>) expect(p.premio_compagnia ?? null).toBeNull();
  await mario.goto(url('/auto_storiche'));
  await expect(mario.locator('.ag-row').first()).toBeVisible({ timeout: 30_000 });
  await expect(mario.getByText(/^(Verde|Giallo)$/)).toHaveCount(0);
  await apri(mario, one);
  await expect(mario.getByText(/^(Verde|Giallo)$/)).toHaveCount(0);
  await expect(mario.getByText(/Premio Verti|Premio compagnia/i)).toHaveCount(0);
});

test("a model import with 'Cancella' while quotations are open: the models they use stay, out of catalogue, and they still calculate", async ({ browser }) => {
  const mario = await session(browser, MARIO);
  const [modello] = (await api(mario, 'get', `/api/autostoriche?search=${encodeURIComponent('500 F')}&per_page=1`)).body.data as Array<Record<string, unknown>>;
  const draft = await api(mario, 'post', '/api/quotazioni', {
    persona: 'f', sesso: 'M', nome: 'Aperta', cognome: 'Importazione', email: 'aperta.importazione@esempio.it', provincia_codice: 'RM', competenze: 10,
    veicoli_storici: [{ auto_storica_id: modello!.id, marca: modello!.marca, modello: modello!.modello, anno: 1968, tipologia_ania: 'A', targa: 'RM777777' }],
  });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const id = Number(draft.body.data.model.id);

  const admin = await session(browser, ADMIN);
  await admin.goto(url('/quotazione'));
  await admin.getByRole('button', { name: 'Importa modelli' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Importa modelli auto storiche' });
  await dialog.getByLabel('File CSV o XLSX').setInputFiles(path.join(ROOT, 'tests', 'fixtures', 'autostoriche-ok.csv'));
  await dialog.getByLabel('Cancella tutti i modelli esistenti prima di importare').check();
  await dialog.getByRole('button', { name: 'Importa' }).click();
  const question = admin.getByRole('dialog', { name: 'Cancellare i modelli esistenti?' });
  await expect(question).toContainText(/quotazion[ei] us[ao]n?o? \d+ modell[io] da sostituire: rester(à|anno) fuori catalogo/);
  await question.getByRole('button', { name: 'Cancella e importa' }).click();
  await expect(dialog.getByTestId('import-outcome')).toContainText(/Modelli tenuti fuori catalogo perché usati da quotazioni: [1-9]\d*\./);
  const kept = await api(mario, 'get', `/api/autostoriche/${String(modello!.id)}`);
  expect(kept.status).toBe(200);
  expect(kept.body.data.fuori_catalogo).toBe(true);

  // The open draft is priced on its screen as before the import.
  await apri(mario, id);
  await mario.getByRole('button', { name: 'Calcola', exact: true }).click();
  await expect(mario.getByTestId('notice').filter({ hasText: 'Calcolo eseguito.' })).toBeVisible();
  expect(((await quotazione(mario, id)).preventivi as unknown[]).length).toBeGreaterThan(0);
});

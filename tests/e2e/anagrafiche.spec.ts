// Master-data screens (spec 000 §2.6-§2.9): company collaborators, commission chips, customers' passive commission, mandate rows, model import.
import path from 'node:path';
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { admin, appUrl, loginAsAdmin, uniqueSurname } from './helpers.ts';
import { ROOT } from './server.ts';

type Json = Record<string, any>;

/** The REST API as the admin, for arranging data and checking what the screens saved. */
async function adminApi(request: APIRequestContext) {
  const login = await request.post(appUrl('/api/login'), { data: admin() });
  expect(login.status()).toBe(200);
  const token = ((await login.json()) as Json).token as string;
  const call = async (method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await request.fetch(appUrl(url), { method, headers: { Authorization: `Bearer ${token}` }, data: body });
    return { status: res.status(), body: (await res.json()) as Json };
  };
  const create = async (url: string, body: Json): Promise<Json> => {
    const res = await call('POST', url, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.model as Json;
  };
  return { call, create };
}

/** Today in Italy as the screens show it (DD/MM/YYYY). */
const oggi = () => new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

/** Same bar as tests/e2e/accessibility.spec.ts: no serious or critical axe violation, every visible control named. */
async function expectAccessible(page: Page) {
  await expectNoSeriousViolations(page);
  const unnamed = await page.$$eval('input:not([type=hidden]), select, textarea', (elements) =>
    elements
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => {
        const control = el as HTMLInputElement;
        const byLabel = Array.from(control.labels ?? []).some((l) => l.textContent?.trim());
        return !byLabel && !control.getAttribute('aria-label')?.trim() && !control.getAttribute('aria-labelledby');
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(unnamed).toEqual([]);
}

async function searchList(page: Page, label: RegExp, text: string) {
  await page.getByRole('searchbox', { name: label }).fill(text);
  // The search is debounced by 1000 ms; the URL follows once it runs.
  await expect(page).toHaveURL(new RegExp(`search=${text}`));
}

test('a company collaborator (sesso A) shows the business name, hides the personal fields and gets its tabs once saved', async ({ page, request }) => {
  const { call } = await adminApi(request);
  const name = `${uniqueSurname('RETE')} SRL`;
  await loginAsAdmin(page);
  await page.goto(appUrl('/new/collaboratore'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dati Collaboratore - Nuovo');
  // Only the first tab until the collaborator exists.
  await expect(page.getByRole('tab')).toHaveText(['Dati Del collaboratore']);

  const nameLabel = page.locator('label[for="root_nome"]');
  await page.getByLabel('Sesso').selectOption({ label: 'Maschio' });
  await expect(nameLabel).toHaveText(/^Nome\b/);
  for (const id of ['cognome', 'dataNascita', 'documentoNumero', 'documentoScadenza']) await expect(page.locator(`#root_${id}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Responsabile Intermediazione' })).toHaveCount(0);

  await page.getByLabel('Sesso').selectOption({ label: 'Azienda' });
  await expect(nameLabel).toHaveText(/^Ragione Sociale\b/);
  await expect(page.getByRole('textbox', { name: 'Ragione Sociale' })).toBeVisible();
  for (const id of ['cognome', 'dataNascita', 'comuneNascita', 'provinciaNascita', 'documentoTipo', 'documentoNumero', 'documentoScadenza', 'documentoRilasciatoDa']) {
    await expect(page.locator(`#root_${id}`), id).toHaveCount(0);
  }
  await expect(page.getByRole('heading', { name: 'Documento' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Responsabile Intermediazione' })).toBeVisible();
  await expect(page.locator('#root_responsabileIntermediazione_qualifica')).toBeVisible();

  await page.locator('#root_tipo').selectOption({ label: 'Broker' });
  await page.getByRole('textbox', { name: 'Ragione Sociale' }).fill(name.toLowerCase());
  await page.getByLabel('Partita IVA').fill('01234567897');
  await page.locator('#root_responsabileIntermediazione_nome').fill('Anna');
  // The superior sales point comes from /api/autocomplete/punto_vendita_superiore.
  const superiore = page.getByRole('combobox', { name: 'Punto Vendita Superiore' });
  await superiore.fill('ross');
  await page.getByRole('option', { name: 'ROSSI MARIO' }).click();
  await expect(superiore).toHaveValue('ROSSI MARIO');
  // Sector commissions: three fixed rows, Imponibile and 0 until changed (spec 000 §9).
  await expect(page.getByLabel('Tipo Provvigione RCA')).toHaveValue(/./);
  await expect(page.getByLabel('Tipo Provvigione RCA').locator('option:checked')).toHaveText('Imponibile');
  await expect(page.getByLabel('% Provvigione DANNI')).toHaveValue('0');
  await page.getByLabel('% Provvigione RCA').fill('70');
  await page.getByLabel('% Provvigione VITA').fill('101');
  await expect(page.locator('#root_provvigioni_settori_2_perc_provvigione__error')).toHaveText('Il valore massimo è 100');
  await page.getByLabel('% Provvigione VITA').fill('4,5');
  await page.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(page).toHaveURL(/\/modifica\/collaboratore\/\d+$/);
  const id = page.url().split('/').pop();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByRole('tab')).toHaveText(['Dati Del collaboratore', 'Clienti', 'Provvigioni', 'Prodotti Assegnati']);

  const saved = (await call('GET', `/api/collaboratore/${id}`)).body.data as Json;
  const rossi = (await call('GET', '/api/autocomplete/collaboratore?search=rossi%20mario')).body.data[0] as Json;
  expect(saved).toMatchObject({ sesso: 'A', nome: name, cognome: null, piva: '01234567897', responsabileIntermediazione: { nome: 'ANNA' }, punto_vendita_superiore_id: rossi.id });
  expect(saved.provvigioni_settori).toEqual([
    { id: 1, nome: 'DANNI', perc_provvigione: 0, tipo_provvigione: 'PERC_IMPONIBILE' },
    { id: 2, nome: 'RCA', perc_provvigione: 70, tipo_provvigione: 'PERC_IMPONIBILE' },
    { id: 3, nome: 'VITA', perc_provvigione: 4.5, tipo_provvigione: 'PERC_IMPONIBILE' },
  ]);

  // The Provvigioni tab shows the lines just saved, with the list's colours.
  await page.getByRole('tab', { name: 'Provvigioni' }).click();
  const lines = page.getByTestId('provvigione-settore');
  await expect(lines).toHaveText([/Settore DANNI\s*Imponibile\s*0%/, /Settore RCA\s*Imponibile\s*70%/, /Settore VITA\s*Imponibile\s*4,5%/]);
  await expect(lines.nth(1).locator('.badge')).toHaveClass(/text-bg-success/);
  await expect(lines.nth(2).locator('.badge')).toHaveClass(/text-bg-warning/);
});

test('commission chips in the collaborator list take the colours of spec 000 §9 at the thresholds', async ({ page, request }) => {
  const { create } = await adminApi(request);
  const prefix = uniqueSurname('SOGLIA');
  // [RCA, DANNI, VITA] per collaborator, and the colour every chip of that row must take.
  const cases: Array<[string, [number, number, number], string]> = [
    ['A', [70, 25, 5], 'success'],
    ['B', [69, 24, 4], 'warning'],
    ['C', [30, 10, 2], 'warning'],
    ['D', [29, 9, 1], 'danger'],
  ];
  for (const [suffix, [rca, danni, vita]] of cases) {
    await create('/api/collaboratore', {
      sesso: 'M',
      nome: 'Paolo',
      cognome: `${prefix}${suffix}`,
      tipo: 'COLLABORATORE',
      provvigioni_settori: [
        { id: 2, nome: 'RCA', perc_provvigione: rca, tipo_provvigione: 'PERC_RETROCESSIONE' },
        { id: 1, nome: 'DANNI', perc_provvigione: danni, tipo_provvigione: 'PERC_IMPONIBILE' },
        { id: 3, nome: 'VITA', perc_provvigione: vita, tipo_provvigione: 'PERC_IMPONIBILE' },
      ],
    });
  }
  await loginAsAdmin(page);
  await page.goto(appUrl('/collaboratore'));
  await searchList(page, /Cerca in Collaboratori/, prefix);
  for (const [suffix, values, colour] of cases) {
    const row = page.locator('.ag-row', { hasText: `${prefix}${suffix}` });
    await expect(row).toHaveCount(1);
    // One chip per sector, in the order RCA, DANNI, VITA.
    await expect(row.locator('[data-chip]')).toHaveText([`RCA ${values[0]} (`, `DANNI ${values[1]} (`, `VITA ${values[2]} (`].map((t) => new RegExp(`^${t.replace(/[()]/g, '\\$&')}`)));
    for (const sector of ['RCA', 'DANNI', 'VITA']) {
      await expect(row.locator(`[data-chip="${sector}"]`), `${suffix} ${sector}`).toHaveClass(new RegExp(`text-bg-${colour}`));
    }
  }
  await page.screenshot({ path: test.info().outputPath('chips.png') });
});

test('the Clienti tab lists the collaborator’s customers and saves the passive commission of a row', async ({ page, request }) => {
  const { call, create } = await adminApi(request);
  const collaboratore = await create('/api/collaboratore', { sesso: 'F', nome: 'Laura', cognome: uniqueSurname('RETE'), tipo: 'AGENTE' });
  const cognome = uniqueSurname('CLIENTE');
  const cliente = await create('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Mario', cognome, collaboratore_id: collaboratore.id });
  await create('/api/cliente', { tipo: 'RETAIL', sesso: 'M', nome: 'Altro', cognome: uniqueSurname('ALTRUI') });

  await loginAsAdmin(page);
  await page.goto(appUrl(`/modifica/collaboratore/${collaboratore.id}`));
  await page.getByRole('tab', { name: 'Clienti' }).click();
  await expect(page.getByRole('heading', { name: 'Clienti del collaboratore' })).toBeVisible();
  await expect(page.getByText('vale per tutti i collaboratori')).toBeVisible();
  await expect(page.getByTestId('cliente-row')).toHaveCount(1);
  const input = page.getByLabel(`% Provvigione passiva MARIO ${cognome}`);
  await expect(input).toHaveValue('');

  await input.fill('150');
  await expect(page.locator(`#passiva-${cliente.id}__error`)).toHaveText('Il valore massimo è 100');
  await input.fill('12,5');
  await expect(page.locator(`#passiva-${cliente.id}__error`)).toHaveCount(0);
  // Saved after the pause, with the record's version.
  await expect.poll(async () => (await call('GET', `/api/cliente/${cliente.id}`)).body.data.perc_provvigione_passiva).toBe(12.5);
  await input.fill('20');
  await expect.poll(async () => (await call('GET', `/api/cliente/${cliente.id}`)).body.data).toMatchObject({ perc_provvigione_passiva: 20, version: 3 });
});

test('the Prodotti Assegnati tab names the assigned mandate products and assigns one more', async ({ page, request }) => {
  const { call, create } = await adminApi(request);
  const collaboratore = await create('/api/collaboratore', { sesso: 'M', nome: 'Piero', cognome: uniqueSurname('AGENTE'), tipo: 'AGENTE' });
  const fornitore = await create('/api/compagnia', { ragioneSociale: `${uniqueSurname('FORNITORE')} SPA`, tipoCompagnia: 'DIRETTO' });
  const contrattuale = await create('/api/compagnia_contrattuale', { nome: uniqueSurname('CONTRATTUALE') });
  const base = { compagnia_fornitore_id: fornitore.id, compagnia_contrattuale_id: contrattuale.id };
  const kasko = await create('/api/categoria_prodotto', { ...base, nome: `Kasko ${uniqueSurname('')}`, settore_id: 1 });
  const vita = await create('/api/categoria_prodotto', { ...base, nome: `Vita ${uniqueSurname('')}`, settore_id: 3 });
  await create('/api/prodotto_assegnato', { collaboratore_id: collaboratore.id, categoria_prodotto_id: kasko.id, perc_provvigione: 40 });

  await loginAsAdmin(page);
  await page.goto(appUrl(`/modifica/collaboratore/${collaboratore.id}`));
  await page.getByRole('tab', { name: 'Prodotti Assegnati' }).click();
  const rows = page.getByTestId('prodotto-assegnato');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${kasko.nome}${fornitore.ragioneSociale}${contrattuale.nome}DANNI40%Sì`);

  await page.getByRole('button', { name: 'Assegna prodotto' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assegna Prodotto' });
  const prodotto = dialog.getByRole('combobox', { name: 'Prodotto' });
  await prodotto.fill(String(vita.nome).slice(0, 10));
  await page.getByRole('option', { name: vita.nome }).click();
  await dialog.getByRole('textbox', { name: '% Provvigione' }).fill('3,5');
  await dialog.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(`${vita.nome}${fornitore.ragioneSociale}${contrattuale.nome}VITA3,5%Sì`);
  const assigned = (await call('GET', `/api/prodotto_assegnato?filter[collaboratore_id]=${collaboratore.id}&sort=id`)).body.data as Json[];
  expect(assigned.map((a) => [a.categoria_prodotto_id, a.perc_provvigione])).toEqual([
    [kasko.id, 40],
    [vita.id, 3.5],
  ]);
});

test('a mandate row edited and switched off survives a reload; a new category starts at 0 and today', async ({ page, request }) => {
  const { call, create } = await adminApi(request);
  const fornitore = await create('/api/compagnia', { ragioneSociale: `${uniqueSurname('FORNITORE')} SPA`, tipoCompagnia: 'DIRETTO' });
  const contrattuale = await create('/api/compagnia_contrattuale', { nome: uniqueSurname('CONTRATTUALE') });
  const riga = await create('/api/categoria_prodotto', {
    nome: 'Incendio e Furto',
    compagnia_fornitore_id: fornitore.id,
    compagnia_contrattuale_id: contrattuale.id,
    settore_id: 1,
    ramo_id: 8,
    percentuale_provvigione_attiva: 20,
    data_inizio_mandato: '2020-01-01',
  });

  await loginAsAdmin(page);
  await page.goto(appUrl(`/modifica/compagnia/${fornitore.id}`));
  await page.getByRole('tab', { name: 'Prodotti' }).click();
  await expect(page.getByTestId('prodotti-empty')).toHaveText(/Seleziona una compagnia contrattuale/);
  await expect(page.getByRole('textbox', { name: 'Nome della nuova categoria' })).toHaveCount(0);

  // A new contractual company from the dialog is chosen at once, with no rows yet.
  const nuova = uniqueSurname('NUOVA');
  await page.getByRole('button', { name: 'Aggiungi Nuova Compagnia Contrattuale' }).click();
  const companyDialog = page.getByRole('dialog', { name: 'Aggiungi Nuova Compagnia Contrattuale' });
  await companyDialog.getByRole('textbox', { name: 'Nome' }).fill(nuova);
  await companyDialog.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(companyDialog).toHaveCount(0);
  await expect(page.getByLabel('Compagnia Contrattuale').locator('option:checked')).toHaveText(nuova);
  await expect(page.getByRole('cell', { name: 'nessun elemento trovato' })).toBeVisible();

  await page.getByLabel('Compagnia Contrattuale').selectOption({ label: contrattuale.nome });

  // Adding a category: the name is trimmed, the button waits for one.
  const addButton = page.getByRole('button', { name: 'Aggiungi categoria' });
  await expect(addButton).toBeDisabled();
  await page.getByRole('textbox', { name: 'Nome della nuova categoria' }).fill('   ');
  await expect(addButton).toBeDisabled();
  await page.getByRole('textbox', { name: 'Nome della nuova categoria' }).fill('  Tutela Legale  ');
  await addButton.click();
  await expect(page.getByRole('rowheader', { name: 'Tutela Legale', exact: true })).toBeVisible();
  await expect(page.getByLabel('% Provvigione Tutela Legale')).toHaveValue('0');
  await expect(page.getByLabel('Inizio Mandato Tutela Legale')).toHaveValue(oggi());
  await expect(page.getByRole('textbox', { name: 'Nome della nuova categoria' })).toHaveValue('');

  // A reload well inside the 1000 ms pause still saves what was typed (flushed on beforeunload, keepalive).
  await page.getByLabel('% Provvigione Incendio e Furto').fill('17');
  await page.reload();
  await page.getByRole('tab', { name: 'Prodotti' }).click();
  await expect(page.getByLabel('% Provvigione Incendio e Furto')).toHaveValue('17');
  expect((await call('GET', `/api/categoria_prodotto/${riga.id}`)).body.data.percentuale_provvigione_attiva).toBe(17);

  // Edit commission and start date, then switch the row off at once: fields freeze, and a reload loses nothing.
  const commission = page.getByLabel('% Provvigione Incendio e Furto');
  const start = page.getByLabel('Inizio Mandato Incendio e Furto');
  await commission.fill('12,5');
  await start.fill('15/02/2021');
  await page.getByLabel('Mandato attivo Incendio e Furto').uncheck();
  await expect(commission).toBeDisabled();
  await expect(start).toBeDisabled();
  await page.reload();

  await page.getByRole('tab', { name: 'Prodotti' }).click();
  // The chosen company is in the address, so the rows come back at once.
  await expect(page.getByLabel('Compagnia Contrattuale')).toHaveValue(String(contrattuale.id));
  await expect(page.getByLabel('% Provvigione Incendio e Furto')).toHaveValue('12,5');
  await expect(page.getByLabel('Inizio Mandato Incendio e Furto')).toHaveValue('15/02/2021');
  await expect(page.getByLabel('Mandato attivo Incendio e Furto')).not.toBeChecked();
  await expect(page.getByLabel('% Provvigione Incendio e Furto')).toBeDisabled();
  const stored = (await call('GET', `/api/categoria_prodotto/${riga.id}`)).body.data as Json;
  expect(stored).toMatchObject({ percentuale_provvigione_attiva: 12.5, data_inizio_mandato: '2021-02-15', mandato_attivo: false });

  // Switched on again, the fields open; a typed value leaves with the debounce even when the user navigates away.
  await page.getByLabel('Mandato attivo Incendio e Furto').check();
  await expect(page.getByLabel('% Provvigione Incendio e Furto')).toBeEnabled();
  await page.getByLabel('% Provvigione Incendio e Furto').fill('30');
  await page.getByRole('link', { name: 'Fornitori' }).click();
  await expect(page).toHaveURL(/\/compagnia$/);
  await expect.poll(async () => (await call('GET', `/api/categoria_prodotto/${riga.id}`)).body.data).toMatchObject({
    percentuale_provvigione_attiva: 30,
    mandato_attivo: true,
  });

  // A supplier with mandate rows cannot go: the server's reason is shown.
  await searchList(page, /Cerca in Fornitori/, String(fornitore.ragioneSociale).split(' ')[0]);
  await page.getByRole('button', { name: `Elimina ${fornitore.ragioneSociale}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Elimina' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: 'Impossibile eliminare il fornitore: ha ancora 2 prodotti a mandato.' })).toBeVisible();
  expect((await call('GET', `/api/compagnia/${fornitore.id}`)).status).toBe(200);
});

test('historic-car models: a file with one bad row is refused whole, naming the row; add and delete through dialogs', async ({ page, request }) => {
  const { call } = await adminApi(request);
  const total = async () => (await call('GET', '/api/autostoriche?per_page=1')).body.total as number;
  const before = await total();

  await loginAsAdmin(page);
  await page.goto(appUrl('/quotazione'));
  await page.getByRole('button', { name: 'Importa modelli' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importa modelli auto storiche' });
  await expect(dialog.getByRole('button', { name: 'Importa' })).toBeDisabled();
  await dialog.getByLabel('File CSV o XLSX').setInputFiles(path.join(ROOT, 'tests', 'fixtures', 'autostoriche-bad-row.csv'));
  await dialog.getByRole('button', { name: 'Importa' }).click();
  const outcome = dialog.getByTestId('import-outcome');
  await expect(outcome).toContainText('Importazione annullata: 1 riga non valida. Nessun modello importato.');
  await expect(dialog.getByTestId('rejected-row')).toHaveText([
    /^8\s*Valore B\s*Il valore deve essere un importo in euro$/,
    /^8\s*Anno a\s*L'anno finale deve essere uguale o successivo all'anno iniziale$/,
  ]);
  expect(await total()).toBe(before);

  // A wipe is previewed first: the question counts the models to delete and the quotations using them; cancelling it changes nothing.
  await dialog.getByLabel('File CSV o XLSX').setInputFiles(path.join(ROOT, 'tests', 'fixtures', 'autostoriche-ok.csv'));
  await dialog.getByLabel('Cancella tutti i modelli esistenti prima di importare').check();
  await dialog.getByRole('button', { name: 'Importa' }).click();
  const question = page.getByRole('dialog', { name: 'Cancellare i modelli esistenti?' });
  await expect(question).toContainText(/Il file contiene 13 modelli da importare\. Saranno eliminati \d+ modelli esistenti\./);
  // The demo quotations use catalogue models: they stay, out of catalogue.
  await expect(question).toContainText(/\d+ quotazioni usano \d+ modelli da sostituire: resteranno fuori catalogo/);
  await expect(question.getByRole('button', { name: 'Cancella e importa' })).toBeVisible();
  await question.getByRole('button', { name: 'Annulla' }).click();
  await expect(question).toHaveCount(0);
  expect(await total()).toBe(before);
  await dialog.getByRole('button', { name: 'Annulla' }).click();

  // Add in a dialog (the generic form), find it, delete it with the vehicle question.
  const modello = uniqueSurname('PROVA');
  await page.getByRole('button', { name: /Nuovo Modello/ }).click();
  const form = page.getByRole('dialog', { name: 'Modello Auto Storica' });
  await form.getByLabel('Marca').fill('Fiat');
  await form.getByRole('textbox', { name: 'Modello', exact: true }).fill(modello);
  await form.getByLabel('Tipologia', { exact: true }).selectOption({ label: 'Autovettura' });
  await form.getByLabel('Colore').selectOption({ label: 'Giallo' });
  await form.getByRole('textbox', { name: 'Anno', exact: true }).fill('1968');
  await form.getByRole('button', { name: 'Aggiungi' }).click();
  await expect(form).toHaveCount(0);
  expect(await total()).toBe(before + 1);
  await searchList(page, /Cerca in Modelli Auto Storiche/, modello);
  const row = page.locator('.ag-row', { hasText: modello });
  await expect(row).toHaveCount(1);
  await page.getByRole('button', { name: `Elimina FIAT ${modello}` }).click();
  await expect(page.getByRole('dialog')).toContainText('Sicuro di voler cancellare il veicolo?');
  await page.getByRole('dialog').getByRole('button', { name: 'Elimina' }).click();
  await expect(row).toHaveCount(0);
  expect(await total()).toBe(before);
});

test('the master-data screens pass the accessibility checks', async ({ page, request }) => {
  test.setTimeout(allow(150_000));
  const { create } = await adminApi(request);
  const fornitore = await create('/api/compagnia', { ragioneSociale: `${uniqueSurname('AXE')} SPA`, tipoCompagnia: 'FORNITORE' });
  const contrattuale = await create('/api/compagnia_contrattuale', { nome: uniqueSurname('AXE') });
  await create('/api/categoria_prodotto', { nome: 'Cristalli', compagnia_fornitore_id: fornitore.id, compagnia_contrattuale_id: contrattuale.id });
  await loginAsAdmin(page);

  await page.goto(appUrl('/collaboratore'));
  await expect(page.locator('[data-chip]').first()).toBeVisible();
  await expectAccessible(page);

  await page.goto(appUrl('/new/collaboratore'));
  await page.getByLabel('Sesso').selectOption({ label: 'Azienda' });
  await expect(page.getByRole('heading', { name: 'Responsabile Intermediazione' })).toBeVisible();
  await expectAccessible(page);

  await page.goto(appUrl(`/modifica/compagnia/${fornitore.id}?compagnia_contrattuale=${contrattuale.id}`));
  await page.getByRole('tab', { name: 'Prodotti' }).click();
  await page.getByRole('button', { name: 'Apri i dettagli di Cristalli' }).click();
  await expect(page.getByLabel('Tipo Prodotto')).toBeVisible();
  await expectAccessible(page);

  await page.goto(appUrl('/modelli_auto_storiche'));
  await page.getByRole('button', { name: 'Importa modelli' }).click();
  await page.getByLabel('File CSV o XLSX').setInputFiles(path.join(ROOT, 'tests', 'fixtures', 'autostoriche-bad-row.csv'));
  await page.getByRole('dialog').getByRole('button', { name: 'Importa' }).click();
  await expect(page.getByTestId('rejected-row').first()).toBeVisible();
  await expectAccessible(page);
});

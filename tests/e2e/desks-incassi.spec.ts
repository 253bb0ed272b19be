// Finance desks (issue 18): the cashier pays two titles with one payment, the month's statement shows them, the receipt
// PDF opens, and a collaborator's provvigionale holds only their own titles.
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { appUrl, demoUsers, login, uniqueSurname } from './helpers.ts';

type Json = Record<string, any>;

async function api(request: APIRequestContext, email: string, password: string) {
  const res = await request.post(appUrl('/api/login'), { data: { email, password } });
  expect(res.status()).toBe(200);
  const token = ((await res.json()) as Json).token as string;
  return async (method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const answer = await request.fetch(appUrl(url), { method, headers: { Authorization: `Bearer ${token}` }, data: body });
    return { status: answer.status(), body: (await answer.json()) as Json };
  };
}

const oggi = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
const grid = (page: Page) => page.locator('.ag-row');

test('the cashier pays two titles at once; the statement, the receipt and the provvigionale follow', async ({ page, request }) => {
  // Three users, four desks: more than the default minute when the machine is busy.
  test.setTimeout(allow(150_000));
  const users = demoUsers();
  const staff = users.find((u) => u.roles.includes('staff'))!;
  const cassiere = users.find((u) => u.roles.includes('cassiere'))!;
  const rossi = users.find((u) => u.email.startsWith('mario.rossi'))!;
  const call = await api(request, staff.email, staff.password);

  // A quarterly policy of Rossi's, started in January: its first titles are due.
  const collaboratore = (await call('GET', '/api/collaboratore?search=rossi&per_page=5')).body.data.find((c: Json) => c.cognome === 'ROSSI');
  const surname = uniqueSurname('INCASSO');
  const cliente = await call('POST', '/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Carla', cognome: surname, collaboratore_id: collaboratore.id });
  expect(cliente.status).toBe(201);
  const prodotto = (await call('GET', '/api/mandato_prodotto_in_polizza/search')).body.data[0];
  const numero = `INC-${surname}`;
  const polizza = await call('POST', '/api/polizza', {
    collaboratore_id: collaboratore.id, cliente_id: cliente.body.data.model.id, compagnia_contrattuale_id: prodotto.compagnia_contrattuale_id,
    fornitore_id: prodotto.mandato.compagnia_fornitore_id, mandato_prodotto_id: prodotto.id, polizza_numero: numero,
    data_entrata_in_effetto: '2026-01-15', data_scadenza: '2027-01-15', frazionamento_slug: 'TRIMESTRALE', tacito_rinnovo: false,
    totale_premio_imponibile: 1000.01, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20,
  });
  expect(polizza.status, JSON.stringify(polizza.body)).toBe(201);

  // The cashier's desk: one payment by bank transfer over titles 1 and 2 (314,40 + 314,37).
  await login(page, cassiere.email, cassiere.password);
  await page.getByRole('link', { name: 'Gestione Incassi' }).click();
  await expect(page).toHaveURL(/\/gestione_incassi$/);
  await page.getByRole('searchbox').fill(surname);
  await expect(grid(page)).toHaveCount(4);
  await page.getByRole('button', { name: 'Registra incasso' }).click();
  const dialog = page.getByRole('dialog', { name: 'Registra incasso' });
  await dialog.getByRole('checkbox', { name: `Titolo 1 della polizza ${numero}` }).check();
  await dialog.getByRole('checkbox', { name: `Titolo 2 della polizza ${numero}` }).check();
  await expect(dialog.getByTestId('incasso-totale')).toContainText('2 titoli scelti');
  await expect(dialog.getByTestId('incasso-totale')).toContainText('628,77');
  await expect(dialog.getByLabel('Importo')).toHaveValue('628,77');
  await dialog.getByLabel('Tipo Pagamento').selectOption({ label: 'Bonifico' });
  await dialog.getByRole('button', { name: 'Registra pagamento' }).click();
  await expect(page.getByText('Pagamento registrato su 2 titoli.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(grid(page).locator('[col-id="situazione"]', { hasText: 'Pagato' })).toHaveCount(2);

  // The statement of this month shows both titles.
  await page.goto(appUrl(`/estratto_conto?filter[pagato_dal]=${oggi.slice(0, 8)}01&filter[pagato_al]=${oggi}&search=${numero}`));
  await expect(grid(page)).toHaveCount(2);
  await expect(grid(page).locator('[col-id="polizza_numero"]')).toHaveText([numero, numero]);
  await page.getByRole('button', { name: 'Riepilogo' }).click();
  await expect(page.getByTestId('totale-generale')).toContainText('628,77');

  // The receipt opens as a PDF.
  await page.goto(appUrl(`/quietanze?search=${numero}`));
  await expect(grid(page)).toHaveCount(2);
  // The bytes as the browser received them (the page opens them in a new tab as a blob).
  let received: { status: number; type: string; body: Buffer } | undefined;
  await page.route(/\/api\/quietanze\/\d+\/pdf/, async (route) => {
    const response = await route.fetch();
    received = { status: response.status(), type: response.headers()['content-type'] ?? '', body: await response.body() };
    await route.fulfill({ response });
  });
  await grid(page).first().getByRole('button', { name: /Stampa la quietanza/ }).click();
  await expect.poll(() => received?.status).toBe(200);
  expect(received!.type).toBe('application/pdf');
  expect(received!.body.subarray(0, 4).toString()).toBe('%PDF');

  // Rossi's provvigionale: only his titles, ours among them.
  await page.context().clearCookies();
  await page.evaluate(() => sessionStorage.clear());
  await login(page, rossi.email, rossi.password);
  await page.goto(appUrl('/provvigionale?per_page=100'));
  await expect(grid(page).first()).toBeVisible();
  const names = await grid(page).locator('[col-id="collaboratore"]').allTextContents();
  expect(names.length).toBeGreaterThan(0);
  expect(new Set(names)).toEqual(new Set(['ROSSI MARIO']));
  await page.getByRole('searchbox').fill(numero);
  await expect(grid(page)).toHaveCount(2);
  const mine = await (await api(request, rossi.email, rossi.password))('GET', '/api/provvigionale?per_page=-1');
  expect(new Set(mine.body.data.map((r: Json) => r.collaboratore_id))).toEqual(new Set([collaboratore.id]));
});

test('the desks and their dialogs have no serious accessibility violation', async ({ page }) => {
  // Three axe passes over full grids: slow on a small machine.
  test.setTimeout(allow(180_000));
  const staff = demoUsers().find((u) => u.roles.includes('staff'))!;
  await login(page, staff.email, staff.password);
  const check = () => expectNoSeriousViolations(page, { bestPractice: false });
  await page.goto(appUrl('/gestione_incassi?filter[situazione]=SCADUTO'));
  await expect(grid(page).first()).toBeVisible();
  await page.getByRole('button', { name: 'Registra incasso' }).click();
  await expect(page.getByRole('dialog', { name: 'Registra incasso' }).getByRole('checkbox').first()).toBeVisible();
  await check();
  await page.goto(appUrl('/estratto_conto'));
  await expect(grid(page).first()).toBeVisible();
  await page.getByRole('button', { name: 'Riepilogo' }).click();
  await expect(page.getByTestId('totale-generale')).toBeVisible();
  await check();
  await page.goto(appUrl('/quietanze'));
  await expect(grid(page).first().getByRole('button', { name: /Stampa la quietanza/ })).toBeVisible();
  await check();
});

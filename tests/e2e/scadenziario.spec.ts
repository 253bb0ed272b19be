// The expiry calendar (issue 36) as a collaborator sees it: their own policy expiring in 30 days with its days left, not
// another collaborator's; 'Prepara rinnovo' opens the next period's draft, and the row then says the renewal is prepared;
// 'Avvisi…' previews a notice on the row and sends it by hand: the row lists it (renewal 'Inviato'), the outbox holds
// it, and the policy's history records it.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { admin, appUrl, demoUsers, login, uniqueSurname } from './helpers.ts';
import { giornoIso, oggiIso } from '../../src/shared/dates.ts';

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

const oggi = oggiIso();
const giorno = (n: number) => giornoIso(n, oggi);
const grid = (page: Page) => page.locator('.ag-row');

test("a collaborator's expiry calendar: their policy, its days left, and 'Prepara rinnovo'", async ({ page, request }) => {
  test.setTimeout(allow(120_000));
  const users = demoUsers();
  const staff = users.find((u) => u.roles.includes('staff'))!;
  const rossi = users.find((u) => u.email.startsWith('mario.rossi'))!;
  const call = await api(request, staff.email, staff.password);
  const collaboratori = (await call('GET', '/api/collaboratore?per_page=100')).body.data as Json[];
  const suo = collaboratori.find((c) => c.cognome === 'ROSSI')!;
  const altro = collaboratori.find((c) => c.cognome === 'VERDI')!;
  const surname = uniqueSurname('SCADENZA');
  const prodotto = (await call('GET', '/api/mandato_prodotto_in_polizza/search')).body.data[0];
  const numeri: string[] = [];
  const polizze: number[] = [];
  const email = `carla.${surname.toLowerCase()}@example.it`;
  for (const collaboratore of [suo, altro]) {
    const cliente = await call('POST', '/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Carla', cognome: surname, collaboratore_id: collaboratore.id, email });
    expect(cliente.status).toBe(201);
    const numero = `SCA-${collaboratore.cognome}-${surname}`;
    numeri.push(numero);
    const polizza = await call('POST', '/api/polizza', {
      collaboratore_id: collaboratore.id, cliente_id: cliente.body.data.model.id, compagnia_contrattuale_id: prodotto.compagnia_contrattuale_id,
      fornitore_id: prodotto.mandato.compagnia_fornitore_id, mandato_prodotto_id: prodotto.id, polizza_numero: numero,
      data_entrata_in_effetto: giorno(30 - 365), data_scadenza: giorno(30), frazionamento_slug: 'ANNUALE', tacito_rinnovo: false,
      totale_premio_imponibile: 1000, totale_premio_imposte: 222.5, diritti: 10, spese: 5, competenze: 20,
    });
    expect(polizza.status, JSON.stringify(polizza.body)).toBe(201);
    polizze.push(polizza.body.data.model.id as number);
  }

  await login(page, rossi.email, rossi.password);
  await page.getByRole('link', { name: 'Scadenziario' }).click();
  await expect(page).toHaveURL(/\/scadenziario$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scadenziario');
  // Only the policy of Rossi's customer (and its unpaid title), not Verdi's. Typed once the list has loaded: typed
  // earlier, the search was once undone in CI and the grid stayed unfiltered (12 policies) for 10 s.
  await expect(grid(page).first()).toBeVisible();
  await expect(page.locator('.ag-overlay-loading-wrapper:visible')).toHaveCount(0);
  await page.getByRole('searchbox').fill(`SCA-ROSSI-${surname}`);
  await expect(page).toHaveURL(new RegExp(`search=SCA-ROSSI-${surname}`));
  const riga = grid(page).filter({ has: page.locator('[col-id="tipo"]', { hasText: /^Polizza$/ }) });
  await expect(riga).toHaveCount(1);
  await expect(riga.locator('[col-id="riferimento"]')).toHaveText(numeri[0]!);
  await expect(riga.locator('[col-id="giorni"]')).toHaveText('30');
  await expect(riga.locator('[col-id="stato_rinnovo"]')).toContainText('Nessuno');
  await page.getByRole('searchbox').fill(`SCA-VERDI-${surname}`);
  // The grid's overlay (AG Grid also repeats it in an aria-live region for screen readers).
  await expect(page.locator('.ag-overlay-no-rows-center', { hasText: 'nessuna scadenza nel periodo' })).toBeVisible();
  await expect(grid(page)).toHaveCount(0);

  // 'Prepara rinnovo' opens the draft of the next period, linked to the old policy.
  await page.getByRole('searchbox').fill(`SCA-ROSSI-${surname}`);
  await expect(riga).toHaveCount(1);
  await riga.getByRole('button', { name: `Prepara il rinnovo della polizza ${numeri[0]}` }).click();
  await expect(page.getByText(`Rinnovo preparato: bozza della polizza dal ${giorno(30)}`)).toBeVisible();
  await expect(page).toHaveURL(/\/modifica\/polizza\/\d+$/);
  await expect(page.getByLabel('Numero Polizza Sostituita')).toHaveValue(numeri[0]!);
  await page.goto(appUrl(`/scadenziario?search=SCA-ROSSI-${surname}`));
  await expect(riga.locator('[col-id="stato_rinnovo"]')).toContainText('Preparato');

  // 'Avvisi…': the template previewed on this row, then sent by hand.
  await riga.getByRole('button', { name: `Avvisi della scadenza ${numeri[0]}` }).click();
  const dialog = page.getByRole('dialog', { name: `Avvisi: ${numeri[0]}` });
  await expect(dialog.getByLabel('Modello')).toHaveValue('preavviso_scadenza');
  const anteprima = dialog.getByRole('region', { name: "Anteprima dell'avviso" });
  const scadenza = giorno(30).split('-').reverse().join('/');
  await expect(anteprima).toContainText(`Oggetto: La sua polizza ${numeri[0]} scade il ${scadenza}`);
  await expect(anteprima).toContainText(`A: ${email}`);
  await expect(anteprima).toContainText(`Gentile ${surname} CARLA,`);
  await dialog.getByLabel('Modello').selectOption({ label: 'Sollecito di pagamento' });
  await expect(anteprima).toContainText(`Oggetto: Sollecito: rata della polizza ${numeri[0]}`);
  await dialog.getByLabel('Modello').selectOption({ label: 'Avviso di scadenza' });
  await expect(anteprima).toContainText(`Oggetto: La sua polizza ${numeri[0]} scade il ${scadenza}`);
  await dialog.getByRole('button', { name: 'Invia avviso' }).click();
  await expect(page.getByText(`Avviso "Avviso di scadenza" messo in coda per ${email}.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(riga.locator('[col-id="avvisi"]')).toContainText('Avviso di scadenza (inviato a mano)');
  // Read again from the server: the notice is on the row, and the prepared renewal is now sent.
  await page.goto(appUrl(`/scadenziario?search=SCA-ROSSI-${surname}`));
  await expect(riga.locator('[col-id="avvisi"]')).toContainText('Avviso di scadenza (inviato a mano)');
  await expect(riga.locator('[col-id="stato_rinnovo"]')).toContainText('Inviato');

  // The outbox (super_admin) holds it, and the policy's history records it, by Rossi.
  const { email: adminEmail, password: adminPassword } = admin();
  const adminPage = await (await page.context().browser()!.newContext()).newPage();
  await login(adminPage, adminEmail, adminPassword);
  await adminPage.goto(appUrl(`/email_outbox?search=${encodeURIComponent(email)}`));
  const mail = adminPage.locator('.ag-row').filter({ hasText: `La sua polizza ${numeri[0]} scade il ${scadenza}` });
  await expect(mail).toHaveCount(1);
  await expect(mail.locator('[col-id="destinatario"]')).toHaveText(email);
  // The policy's history, on the Storico desk narrowed to it: the notice, by Rossi.
  await adminPage.goto(appUrl('/storico'));
  await adminPage.getByRole('button', { name: 'Filtri', exact: true }).click();
  await adminPage.getByLabel('Archivio').selectOption({ label: 'Polizze' });
  await adminPage.getByLabel('Record').fill(String(polizze[0]));
  await adminPage.getByLabel('Record').press('Enter');
  const voce = adminPage.locator('.ag-row').filter({ hasText: 'Avviso di scadenza (inviato a mano)' });
  await expect(voce).toHaveCount(1);
  await expect(voce).toContainText(`a ${email}: La sua polizza ${numeri[0]} scade il ${scadenza}`);
  await expect(voce.locator('[col-id="utente_nome"]')).toContainText(/ROSSI|Rossi/);
  await adminPage.context().close();
});

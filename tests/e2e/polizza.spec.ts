// Policies (spec 002 §2.2, §2.3): staff create a policy from supplier, company and product, watch the gross premium follow
// the amounts, upload the contract, find four quarterly titles and pay one by bank transfer; the list shows it with its guarantees.
import { expect, test } from './fixtures.ts';
import type { APIRequestContext } from '@playwright/test';
import path from 'node:path';
import { appUrl, demoUsers, login, uniqueSurname } from './helpers.ts';
import { ROOT } from './server.ts';

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

test('staff create a quarterly policy, see the premium follow the amounts and pay a title by bank transfer', async ({ page, request }) => {
  const staff = demoUsers().find((u) => u.roles.includes('staff'))!;
  const call = await api(request, staff.email, staff.password);
  const surname = uniqueSurname('POLIZZA');
  const cliente = await call('POST', '/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Carla', cognome: surname });
  expect(cliente.status).toBe(201);

  await login(page, staff.email, staff.password);
  await page.getByRole('link', { name: 'Polizze' }).first().click();
  await expect(page).toHaveURL(/\/polizza$/);
  await page.getByRole('button', { name: /Nuova Polizza/ }).click();
  await expect(page).toHaveURL(/\/new\/polizza$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dati Polizza');

  const collaboratore = page.getByRole('combobox', { name: 'Collaboratore' });
  await collaboratore.fill('ross');
  await page.getByRole('option', { name: /ROSSI/ }).first().click();
  const contraente = page.getByRole('combobox', { name: 'Contraente' });
  await contraente.fill(surname.toLowerCase());
  await page.getByRole('option', { name: new RegExp(surname) }).first().click();

  // The product list narrows to the supplier's products under the contractual company.
  const compagnia = page.getByRole('combobox', { name: 'Compagnia Contrattuale' });
  await compagnia.fill('Assicuratrice');
  await page.getByRole('option', { name: /ASSICURATRICE TIRRENICA/ }).click();
  const fornitore = page.getByRole('combobox', { name: 'Fornitore' });
  await fornitore.fill('Tirren');
  await page.getByRole('option', { name: /TIRRENICA ASSICURAZIONI/ }).click();
  const prodotto = page.getByRole('combobox', { name: 'Prodotto', exact: true });
  await expect(prodotto).toContainText('Incendio e Furto (8)');
  await expect(prodotto).not.toContainText('Vita Risparmio');
  await prodotto.selectOption({ label: 'Incendio e Furto (8)' });

  await page.getByLabel('Numero Polizza', { exact: true }).fill(`e2e-${surname}`);
  await page.getByLabel('Data Effetto').fill('15/01/2026');
  await page.getByLabel('Frazionamento').selectOption({ label: 'Trimestrale' });
  await page.getByLabel('Data Scadenza').fill('15/01/2027');

  // Gross premium = competenze + imponibile + imposte + diritti + spese, recomputed at every keystroke.
  const lordo = page.getByLabel('Premio Lordo');
  await expect(lordo).toHaveAttribute('readonly', '');
  await page.getByLabel('Imponibile').fill('1000');
  await expect(lordo).toHaveValue('1000');
  await page.getByLabel('Imposte').fill('222,5');
  await expect(lordo).toHaveValue('1222,5');
  await page.getByLabel('Diritti').fill('10');
  await page.getByLabel('Spese di Gestione').fill('5');
  await page.getByRole('textbox', { name: 'Competenze', exact: true }).fill('20,01');
  await expect(lordo).toHaveValue('1257,51');
  // The commission panel follows too: 20% of the net for the broker, 11.5% withholding on it.
  await expect(page.getByTestId('totale-cliente')).toContainText('1.257,51');
  await page.getByRole('tab', { name: 'Calcolo Provv. Su Netto e Competenze' }).click();
  await expect(page.getByTestId('provvigione-broker')).toContainText('200,00');
  await expect(page.getByTestId('valore-ritenuta')).toContainText('23,00');

  await page.getByRole('button', { name: 'Aggiungi', exact: true }).click();
  await expect(page).toHaveURL(/\/modifica\/polizza\/\d+$/);
  await expect(page.getByText('polizza inserito')).toBeVisible();
  const id = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(surname);

  // Edit mode: the policy contract in its single-file area, listed with download, replace and delete.
  const contratto = page.getByTestId('documento-contratto');
  await expect(contratto).toContainText('Contratto di polizza');
  await expect(contratto).toContainText('Nessun documento.');
  await contratto.getByTestId('file-contratto').setInputFiles(path.join(ROOT, 'tests/fixtures/documento.pdf'));
  await expect(contratto.getByText('Documento caricato con successo')).toBeVisible();
  await expect(contratto.getByTestId('documento')).toContainText('documento.pdf');
  await expect(contratto.getByRole('button', { name: 'Scarica: Contratto di polizza' })).toBeVisible();
  await expect(contratto.getByRole('button', { name: 'Sostituisci: Contratto di polizza' })).toBeVisible();
  await expect(page.getByTestId('documento-carta_identita')).toContainText('Nessun documento.');
  const documenti = await call('GET', `/api/polizza/${id}/media`);
  expect(documenti.body.data.map((m: Json) => [m.collection_name, m.name, m.mime_type])).toEqual([['contratto', 'documento.pdf', 'application/pdf']]);

  // Four quarterly titles, the remainder cent on the first.
  const titoli = page.getByTestId('titolo');
  await expect(titoli).toHaveCount(4);
  await expect(titoli.nth(0)).toContainText('314,40');
  await expect(titoli.nth(1)).toContainText('314,37');
  await expect(titoli.nth(3)).toContainText('15/10/2026');

  await page.getByRole('button', { name: 'Paga il titolo 2' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Tipo Pagamento').selectOption({ label: 'Bonifico' });
  await dialog.getByRole('button', { name: 'Registra pagamento' }).click();
  await expect(dialog).toBeHidden();
  await expect(titoli.nth(1)).toContainText('Pagato');
  await expect(titoli.nth(1)).toContainText('Bonifico');
  await expect(titoli.nth(0)).toContainText('In giacenza');

  const saved = await call('GET', `/api/titolo?filter[polizza_id]=${id}&sort=numero_rata`);
  expect(saved.body.data.map((t: Json) => [t.numero_rata, t.saldato, t.tipo_pagamento])).toEqual([
    [1, false, null], [2, true, 'BONIFICO'], [3, false, null], [4, false, null],
  ]);
  const polizza = await call('GET', `/api/polizza/${id}`);
  expect(polizza.body.data).toMatchObject({ totale_premio_lordo: 1257.51, stato: 'IN_PAGAMENTO', saldato: false });

  // The list (every row, per_page -1) shows it; the old link spelling opens the same form.
  await page.goto(appUrl('/polizza'));
  await expect(page.locator('.ag-row', { hasText: '1.257,51' }).first()).toBeVisible();
  // A policy with a paid title cannot be deleted: the row taken out at once comes back with the server's message.
  await page.getByRole('button', { name: new RegExp(`Elimina E2E-${surname}`) }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Elimina' }).click();
  await expect(page.getByText('La polizza ha titoli con pagamenti registrati: non può essere eliminata.')).toBeVisible();
  // A refused delete closes its dialog (issue 19) and the row stays.
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('button', { name: new RegExp(`Elimina E2E-${surname}`) })).toBeVisible();
  await page.goto(appUrl(`/modifica/Polizza/${id}`));
  await expect(page.getByTestId('titolo')).toHaveCount(4, { timeout: 30_000 });

  // /titoli: read-only list, filtered by policy and paid.
  await page.goto(appUrl(`/titoli?filter[polizza_id]=${id}`));
  await expect(page.getByRole('region', { name: 'Titoli' }).locator('.ag-row')).toHaveCount(4);
  await expect(page.getByRole('button', { name: /Nuovo/ })).toHaveCount(0);
  await page.goto(appUrl(`/titoli?filter[polizza_id]=${id}&filter[saldato]=true`));
  await expect(page.getByRole('region', { name: 'Titoli' }).locator('.ag-row')).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Titoli' }).locator('.ag-row').first()).toContainText(/bonifico/i);
});

// The studio's list editor: a column dragged by its handle one place up, applied live, is drawn before the other in
// the application's list; a saved filter for everyone is offered under 'Filtri salvati' and filters; then back.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, openStudio, uniqueSurname } from './helpers.ts';

test('studio: a list column dragged up comes before the other in the application list', async ({ page }) => {
  test.setTimeout(allow(120_000));
  const { headers, before } = await openStudio(page, 'compagnia');
  await page.getByRole('button', { name: 'Lista', exact: true }).click();
  const editor = page.locator('#studio-lista-form');
  const rows = editor.locator('.riga-trascinabile');
  // Columns 3 and 4 are Tipo and Città.
  await expect(rows.nth(2).getByLabel('Intestazione')).toHaveValue('Tipo');
  await expect(rows.nth(3).getByLabel('Intestazione')).toHaveValue('Città');
  // A real pointer drag of the fourth row's handle onto the third row (in steps: the browser starts a drag only once
  // the pointer has moved with the button down).
  await rows.nth(3).locator('.riga-maniglia').scrollIntoViewIfNeeded();
  const handle = (await rows.nth(3).locator('.riga-maniglia').boundingBox())!;
  const target = (await rows.nth(2).boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + 40, target.y + 30, { steps: 8 });
  await page.mouse.up();

  await expect(rows.nth(2).getByLabel('Intestazione')).toHaveValue('Città');
  await expect(rows.nth(3).getByLabel('Intestazione')).toHaveValue('Tipo');
  // A saved filter for everyone: the companies of one city.
  const citta = uniqueSurname('CITTA');
  for (const [nome, luogo] of [['ALFA', citta], ['BETA', 'ALTROVE']]) {
    const res = await page.request.post(appUrl('/api/compagnia'), { headers, data: { ragioneSociale: `${nome} ${citta} SPA`, tipoCompagnia: 'DIRETTO', citta: luogo } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await editor.getByRole('button', { name: 'Aggiungi elemento' }).last().click();
  const salvato = editor.locator('[id^="root_filtri_salvati_0"]').first();
  await expect(salvato).toBeVisible();
  await editor.getByLabel('Nome del filtro').fill('Compagnie di prova');
  await editor.getByRole('group', { name: /^Filtri salvati per tutti.*-1$/ }).getByRole('button', { name: 'Aggiungi elemento' }).click();
  await editor.locator('#root_filtri_salvati_0_filtri_0_filtro').selectOption({ label: 'Città' });
  await editor.locator('#root_filtri_salvati_0_filtri_0_valore').fill(citta);
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  const piano = page.getByTestId('studio-piano');
  await expect(piano).toContainText('Istruzioni sul database');
  await piano.getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 1}` })).toBeVisible();

  // Where each heading is drawn: Città now left of Tipo. Polled: the grid draws its headers again as it settles (its
  // widths, the user's own layout), and a heading being redrawn has no box for a moment.
  const left = async (name: string) => (await page.getByRole('columnheader', { name, exact: true }).first().boundingBox())?.x ?? Number.NaN;
  const order = async () => ((await left('Città')) < (await left('Tipo')) ? 'Città, Tipo' : (await left('Tipo')) < (await left('Città')) ? 'Tipo, Città' : 'non disegnate');
  await page.goto(appUrl('/compagnia'));
  await expect.poll(order).toBe('Città, Tipo');
  await page.getByRole('button', { name: 'Filtri salvati' }).click();
  await page.getByRole('button', { name: 'Compagnie di prova' }).click();
  await expect(page.getByText(`ALFA ${citta} SPA`)).toBeVisible();
  await expect(page.getByText(`BETA ${citta} SPA`)).toHaveCount(0);

  // Back to the version before: Tipo left of Città again.
  await page.goto(appUrl('/studio'));
  await page.getByTestId('studio-versioni').getByRole('row').filter({ has: page.getByRole('cell', { name: String(before), exact: true }) })
    .getByRole('button', { name: 'Ripristina questa versione' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ripristina' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 2}` })).toBeVisible();
  await page.goto(appUrl('/compagnia'));
  await expect.poll(order).toBe('Tipo, Città');
});

// The top bar's one search, keyboard only, on the demo data: '/' and Ctrl+K focus it, typing finds records of several
// kinds grouped under their resources' titles, the arrows and Enter open the chosen record's screen.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, demoUsers, keyboardLogin } from './helpers.ts';

const STAFF = demoUsers().find((u) => u.roles.includes('staff'))!;

interface Hit { tipo: string; id: number; label: string; route: string }

/** A customer's surname that also finds records of another kind (their quotations, policies): asked of the API. */
async function surnameOfSeveralKinds(page: Page): Promise<{ q: string; hits: Hit[] }> {
  const token = (await page.evaluate(() => sessionStorage.getItem('token')))!;
  const headers = { Authorization: `Bearer ${token}` };
  const clienti = (await (await page.request.get(appUrl('/api/cliente?per_page=60'), { headers })).json()).data as Array<{ cognome: string | null }>;
  for (const q of new Set(clienti.map((c) => c.cognome).filter((c): c is string => !!c && c.length >= 3))) {
    const hits = (await (await page.request.get(appUrl(`/api/cerca?q=${encodeURIComponent(q)}`), { headers })).json()).data as Hit[];
    if (new Set(hits.map((h) => h.tipo)).size >= 2) return { q, hits };
  }
  throw new Error('no demo surname finds two kinds of record');
}

test('keyboard only: the shortcut focuses the search, results of several kinds, arrows and Enter open one', async ({ page }) => {
  test.setTimeout(allow(180_000));
  await keyboardLogin(page, STAFF.email, STAFF.password);
  const search = page.getByRole('combobox', { name: /^Cerca clienti/ });
  await expect(search).toHaveAttribute('placeholder', 'Cerca…');
  await expect(search).not.toBeFocused();

  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  // Fewer than three characters search nothing.
  await page.keyboard.type('zq');
  await expect(page.getByRole('listbox', { name: 'Risultati della ricerca' })).toBeHidden();
  await page.keyboard.type('xwv');
  await expect(page.getByRole('listbox', { name: 'Risultati della ricerca' })).toContainText('Nessun risultato');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');

  const { q, hits } = await surnameOfSeveralKinds(page);
  await page.keyboard.type(q.toLowerCase());
  const results = page.getByRole('listbox', { name: 'Risultati della ricerca' });
  await expect(results.getByRole('option')).toHaveCount(hits.length);
  // Grouped under the resources' titles (Clienti, RCA Auto Storiche, Polizze, ...).
  const kinds = [...new Set(hits.map((h) => h.tipo))];
  const titles = (await (await page.request.get(appUrl('/api/definitions'), { headers: { Authorization: `Bearer ${(await page.evaluate(() => sessionStorage.getItem('token')))!}` } })).json()).resources as Array<{ name: string; resource: { title: string } }>;
  for (const kind of kinds) await expect(results.getByRole('group', { name: titles.find((r) => r.name === kind)!.resource.title, exact: true })).toBeVisible();

  // The first result of the second kind: arrows down to it, Enter opens its screen.
  const target = hits.find((h) => h.tipo === kinds[1])!;
  const index = hits.indexOf(target);
  await page.keyboard.press('ArrowDown'); // the first option is already active; this moves to the second
  for (let i = 1; i < index; i++) await page.keyboard.press('ArrowDown');
  if (index === 0) await page.keyboard.press('ArrowUp');
  await expect(results.getByRole('option', { selected: true })).toHaveText(target.label);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${target.route}$`));
  await expect(results).toBeHidden();

  // Ctrl+K from the record's screen; Enter opens the first result, a record of the first kind.
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await page.keyboard.type(q);
  await expect(results.getByRole('option')).toHaveCount(hits.length);
  await expect(results.getByRole('option', { selected: true })).toHaveText(hits[0]!.label);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${hits[0]!.route}$`));
});

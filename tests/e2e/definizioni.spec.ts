// A field added live while a customer's form is open: the next save works, and the form then shows the new field (the
// client reloads its definitions on the version header) with what the user had typed still there.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { appUrl, loginAsAdmin, uniqueSurname } from './helpers.ts';

async function api(page: Page) {
  const headers = { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` };
  return {
    get: async (path: string) => (await page.request.get(appUrl(path), { headers })).json(),
    post: async (path: string, data: unknown) => page.request.post(appUrl(path), { headers, data }),
  };
}

test('a field added live appears in an open form after its next save, which works', async ({ page }) => {
  await loginAsAdmin(page);
  const server = await api(page);
  const before = await server.get('/api/definizioni');
  await page.goto(appUrl('/cliente?sort=id'));
  await page.getByRole('button', { name: /^Modifica / }).first().click();
  await expect(page).toHaveURL(/\/modifica\/cliente\/\d+$/);
  const id = Number(page.url().split('/').pop());
  const mine = `Restauro ${uniqueSurname('')}`;
  await page.getByLabel('Attività Svolta').fill(mine);
  await expect(page.getByLabel('Note dello studio')).toHaveCount(0);

  // An analyst adds a field to the customer and to its form, while this form is open.
  const entity = structuredClone(before.files['schemas/cliente/entity.schema.json']);
  entity.properties.note_studio = { type: 'string', title: 'Note dello studio', maxLength: 200 };
  const form = structuredClone(before.files['schemas/cliente/form.ui.json']);
  form['ui:layout'][0].fields.push('note_studio');
  const applied = await server.post('/api/definizioni/applica', {
    versione: before.versione, files: { 'schemas/cliente/entity.schema.json': entity, 'schemas/cliente/form.ui.json': form },
  });
  expect(applied.status(), await applied.text()).toBe(200);

  try {
    await page.getByRole('button', { name: 'Aggiorna' }).click();
    await expect(page.getByTestId('notice').filter({ hasText: /aggiornat|salvat/i }).first()).toBeVisible();
    // The answer named the new version: the form now has the field, and what was typed is still there.
    await expect(page.getByLabel('Note dello studio')).toBeVisible();
    await expect(page.getByLabel('Attività Svolta')).toHaveValue(mine);
    await page.getByLabel('Note dello studio').fill('Cliente da richiamare a gennaio');
    // The first save's notice may still be on screen: wait for this save's own answer.
    const second = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/cliente/${id}`));
    await page.getByRole('button', { name: 'Aggiorna' }).click();
    expect((await second).status()).toBe(200);
    const saved = (await server.get(`/api/cliente/${id}`)).data;
    expect(saved).toMatchObject({ attivitaSvolta: mine, note_studio: 'Cliente da richiamare a gennaio' });
  } finally {
    // The worker's other specs see the customer as the specification has it (the column stays, unused).
    const now = await server.get('/api/definizioni');
    const back = await server.post(`/api/definizioni/versioni/${before.versione}/ripristina`, { versione: now.versione });
    expect(back.status(), await back.text()).toBe(200);
  }
});

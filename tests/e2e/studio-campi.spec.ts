// The studio's field rules, through its screens only, checked in the application without a restart: a text with a
// pattern and its Italian message, kept in capitals, and a reference to another resource; then back.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, openStudio, restoreVersion, uniqueSurname } from './helpers.ts';

test('studio: a field with a pattern, its message and capitals, and a reference field, as the application shows them', async ({ page }) => {
  test.setTimeout(allow(180_000));
  const { headers, before } = await openStudio(page, 'compagnia');
  const created = await page.request.post(appUrl('/api/compagnia'), { headers, data: { ragioneSociale: `${uniqueSurname('REGOLE')} SPA`, tipoCompagnia: 'DIRETTO' } });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).data.model.id as number;

  const form = page.locator('#studio-campo-form');
  await page.getByRole('button', { name: 'Nuovo campo' }).click();
  await form.getByLabel('Nome tecnico').fill('codice_rete');
  await form.getByRole('textbox', { name: 'Etichetta', exact: true }).fill('Codice rete');
  await form.getByLabel('Modello (espressione regolare, testo)').fill('^[A-Z]{2}[0-9]{3}$');
  await form.getByLabel('Messaggio se il valore non corrisponde al modello').fill('Due lettere e tre cifre, es. AB123');
  await form.getByLabel('Sempre in maiuscolo (testo)').check();
  // The live preview's form compiles with the draft's pattern, not served yet (whoever manages the definitions may).
  const anteprima = page.getByTestId('studio-anteprima-modulo');
  await expect(anteprima.getByLabel('Codice rete')).toBeVisible();
  await expect(anteprima.getByText('Impossibile caricare il modulo')).toHaveCount(0);
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  await expect(page.getByTestId('studio-piano')).toContainText('ADD COLUMN "codice_rete" text');
  await page.getByTestId('studio-piano').getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 1}` })).toBeVisible();

  await page.getByRole('button', { name: 'Nuovo campo' }).click();
  await form.getByLabel('Nome tecnico').fill('referente_interno_id');
  await form.getByRole('textbox', { name: 'Etichetta', exact: true }).fill('Referente interno');
  await form.getByRole('combobox', { name: 'Tipo', exact: true }).selectOption({ label: 'Riferimento a un\'altra risorsa' });
  await form.getByLabel('Risorsa collegata (per un riferimento)').selectOption({ label: 'Collaboratori' });
  await page.getByRole('button', { name: 'Verifica il piano' }).click();
  await expect(page.getByTestId('studio-piano')).toContainText('ADD COLUMN "referente_interno_id" integer');
  await expect(page.getByTestId('studio-piano')).toContainText('REFERENCES "collaboratore"');
  await page.getByTestId('studio-piano').getByRole('button', { name: 'Applica' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: `versione ${before + 2}` })).toBeVisible();

  // The application: the pattern's message at the field, the value kept in capitals, the reference as a look-up.
  await page.goto(appUrl(`/modifica/compagnia/${id}`));
  const codice = page.getByLabel('Codice rete');
  await codice.fill('a1');
  await codice.blur();
  await expect(page.getByText('Due lettere e tre cifre, es. AB123')).toBeVisible();
  await codice.fill('ab123');
  await expect(codice).toHaveCSS('text-transform', 'uppercase');
  await expect(page.getByText('Due lettere e tre cifre, es. AB123')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Referente interno' })).toBeVisible();
  await page.getByRole('button', { name: 'Aggiorna' }).click();
  await expect(page.getByTestId('notice').filter({ hasText: /aggiornat|salvat/i }).first()).toBeVisible();
  const saved = await (await page.request.get(appUrl(`/api/compagnia/${id}`), { headers })).json();
  expect(saved.data.codice_rete).toBe('AB123');

  // Back to the version before the two fields.
  await restoreVersion(page, headers, before);
});

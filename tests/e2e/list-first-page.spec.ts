// A list draws page 1 before AG Grid arrives: a plain, accessible table with the grid's headers and formatted values,
// at the grid's height, which the grid then replaces (issue 20: AG Grid off the list route's critical path).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import type { Page, Route } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.ts';
import { appUrl, loginAsAdmin } from './helpers.ts';
import { ROOT } from './server.ts';

// The built chunks that carry AG Grid (the lazy grid and whatever vite split off it), found by a marker of its code.
const GRID_MARKER = 'ag-root-wrapper';
function gridChunks(): string[] {
  const dir = path.join(ROOT, 'dist', 'assets');
  return readdirSync(dir).filter((f) => f.endsWith('.js') && readFileSync(path.join(dir, f), 'utf8').includes(GRID_MARKER));
}

/** Holds every AG Grid chunk until release() is called. */
async function holdGrid(page: Page): Promise<{ release: () => void; requested: () => boolean }> {
  const names = new Set(gridChunks());
  expect(names.size, 'no built chunk carries AG Grid: is dist/ built?').toBeGreaterThan(0);
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    if (!names.has(path.basename(new URL(route.request().url()).pathname))) return route.continue();
    if (released) return route.continue();
    held.push(route);
  });
  return {
    release: () => {
      released = true;
      for (const route of held.splice(0)) void route.continue();
    },
    requested: () => held.length > 0,
  };
}

/** Header texts and the text of each body row of the plain table, cell by cell. */
async function plainTable(page: Page) {
  return page.locator('.list-table').evaluate((el) => ({
    headers: Array.from(el.querySelectorAll('thead th')).map((th) => th.textContent!.replace(/[↑↓]/g, '').trim()),
    rows: Array.from(el.querySelectorAll('tbody tr:not(.list-table-empty)')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent!.trim())),
    height: el.getBoundingClientRect().height,
  }));
}

/** The same read from AG Grid, columns in their displayed order, rows in the row index order. */
async function gridTable(page: Page) {
  return page.locator('.ag-root-wrapper').evaluate((el) => {
    const headers = Array.from(el.querySelectorAll<HTMLElement>('.ag-header-row-column .ag-header-cell'))
      .sort((a, b) => Number(a.getAttribute('aria-colindex')) - Number(b.getAttribute('aria-colindex')));
    const ids = headers.map((h) => h.getAttribute('col-id')!);
    const byIndex = new Map<string, Map<string, string>>();
    for (const cell of Array.from(el.querySelectorAll<HTMLElement>('.ag-row .ag-cell'))) {
      const index = cell.closest('.ag-row')!.getAttribute('row-index')!;
      if (!byIndex.has(index)) byIndex.set(index, new Map());
      byIndex.get(index)!.set(cell.getAttribute('col-id')!, cell.textContent!.trim());
    }
    const rows = [...byIndex].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, cells]) => ids.map((id) => cells.get(id) ?? ''));
    return { headers: headers.map((h) => h.querySelector('.ag-header-cell-text')?.textContent?.trim() ?? ''), rows, height: el.closest('[role="region"]')!.getBoundingClientRect().height };
  });
}

test('customer list: page 1 in a plain table before AG Grid, then the grid takes over', async ({ page }) => {
  await loginAsAdmin(page);
  const grid = await holdGrid(page);
  await page.goto(appUrl('/cliente'));
  const table = page.getByRole('region', { name: 'Clienti' }).getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Cognome' })).toBeVisible();
  await expect(table.locator('tbody tr').first()).toBeVisible();
  expect(grid.requested(), 'the grid chunk is asked for while the plain table shows').toBe(true);
  await expect(page.locator('.ag-root-wrapper')).toHaveCount(0);

  const plain = await plainTable(page);
  // list.json's visible columns, headed as the grid heads them, after the row actions.
  // (in the grid's order: the important ones first when the list is wider than the screen).
  expect(plain.headers[0]).toBe('Azioni');
  expect([...plain.headers].sort()).toEqual(['Attivo', 'Azioni', 'Cellulare', 'Codice Fiscale', 'Cognome', 'Data di Nascita', 'Email', 'Id', 'Nome', 'Tipo']);
  expect(plain.rows.length).toBeGreaterThan(0);
  const col = (name: string) => plain.headers.indexOf(name);
  for (const row of plain.rows) {
    // Formatted as the grid formats them: Italian dates, booleans as Sì/No, enum values by their titles.
    expect(row[col('Data di Nascita')]).toMatch(/^(\d{2}\/\d{2}\/\d{4})?$/);
    expect(row[col('Attivo')]).toMatch(/^(Sì|No)?$/);
    expect(row[col('Tipo')]).not.toMatch(/^[A-Z_]{3,}$/);
  }
  // Newest first (list.json's -id), as the grid will show them, and the row actions are there.
  const ids = plain.rows.map((r) => Number(r[col('Id')]));
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  await expect(table.getByRole('button', { name: /^Modifica / }).first()).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Id' })).toHaveAttribute('aria-sort', 'descending');
  await expectNoSeriousViolations(page, { include: '.list-table' });

  grid.release();
  await expect(page.locator('.ag-row').first()).toBeVisible();
  await expect(page.locator('.list-table')).toHaveCount(0);
  const after = await gridTable(page);
  // The same headers and the same cells, value for value: one source of columns.
  expect(after.headers).toEqual(plain.headers);
  expect(after.rows).toEqual(plain.rows);
  // Nothing below the list moves when the grid takes over.
  console.log(`plain table ${plain.height}px, grid ${after.height}px`);
  expect(Math.abs(after.height - plain.height)).toBeLessThanOrEqual(2);
});

test('quotation list: money and workflow status in the plain table read as in the grid', async ({ page }) => {
  await loginAsAdmin(page);
  const grid = await holdGrid(page);
  await page.goto(appUrl('/auto_storiche'));
  await expect(page.locator('.list-table tbody tr').first()).toBeVisible();
  const plain = await plainTable(page);
  const premio = plain.headers.indexOf('Premio');
  expect(premio).toBeGreaterThan(0);
  // Euro in Italian format where there is a premium.
  expect(plain.rows.some((r) => /^\d{1,3}(\.\d{3})*,\d{2}\s€$/.test(r[premio]))).toBe(true);
  // The status by its name in the machine, not its id.
  const stato = plain.headers.indexOf('Stato');
  expect(plain.rows.every((r) => r[stato] !== '' && !/^\d+$/.test(r[stato]))).toBe(true);
  grid.release();
  await expect(page.locator('.ag-row').first()).toBeVisible();
  const after = await gridTable(page);
  expect(after.headers).toEqual(plain.headers);
  expect(after.rows).toEqual(plain.rows);
  console.log(`plain table ${plain.height}px, grid ${after.height}px`);
  expect(Math.abs(after.height - plain.height)).toBeLessThanOrEqual(2);
});

// Every list at 1366x768 on the demo data: no truncated cell or header, chips inside their cells, the columns the
// definition marks important in view without scrolling sideways, axe clean; a screenshot of each, committed under
// docs/screenshots/<list>.png for the closing note (E2E_LIST_SHOTS=<folder> writes them elsewhere).
import { readdirSync, readFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expectNoSeriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { Page } from '@playwright/test';
import { appUrl, loginAsAdmin } from './helpers.ts';
import { ROOT } from './server.ts';

interface ListDef {
  name: string;
  route: string;
  important: string[];
}

/** Every resource with a list screen in the menu, from the definitions themselves (new desks are covered too). */
function lists(): ListDef[] {
  const dir = path.join(ROOT, 'schemas');
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, 'resource.json')) && existsSync(path.join(dir, name, 'list.json')))
    .map((name) => {
      const resource = JSON.parse(readFileSync(path.join(dir, name, 'resource.json'), 'utf8'));
      const list = JSON.parse(readFileSync(path.join(dir, name, 'list.json'), 'utf8'));
      return { name, route: resource.routes?.list?.path, menu: resource.menu, important: list.columns.filter((c: { important?: boolean; hide?: boolean }) => c.important && !c.hide).map((c: { field: string }) => c.field) };
    })
    .filter((l) => l.route && l.menu)
    .map(({ name, route, important }) => ({ name, route, important }));
}

const SHOTS = process.env.E2E_LIST_SHOTS || path.join(ROOT, 'docs', 'screenshots');

async function gridProblems(page: Page, important: string[]) {
  return page.evaluate((importantFields) => {
    const problems: string[] = [];
    const grid = document.querySelector('.ag-root-wrapper');
    if (!grid) return ['no grid'];
    const gridBox = grid.getBoundingClientRect();
    // Cells and headers: the text must fit (AG Grid cuts with an ellipsis otherwise).
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.ag-cell-value, .ag-cell .ag-cell-wrapper, .ag-header-cell-text'))) {
      if (el.scrollWidth > el.clientWidth + 1) {
        const col = el.closest('[col-id]')?.getAttribute('col-id');
        problems.push(`truncated ${col}: "${el.textContent?.slice(0, 40)}" (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    // Chips stay inside their cell, in both directions.
    for (const chip of Array.from(document.querySelectorAll<HTMLElement>('.ag-cell .badge'))) {
      const cell = chip.closest('.ag-cell')!.getBoundingClientRect();
      const box = chip.getBoundingClientRect();
      if (box.left < cell.left - 1 || box.right > cell.right + 1 || box.top < cell.top - 1 || box.bottom > cell.bottom + 1) {
        problems.push(`chip clipped in ${chip.closest('[col-id]')?.getAttribute('col-id')}: "${chip.textContent}"`);
      }
    }
    // Important columns: their header is inside the grid's visible width, the grid not scrolled.
    for (const field of importantFields) {
      const header = document.querySelector(`.ag-header-cell[col-id="${field}"]`);
      if (!header) {
        problems.push(`important column ${field} not shown`);
        continue;
      }
      const box = header.getBoundingClientRect();
      if (box.right > gridBox.right + 1 || box.left < gridBox.left - 1) problems.push(`important column ${field} off screen (${Math.round(box.left)}-${Math.round(box.right)} of ${Math.round(gridBox.right)})`);
    }
    // The grid's height fits its rows: the last row is whole inside the grid, nothing (a scrollbar's strip) over it.
    const rows = Array.from(grid.querySelectorAll<HTMLElement>('.ag-row')).sort((a, b) => a.getBoundingClientRect().bottom - b.getBoundingClientRect().bottom);
    const lastRow = rows.at(-1);
    const last = lastRow?.getBoundingClientRect();
    const body = grid.querySelector('.ag-grid-viewport')?.getBoundingClientRect();
    if (rows.length && !body) problems.push('no grid viewport');
    if (last && body && last.bottom > body.bottom + 1) problems.push(`last row cut (${Math.round(last.bottom)} > ${Math.round(body.bottom)})`);
    if (lastRow) {
      lastRow.scrollIntoView({ block: 'center' });
      const box = lastRow.getBoundingClientRect();
      const x = box.left + Math.min(40, box.width / 2);
      const onTop = document.elementFromPoint(x, box.bottom - 3);
      // Nothing painted over it either: every element at that point above the row is see-through.
      const painted = document.elementsFromPoint(x, box.bottom - 3).slice(0, document.elementsFromPoint(x, box.bottom - 3).findIndex((el) => el.closest('.ag-row')))
        .filter((el) => !['rgba(0, 0, 0, 0)', 'transparent'].includes(getComputedStyle(el).backgroundColor));
      window.scrollTo(0, 0);
      if (!onTop?.closest('.ag-row')) problems.push(`last row covered by ${onTop?.className || 'nothing'}`);
      if (painted.length) problems.push(`last row painted over by ${painted.map((el) => el.className).join(', ')}`);
    }
    return problems;
  }, important);
}

test.use({ viewport: { width: 1366, height: 768 } });

for (const list of lists()) {
  test(`list ${list.name} (${list.route}) reads whole at 1366x768`, async ({ page }) => {
    test.setTimeout(allow(150_000));
    await loginAsAdmin(page);
    await page.goto(appUrl(list.route));
    const grid = page.locator('.ag-root-wrapper').first();
    await expect(grid).toBeVisible();
    await expect(page.locator('.ag-row, .ag-overlay-no-rows-center').first()).toBeVisible();
    // Columns settle once the rows are measured (continuous auto-size).
    await expect.poll(() => gridProblems(page, list.important), { timeout: 10_000 }).toEqual([]);
    // The screen as a clerk sees it at 1366x768 (the viewport, not the full page: small files).
    mkdirSync(SHOTS, { recursive: true });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(SHOTS, `${list.name}.png`), animations: 'disabled', caret: 'hide' });
    await expectNoSeriousViolations(page);
  });
}

test('a reference column shows the label, not the number', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/auto_storiche'));
  const cell = page.locator('.ag-row').first().locator('[col-id="collaboratore_id"]');
  await expect(cell).not.toHaveText(/^\d+$/);
});

test('a lazy screen that does not arrive shows "Loading chunk failed" with a reload button', async ({ page }) => {
  await loginAsAdmin(page);
  // The test hook shortens the 120 000 ms of spec 002 §8; the list's chunk never answers.
  await page.addInitScript(() => ((window as unknown as { __chunkTimeoutMs: number }).__chunkTimeoutMs = 1500));
  await page.route(/\/assets\/ResourceListPage[^/]*\.js$/, () => undefined);
  await page.goto(appUrl('/cliente'));
  await expect(page.getByRole('alert')).toContainText('Loading chunk failed', { timeout: 15_000 });
  await page.unroute(/\/assets\/ResourceListPage[^/]*\.js$/);
  await page.getByRole('button', { name: 'Ricarica la pagina' }).press('Enter');
  await expect(page.locator('.ag-root-wrapper')).toBeVisible();
});

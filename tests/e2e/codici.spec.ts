// No codes and no foreign dates on screen (spec 000 §9): every route the definitions and the menu name, a record of each
// list (one per status: a workflow's, or its status chips), their tabs, steps and date dialogs, read as a person reads them.
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import { appUrl, loginAsAdmin } from './helpers.ts';
import { enumTitle } from '../../src/shared/enumTitle.ts';

type Json = Record<string, any>;

interface Vocabulary {
  /** Codes a definition gives a title (a status, a payment type, a product key), and event types with a label. */
  codes: Map<string, string>;
  /** Property names with a title: a form label must not read as one (isPrincipal), nor as one made readable (Prodotto label). */
  names: Map<string, string>;
  /** Fields whose values are free text (a surname may be spelled like a status): their grid cells are data, not codes. */
  freeText: Set<string>;
}

function vocabulary(definitions: Json): Vocabulary {
  const codes = new Map<string, string>();
  const worded = new Set<string>();
  const names = new Map<string, string>();
  const titles = new Set<string>();
  const withOptions = new Set<string>();
  const allFields = new Set<string>();
  const headers: Array<[string, string]> = [];
  const walk = (schema: unknown, where: string) => {
    if (!schema || typeof schema !== 'object') return;
    const node = schema as Json;
    if (typeof node.title === 'string') titles.add(node.title.toLowerCase());
    for (const option of Array.isArray(node.oneOf) ? node.oneOf : []) {
      if (option && typeof option === 'object' && 'const' in option && typeof option.title === 'string') {
        titles.add(option.title.toLowerCase());
        // Numbers are everywhere on screen (ids, amounts): only text codes can be told apart. A code titled as itself
        // (POS) reads as it is; one titled otherwise anywhere (GIACENZA, 'In giacenza' on the policy) is a code.
        if (typeof option.const === 'string' && option.title !== option.const) {
          codes.set(option.const, `codice di ${where} (titolo "${option.title}")`);
          const words = enumTitle(option.const);
          if (words !== option.const && words.toLowerCase() !== option.title.toLowerCase()) {
            codes.set(words, `codice di ${where} reso a parole (titolo "${option.title}")`);
            worded.add(words);
          }
        }
      }
    }
    for (const [name, prop] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
      allFields.add(name);
      if (prop?.oneOf || prop?.enum || prop?.items?.oneOf || prop?.items?.enum) withOptions.add(name);
      if (prop && typeof prop.title === 'string') {
        names.set(name, `nome del campo ${where}.${name} (titolo "${prop.title}")`);
        names.set(enumTitle(name), `nome del campo ${where}.${name} reso a parole (titolo "${prop.title}")`);
      }
      walk(prop, `${where}.${name}`);
    }
    for (const key of ['items', 'then', 'else', 'if']) walk(node[key], where);
    for (const key of ['allOf', 'anyOf']) for (const part of Array.isArray(node[key]) ? node[key] : []) walk(part, where);
  };
  for (const resource of definitions.resources as Json[]) {
    walk(resource.schema, resource.name);
    for (const column of (resource.list?.columns ?? []) as Json[]) {
      headers.push([`header:${String(column.headerName)}`, String(column.field)]);
      if (typeof column.headerName === 'string') titles.add(column.headerName.toLowerCase());
    }
    for (const word of [resource.resource.title, resource.resource.singular]) if (typeof word === 'string') titles.add(word.toLowerCase());
    for (const [event, meta] of Object.entries((resource.workflow?.meta?.events ?? {}) as Record<string, Json>)) {
      if (typeof meta.label === 'string') {
        titles.add(meta.label.toLowerCase());
        codes.set(event, `evento ${event} di ${resource.name} (etichetta "${meta.label}")`);
      }
    }
  }
  // Whatever some definition uses as a title (IBAN, Note) is a word of the screens, not a field's name, nor a code
  // made readable (TITOLO, a kind of expiry, reads 'Titolo': the title of a column of the desks).
  for (const text of [...names.keys()]) if (titles.has(text.toLowerCase())) names.delete(text);
  for (const text of worded) if (titles.has(text.toLowerCase())) codes.delete(text);
  const freeText = new Set([...allFields].filter((f) => !withOptions.has(f)));
  for (const [header, field] of headers) if (freeText.has(field)) freeText.add(header);
  return { codes, names, freeText };
}

// An Italian text is never written like a constant or a key (DATI_REGISTRI, auto_storica_itas).
const CODE_SHAPES = [/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/, /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/];
// The parts of a composed text ('12/01/2026 · BONIFICO · Rossi').
const PARTS = /\s*[·|,;]\s*/;

interface Seen {
  /** Visible text nodes, with the grid column (col-id, or 'header:<th text>') they sit in, if any. */
  texts: Array<{ text: string; column: string | null; label: boolean }>;
  options: string[];
  values: string[];
  dateInputs: number;
}

/** What a person sees now: visible text, the options of visible selects, the values of visible inputs. */
function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    const visible = (el: Element) =>
      (el as HTMLElement).checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) && !el.closest('.visually-hidden, .visually-hidden-focusable');
    const texts: Seen['texts'] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      // A technical name shown as such (<code>, the studio's) is meant to be read as one.
      if (!text || !el || el.closest('script, style, select, code') || !visible(el)) continue;
      // The grid names a cell's column (col-id); the plain first-page table by its header.
      const cell = el.closest('td');
      const header = cell ? cell.closest('table')?.querySelectorAll('thead th')[cell.cellIndex]?.textContent?.trim() : undefined;
      const column = el.closest('[col-id]')?.getAttribute('col-id') ?? (header ? `header:${header}` : null);
      // A label: a form's, or a text its element closes with ':' ('Prodotto: …').
      const label = Boolean(el.closest('label, legend')) || Boolean(el.textContent?.trim().endsWith(':'));
      texts.push({ text, column, label });
    }
    const selects = [...document.querySelectorAll('select')].filter(visible);
    const options = selects.flatMap((select) => [...select.options].map((o) => o.text.trim()));
    const values = [...document.querySelectorAll('input')].filter((i) => visible(i) && i.value).map((i) => i.value);
    return { texts, options, values, dateInputs: document.querySelectorAll('input[type=date]').length };
  });
}

/** mm/dd/yyyy: a second number that can only be a day, or the browser's own pattern. */
function americanDate(text: string): boolean {
  if (/mm\/dd\/yyyy/i.test(text)) return true;
  return [...text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g)].some((m) => Number(m[1]) <= 12 && Number(m[2]) > 12);
}

function problems(state: Seen, v: Vocabulary): string[] {
  const out = new Set<string>();
  const code = (piece: string) => v.codes.get(piece) ?? (CODE_SHAPES.some((shape) => shape.test(piece)) ? 'scritto come un codice' : undefined);
  for (const { text, column, label } of state.texts) {
    if (americanDate(text)) out.add(`"${text}": data mm/gg/aaaa`);
    if (column && v.freeText.has(column)) continue;
    for (const piece of new Set([text, ...text.split(PARTS)].map((p) => p.trim()))) {
      // One letter (A, M) is a word too: only an option that reads as one is a code.
      const why = piece.length > 1 ? code(piece) : undefined;
      if (why) out.add(`"${piece}": ${why}`);
    }
    // A label names the field by its title: 'Prodotto label:' or 'isPrincipal' is the field's name.
    const name = text.replace(/\s*[:*]\s*$/, '');
    const asLabel = label || text.endsWith(':') ? v.names.get(name) : undefined;
    if (asLabel) out.add(`"${text}": ${asLabel}`);
  }
  for (const option of state.options) {
    const why = code(option);
    if (why) out.add(`opzione "${option}": ${why}`);
  }
  for (const value of state.values) {
    if (americanDate(value)) out.add(`valore "${value}": data mm/gg/aaaa`);
    // A field offered by its name to be typed in (an undeclared key of a form's data).
    const name = v.names.get(value);
    if (name && !name.includes('reso a parole')) out.add(`valore "${value}": ${name}`);
  }
  if (state.dateInputs) out.add(`${state.dateInputs} input[type=date] (data del browser, non GG/MM/AAAA)`);
  return [...out];
}

/** The screen has its data: no call of the app pending for a moment (at most a few seconds), no loading notice left. */
async function settled(page: Page, pending: () => number): Promise<void> {
  const deadline = Date.now() + 4000;
  for (let quiet = 0; quiet < 2 && Date.now() < deadline; ) {
    await page.waitForTimeout(50);
    quiet = pending() === 0 ? quiet + 1 : 0;
  }
  await expect(page.getByText(/^Caricamento/)).toHaveCount(0);
}

test('every screen reads codes through their titles and dates as GG/MM/AAAA, with no browser date input', async ({ page }) => {
  // Every route and a record of each list: 2-3 minutes on a loaded 2-core machine, and it grows with the screens.
  test.setTimeout(allow(600_000));
  await loginAsAdmin(page);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const api = page.request as APIRequestContext;
  const get = async (path: string): Promise<Json> => {
    const res = await api.get(appUrl(path), { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status(), path).toBe(200);
    return (await res.json()) as Json;
  };
  const definitions = await get('/api/definitions');
  const words = vocabulary(definitions);
  // The app's own calls still open (a document left behind by a navigation never finishes: not counted).
  const inFlight = new Set<Request>();
  page.on('request', (r) => r.resourceType() === 'fetch' && inFlight.add(r));
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  page.on('framenavigated', () => inFlight.clear());
  const found: string[] = [];
  const check = async (where: string) => {
    await settled(page, () => inFlight.size);
    for (const problem of problems(await seen(page), words)) found.push(`${where}: ${problem}`);
  };
  // A dialog or popover opened by `opener`, checked, then closed.
  const inside = async (where: string, opener: ReturnType<Page['getByRole']>) => {
    if (!(await opener.count())) return;
    await opener.first().click();
    await check(where);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  };

  // Screens without an id: the menu, the dashboard's cards, each resource's list and new-record routes.
  const resources = definitions.resources as Json[];
  const routes = new Set<string>(['/dashboard']);
  for (const entry of [...(definitions.menu as Json[]), ...(definitions.dashboard as Json[])]) routes.add(String(entry.route));
  for (const resource of resources) {
    for (const route of Object.values((resource.resource.routes ?? {}) as Record<string, Json>)) {
      if (!String(route.path).includes(':')) routes.add(String(route.path));
    }
  }
  for (const route of routes) {
    await page.goto(appUrl(route));
    await check(route);
    const filters = page.getByRole('button', { name: 'Filtri' });
    if ((await filters.count()) && (await filters.first().getAttribute('aria-expanded')) === 'false') {
      await filters.first().click();
      await check(`${route} (filtri)`);
    }
    const details = page.getByRole('button', { name: 'Mostra dettagli' });
    if (await details.count()) {
      await details.first().click();
      await check(`${route} (dettagli)`);
      await page.keyboard.press('Escape');
    }
    await inside(`${route} (registra incasso)`, page.getByRole('button', { name: 'Registra incasso' }));
  }

  // Record screens: the first record of each list, and one in each status where a workflow moves them.
  for (const resource of resources) {
    const edit = resource.resource.routes?.edit?.path as string | undefined;
    if (!edit) continue;
    const page1 = await get(`${String(resource.resource.api.path)}?per_page=100`);
    const rows = page1.data as Json[];
    // The status: the workflow's field, else the list's status chips (a paid policy shows its payments).
    const chips = ((resource.list?.columns ?? []) as Json[]).find((c) => c.format === 'chip' && c.chips && !c.thresholds)?.field as string | undefined;
    const statusField = (resource.workflow?.meta?.statusField as string | undefined) ?? chips;
    const picked = new Map<unknown, Json>();
    for (const row of rows) if (!picked.has(statusField ? row[statusField] : 'first')) picked.set(statusField ? row[statusField] : 'first', row);
    for (const row of picked.values()) {
      const path = edit.replace(':id', String(row.id));
      await page.goto(appUrl(path));
      const tabs = page.getByRole('tab');
      // With tabs, the first one is the screen as it opens.
      await settled(page, () => inFlight.size);
      if (!(await tabs.count())) await check(path);
      for (let i = 0; i < (await tabs.count()); i++) {
        const name = (await tabs.nth(i).textContent())?.trim();
        await tabs.nth(i).click();
        await check(`${path} (scheda ${name})`);
      }
      await inside(`${path} (Salva Emissione)`, page.getByTestId('emissione').getByRole('button', { name: 'Salva Emissione' }));
      await inside(`${path} (pagamento titolo)`, page.getByRole('button', { name: /^Paga il titolo/ }));
      // A stepper's later steps (the RCA quotation), as far as it goes.
      const next = page.getByRole('button', { name: 'Continua', exact: true });
      for (let step = 2; step <= 4 && (await next.count()) && (await next.isEnabled()); step++) {
        await next.click();
        await check(`${path} (passo ${step})`);
      }
    }
  }

  expect(found, found.join('\n')).toEqual([]);
});

test("a list's date filter is typed GG/MM/AAAA: a wrong day is named and not applied, a right one filters by its ISO day", async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto(appUrl('/titoli'));
  await page.getByRole('button', { name: 'Filtri', exact: true }).click();
  const dal = page.getByLabel('Scadenza dal', { exact: true });
  await expect(dal).toHaveAttribute('placeholder', 'GG/MM/AAAA');
  await dal.fill('31/02/2026');
  await expect(page.getByText('Data non valida (GG/MM/AAAA)')).toBeVisible();
  await expect(page).not.toHaveURL(/scadenza_dal/);
  await dal.fill('01/02/2026');
  await expect(page).toHaveURL(/filter%5Bscadenza_dal%5D=2026-02-01/);
  await expect(page.getByText('Data non valida (GG/MM/AAAA)')).toHaveCount(0);
});

// The customer card (cliente/resource.json "related"): a demo customer with policies shows its related lists as tabs,
// to staff and to the collaborator who owns it, each tab only what the user's scope allows, hidden when not allowed.
import { expect, test } from './fixtures.ts';
import { allow } from './limits.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { appUrl, demoUsers, login } from './helpers.ts';

type Json = Record<string, any>;

async function api(request: APIRequestContext, email: string, password: string) {
  const res = await request.post(appUrl('/api/login'), { data: { email, password } });
  expect(res.status()).toBe(200);
  const token = ((await res.json()) as Json).token as string;
  return async (url: string): Promise<{ status: number; body: Json }> => {
    const answer = await request.get(appUrl(url), { headers: { Authorization: `Bearer ${token}` } });
    return { status: answer.status(), body: (await answer.json()) as Json };
  };
}

/** The tabs the definitions declare for the customer that this user may open (list tabs need the list permission). */
async function expectedTabs(call: Awaited<ReturnType<typeof api>>): Promise<string[]> {
  const defs = (await call('/api/definitions')).body as { resources: Array<{ name: string; can: { list: boolean }; resource: { related?: Array<Json> } }> };
  const related = defs.resources.find((r) => r.name === 'cliente')!.resource.related ?? [];
  return related
    .filter((tab) => (tab.kind ?? 'list') !== 'list' || defs.resources.find((r) => r.name === tab.resource)?.can.list === true)
    .map((tab) => tab.title as string);
}

async function openCard(page: Page, id: number, tabs: string[]) {
  await page.goto(appUrl(`/modifica/cliente/${id}`));
  await expect(page.getByRole('tab', { name: 'Dati Cliente' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('tab')).toHaveText(['Dati Cliente', ...tabs]);
}

async function policyTab(page: Page, numbers: string[], absent: string[]) {
  await page.getByRole('tab', { name: 'Polizze', exact: true }).click();
  const pane = page.getByRole('region', { name: 'Polizze', exact: true }).first();
  for (const n of numbers) await expect(pane.getByText(n, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  for (const n of absent) await expect(pane.getByText(n, { exact: true })).toHaveCount(0);
}

test('the customer card shows the related lists to staff and, in their scope, to the collaborator', async ({ page, request }) => {
  // Two logins, eight tabs and several lists: longer than one screen's default.
  test.setTimeout(allow(180_000));
  const users = demoUsers();
  const staff = users.find((u) => u.roles.includes('staff'))!;
  const [rossi, verdi] = users.filter((u) => u.roles.includes('collaboratore'));
  const asStaff = await api(request, staff.email, staff.password);
  const asRossi = await api(request, rossi!.email, rossi!.password);
  const asVerdi = await api(request, verdi!.email, verdi!.password);

  // A demo customer of the first collaborator with policies in his scope.
  const own = (await asRossi('/api/polizza?per_page=-1')).body.data as Json[];
  // His customers: a policy of his may belong to a customer another collaborator follows (other specs make such).
  const hisCustomers = new Set(((await asRossi('/api/cliente?per_page=-1')).body.data as Json[]).map((c) => c.id as number));
  const counts = new Map<number, number>();
  for (const p of own) if (hisCustomers.has(p.cliente_id)) counts.set(p.cliente_id, (counts.get(p.cliente_id) ?? 0) + 1);
  const [id] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  expect(id).toBeTruthy();
  // A renewal being prepared (the expiry calendar's) has no number until it is issued: the others are looked for by theirs.
  const numbered = (rows: Json[]) => rows.filter((p) => p.polizza_numero != null).map((p) => String(p.polizza_numero));
  const staffPolicies = numbered((await asStaff(`/api/polizza?per_page=-1&filter[cliente_id]=${id}`)).body.data as Json[]);
  const rossiPolicies = numbered(own.filter((p) => p.cliente_id === id));
  expect(staffPolicies.length).toBeGreaterThan(0);

  // Staff: every declared tab they may list (the outbox is the super admin's), the customer's policies.
  const staffTabs = await expectedTabs(asStaff);
  expect(staffTabs).toEqual(expect.arrayContaining(['Quotazioni', 'Polizze', 'Titoli', 'Consensi', 'Storico']));
  expect(staffTabs).not.toContain('Email inviate');
  await login(page, staff.email, staff.password);
  await openCard(page, id, staffTabs);
  await policyTab(page, staffPolicies, []);
  // Titles of the customer's policies, with what is due.
  await page.getByRole('tab', { name: 'Titoli', exact: true }).click();
  const titoli = (await asStaff(`/api/titolo?per_page=-1&filter[cliente_id]=${id}`)).body.data as Json[];
  const pane = page.getByRole('region', { name: 'Titoli', exact: true }).first();
  await expect(pane.getByText(titoli.length ? /Scadenza/ : /nessun elemento/).first()).toBeVisible();
  // The change history: the timeline of the card's record.
  await page.getByRole('tab', { name: 'Storico', exact: true }).click();
  await expect(page.getByTestId('storico')).toBeVisible();

  // The collaborator: only the tabs his permissions allow, and only his rows.
  await page.context().clearCookies();
  await page.evaluate(() => sessionStorage.clear());
  const rossiTabs = await expectedTabs(asRossi);
  await login(page, rossi!.email, rossi!.password);
  await openCard(page, id, rossiTabs);
  if (rossiTabs.includes('Polizze')) await policyTab(page, rossiPolicies, staffPolicies.filter((n) => !rossiPolicies.includes(n)));

  // Another collaborator does not open the card at all (the server's row scope).
  expect([403, 404]).toContain((await asVerdi(`/api/cliente/${id}`)).status);
});

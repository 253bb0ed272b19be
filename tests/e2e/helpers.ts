// Shared e2e helpers: demo users, login through the UI, keyboard focus walking, valid test data.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { codiceFiscaleCheckChar } from '../../src/shared/validators/index.ts';
import { ROOT } from './server.ts';

export interface DemoUser {
  email: string;
  password: string;
  name: string;
  roles: string[];
  expectedMenu: string[];
}

export function demoUsers(): DemoUser[] {
  return JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'demo', 'users.json'), 'utf8')) as DemoUser[];
}

export function admin(): { email: string; password: string } {
  return { email: process.env.ADMIN_EMAIL!, password: process.env.ADMIN_PASSWORD! };
}

/** Absolute URL on the app server (the base URL is only known once the global setup has run). */
export function appUrl(pathname: string): string {
  return new URL(pathname, process.env.E2E_BASE_URL).toString();
}

export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto(appUrl('/login'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export async function loginAsAdmin(page: Page): Promise<void> {
  const { email, password } = admin();
  await login(page, email, password);
}

/** Presses Tab (or Shift+Tab) until the target has focus; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, options: { max?: number; back?: boolean } = {}): Promise<void> {
  const max = options.max ?? 80;
  for (let i = 0; i < max; i++) {
    const focused = await target
      .first()
      .evaluate((el) => el === document.activeElement, undefined, { timeout: 1000 })
      .catch(() => false);
    if (focused) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  const active = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`Tab never reached ${target.toString()}; focus is on ${active}`);
}

/** A surname no other test uses, so search finds exactly our record. */
export function uniqueSurname(prefix = 'COLLAUDO'): string {
  const letters = Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
  return `${prefix}${letters}`;
}

/** A codice fiscale with a correct check character (born 01/01/1980 in Roma). */
export function validCodiceFiscale(): string {
  const first15 = 'RSSMRA80A01H501';
  return first15 + codiceFiscaleCheckChar(first15);
}

/** Same data with a wrong check character: well-formed, but not valid. */
export function invalidCodiceFiscale(): string {
  const valid = validCodiceFiscale();
  const wrong = valid.endsWith('A') ? 'B' : 'A';
  return valid.slice(0, 15) + wrong;
}

export function menuTitles(page: Page) {
  return page.getByRole('navigation', { name: 'Menu Rapido' }).getByRole('link');
}

// One way to ask axe about a page: after the page's CSS transitions have ended, because a button caught half-way
// through its focus transition (Bootstrap 5.3 repaints :focus-visible with the hover colours) fails color-contrast.
import AxeBuilder from '@axe-core/playwright';
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeOptions {
  /** Only this part of the page (a CSS selector). */
  include?: string;
  /** Also axe's best-practice rules (on by default). */
  bestPractice?: boolean;
  /** Every impact, not only serious and critical ones. */
  everyImpact?: boolean;
}

/** The violations as readable lines: rule, help text and the elements it found. */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  let builder = new AxeBuilder({ page }).withTags(options.bestPractice === false ? WCAG : [...WCAG, 'best-practice']);
  if (options.include) builder = builder.include(options.include);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => options.everyImpact || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

export async function expectNoSeriousViolations(page: Page, options: AxeOptions = {}): Promise<void> {
  expect(await axeViolations(page, options)).toEqual([]);
}

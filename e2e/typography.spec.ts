import { expect, test } from '@playwright/test';
import { buy, fixture, goAll, openGame, revealAll } from './game.ts';

/**
 * Issue 31: French typography on the page itself (the text as the DOM holds it, not
 * as Playwright's whitespace-folding matchers read it), and the rules table's totals
 * under « Total ».
 */
const text = (locator: import('@playwright/test').Locator) => locator.evaluate((e) => e.textContent ?? '');

test('the rules table puts each block’s total under « Total »', async ({ page }) => {
  await openGame(page);
  await page.getByRole('button', { name: 'Règlement' }).click();
  const block = page.locator('section.rules-block').first();
  await expect(block.getByRole('columnheader')).toHaveText(['Nombre de lots', 'Montant', 'Total']);
  const foot = block.locator('tfoot td');
  await expect(foot).toHaveCount(2);
  expect(await text(foot.nth(0))).toBe('');
  expect(await text(foot.nth(1))).toBe('700\u00a0000\u00a0€');
});

test('the session line and the card are typeset: narrow spaces, a true minus sign', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Historique' }).click();
  const line = await text(page.locator('.session-line'));
  expect(line).toContain('Mises\u202f: 1\u00a0€');
  expect(line).toContain('Résultat net\u202f: \u22121\u00a0€');
  const games = await text(page.locator('.history-games').first());
  expect(games).toContain('JEU 1\u202f: ');
  await page.keyboard.press('Escape');
  await fixture(page, 'x2');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  expect(await text(page.getByRole('dialog').getByRole('heading'))).toBe('Gagné\u202f!');
});

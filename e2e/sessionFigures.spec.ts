import { expect, test, type Page } from '@playwright/test';
import type { Play } from '../src/contract/api.ts';
import { buy, euros, expectPhase, finishSpins, fixture, goAll, goWheel, openGame, serverPlays } from './game.ts';

/**
 * Issue 31: the session's figures (history panel) are the player's protection, so a
 * reload at any moment of a round must leave them exact: the stakes of every play the
 * server sold, and the wins of every play whose result was revealed.
 */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
}

async function expectFigures(page: Page, staked: number, won: number): Promise<void> {
  await page.getByRole('button', { name: 'Historique' }).click();
  const line = page.locator('.session-line');
  await expect(line).toHaveAttribute('data-staked-cents', String(staked));
  await expect(line).toHaveAttribute('data-won-cents', String(won));
  await expect(line).toHaveAttribute('data-net-cents', String(won - staked));
  await expect(line).toContainText(euros(staked));
  await expect(line).toContainText(euros(Math.abs(won - staked)));
  await page.keyboard.press('Escape');
}

const stakes = (plays: Play[]) => plays.reduce((sum, p) => sum + p.stakeCents, 0);

test('the session figures stay exact after a reload at every phase of a round', async ({ page }) => {
  await openGame(page);
  await expectFigures(page, 0, 0);

  // Reloaded while « Jouer » is in flight: the server sells, the answer never arrives.
  await fixture(page, 'x20');
  await page.route('**/api/plays', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fetch();
    await route.abort('connectionreset');
  });
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await expect.poll(async () => (await serverPlays(page)).length).toBe(1);
  await page.unroute('**/api/plays');
  await reload(page);
  await expectPhase(page, 'ready');
  await expectFigures(page, 100, 0);

  // Bought, nothing launched.
  await reload(page);
  await expectFigures(page, 100, 0);

  // One wheel stopped, then two more turning.
  await goWheel(page, 1).click();
  await finishSpins(page);
  await reload(page);
  await expectFigures(page, 100, 0);
  await goWheel(page, 2).click();
  await goWheel(page, 3).click();
  await reload(page);
  await expectFigures(page, 100, 0);

  // All four stopped, the card up: the 20 € win counts.
  await goAll(page).click();
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  const [play] = await serverPlays(page);
  expect(play!.winCents).toBe(2_000);
  await reload(page);
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expectPhase(page, 'revealed');
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectFigures(page, 100, 2_000);

  // Back at an idle table, then a second (losing) round reloaded right after its reveal.
  await reload(page);
  await expectPhase(page, 'idle');
  await expectFigures(page, 100, 2_000);
  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  await reload(page);
  const plays = await serverPlays(page);
  expect(stakes(plays)).toBe(200);
  await page.evaluate(() => window.spincake!.advance(8_000));
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectFigures(page, 200, 2_000);
});

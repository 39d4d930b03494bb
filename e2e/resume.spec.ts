import { expect, test, type Page } from '@playwright/test';
import {
  balance,
  buy,
  euros,
  expectPhase,
  expectWheels,
  finishSpins,
  goAll,
  goWheel,
  lastPlay,
  openGame,
  revealAll,
  serverPlays,
} from './game.ts';

/** The page dies and comes back: same player (token kept), same unit, no second debit. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
}

async function expectOnePlayDebitedOnce(page: Page): Promise<void> {
  const plays = await serverPlays(page);
  expect(plays).toHaveLength(1);
  expect(plays[0]!.balanceBeforeCents).toBe(10_000);
}

test.describe('reloading mid-round resumes the same unit', () => {
  test('after « Jouer », before any GO', async ({ page }) => {
    await openGame(page);
    await buy(page);
    const play = await lastPlay(page);
    await reload(page);
    await expectPhase(page, 'ready');
    await expectWheels(page, 'standing,standing,standing,standing');
    await expect(balance(page)).toHaveText(euros(play.balanceBeforeCents - play.stakeCents));
    await goAll(page).click();
    await revealAll(page);
    await expect(page.getByRole('dialog')).toHaveAttribute('data-win-cents', String(play.winCents));
    await expectOnePlayDebitedOnce(page);
    expect((await lastPlay(page)).playId).toBe(play.playId);
  });

  test('after one wheel stopped: it shows its result, the others can still be launched', async ({ page }) => {
    await openGame(page);
    await buy(page);
    await goWheel(page, 1).click();
    await finishSpins(page);
    await expectWheels(page, 'stopped,standing,standing,standing');
    await expect.poll(async () => (await lastPlay(page)).launched).toEqual([true, false, false, false]);
    await reload(page);
    await expectPhase(page, 'spinning');
    await expectWheels(page, 'stopped,standing,standing,standing');
    await expect(goWheel(page, 1)).toBeDisabled();
    for (const w of [2, 3, 4]) await expect(goWheel(page, w)).toBeEnabled();
    await goWheel(page, 3).click();
    await goAll(page).click();
    await revealAll(page);
    await expectOnePlayDebitedOnce(page);
    await expect.poll(async () => (await lastPlay(page)).finished).toBe(true);
  });

  test('while wheels are still turning: launched wheels come back stopped on their result', async ({ page }) => {
    await openGame(page);
    await buy(page);
    await goWheel(page, 2).click();
    await goWheel(page, 3).click();
    await expectWheels(page, 'standing,spinning,spinning,standing');
    await expect.poll(async () => (await lastPlay(page)).launched).toEqual([false, true, true, false]);
    await reload(page);
    await expectWheels(page, 'standing,stopped,stopped,standing');
    await goAll(page).click();
    await revealAll(page);
    await expectOnePlayDebitedOnce(page);
  });

  test('after all four stopped but before the server heard « finish »: the result is shown again', async ({ page }) => {
    await openGame(page);
    await buy(page);
    // The finish report never arrives, as if the page died right at the end.
    await page.route('**/api/plays/*/finish', (route) => route.abort('connectionreset'));
    await goAll(page).click();
    await revealAll(page);
    const play = await lastPlay(page);
    expect(play.finished).toBe(false);
    await page.unroute('**/api/plays/*/finish');
    await reload(page);
    await expectPhase(page, 'revealed');
    await page.evaluate(() => window.spincake!.advance(8_000));
    await expect(page.getByRole('dialog')).toHaveAttribute('data-win-cents', String(play.winCents));
    await expect(balance(page)).toHaveText(euros(play.balanceAfterCents));
    await expect.poll(async () => (await lastPlay(page)).finished).toBe(true);
    await page.getByRole('button', { name: 'Nouvelle partie' }).click();
    await expectPhase(page, 'idle');
    await expectOnePlayDebitedOnce(page);
  });
});

import { expect, test, type Page } from '@playwright/test';
import { formatCount } from '../src/rules/money.ts';
import {
  balance,
  body,
  buy,
  euros,
  expectPhase,
  expectWheels,
  fixture,
  goAll,
  lastPlay,
  openGame,
  playButton,
  revealAll,
  serverPlays,
  stake,
} from './game.ts';

/** The row's own control (the row also holds « Vérifier ce ticket », a <button> of its own). */
const historyRow = (page: Page, playId: string) =>
  page.locator(`#history-panel li[data-play-id="${playId}"] > [role="button"]`);

const cursors = (page: Page) => page.evaluate(() => window.spincake!.cursors());

async function playRound(page: Page): Promise<void> {
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
}

async function openHistory(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Historique' }).click();
  await expect(page.getByRole('dialog', { name: 'Historique' })).toBeVisible();
}

test('a past play replayed on the wheels exactly as it fell, with no purchase (4.1)', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x7');
  await playRound(page);
  const won = await lastPlay(page);
  expect(won.winCents).toBe(700);
  await fixture(page, 'lose');
  await playRound(page);
  const before = await serverPlays(page);
  expect(before).toHaveLength(2);
  const balanceNow = before[0]!.balanceAfterCents;
  await expect(balance(page)).toHaveText(euros(balanceNow));
  const tableBefore = await cursors(page);
  expect(tableBefore).toEqual(before[0]!.wheels.map((w) => w.stop));

  // With the keyboard: the row itself is the control.
  await openHistory(page);
  const row = historyRow(page, won.playId);
  await expect(row).toHaveAccessibleDescription('Revoir cette partie sur les roues');
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Historique' })).toBeHidden();
  await expectPhase(page, 'replay');
  await expectWheels(page, 'spinning,spinning,spinning,spinning');
  await expect(playButton(page)).toBeDisabled();
  await expect(goAll(page)).toBeDisabled();
  await expect(stake(page, 2)).toBeDisabled();

  await page.evaluate(() => window.spincake!.finishSpins());
  await expectWheels(page, 'stopped,stopped,stopped,stopped');
  expect(await cursors(page)).toEqual(won.wheels.map((w) => w.stop));
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  const card = page.getByRole('dialog', { name: /Rediffusion/ });
  await expect(card).toHaveAttribute('data-replay', won.playId);
  await expect(card).toHaveAttribute('data-win-cents', '700');
  await expect(card.locator('.total-value')).toHaveText(euros(700));
  await expect(card.locator('[data-game=jeu2]')).toContainText(`${formatCount(won.jeu2.points)} points`);
  // Today's balance, not the past play's; nothing bought, nothing reported.
  await expect(balance(page)).toHaveText(euros(balanceNow));
  expect(await serverPlays(page)).toEqual(before);

  await card.getByRole('button', { name: 'Retour au jeu' }).click();
  await expectPhase(page, 'idle');
  await expect(body(page)).toHaveAttribute('data-overlay', 'hidden');
  await expect(playButton(page)).toBeEnabled();
  expect(await cursors(page)).toEqual(tableBefore);
  await expect(balance(page)).toHaveText(euros(balanceNow));

  // A click replays too, and a normal round still plays afterwards.
  await openHistory(page);
  await historyRow(page, before[0]!.playId).click();
  await expectPhase(page, 'replay');
  await page.evaluate(() => window.spincake!.finishSpins());
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(page.getByRole('dialog', { name: /Rediffusion/ })).toContainText('Ce ticket n’est pas gagnant.');
  await page.getByRole('button', { name: 'Retour au jeu' }).click();
  await playRound(page);
  expect(await serverPlays(page)).toHaveLength(3);
});

test('no replay during a live round', async ({ page }) => {
  await openGame(page);
  await playRound(page);
  const past = await lastPlay(page);
  await buy(page);
  await openHistory(page);
  await historyRow(page, past.playId).click();
  await expect(page.getByRole('dialog', { name: 'Historique' })).toBeVisible();
  await expectPhase(page, 'ready');
  await page.keyboard.press('Escape');
  await goAll(page).click();
  await revealAll(page);
  await expect(page.getByRole('dialog', { name: /Rediffusion/ })).toHaveCount(0);
});

test('the play just bought is in the history even if the page died mid-spin', async ({ page }) => {
  await openGame(page);
  await buy(page);
  await goAll(page).click();
  await expectWheels(page, 'spinning,spinning,spinning,spinning');
  // The server has heard the four GO (so the reload comes back to a finished spin).
  await expect.poll(async () => (await lastPlay(page)).launched).toEqual([true, true, true, true]);
  const play = await lastPlay(page);
  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(8_000));
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
  await openHistory(page);
  const row = page.locator(`#history-panel li[data-play-id="${play.playId}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Mise 1\u00a0€');
});

import { expect, test } from '@playwright/test';
import {
  balance,
  buy,
  euros,
  exhaust,
  goAll,
  lastPlay,
  openGame,
  playButton,
  revealAll,
  fixture,
  stake,
} from './game.ts';

test('the 20 000× jackpot unit is shown right', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x20000');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const play = await lastPlay(page);
  expect(play.winCents).toBe(2_000_000);
  const card = page.getByRole('dialog');
  await expect(card).toContainText('Gagné');
  await expect(card.locator('[data-game=jeu1]')).toContainText('4 cloches');
  await expect(card.locator('[data-game=jeu1]')).toContainText(euros(1_000_000));
  await expect(card.locator('[data-game=jeu2]')).toContainText('2\u00a0000 points');
  await expect(card.locator('.total-value')).toHaveText('20\u00a0000\u00a0€');
  await expect(balance(page)).toHaveText(euros(play.balanceAfterCents));
  await expect(page.getByRole('status')).toContainText('Gain total : 20\u00a0000\u00a0€');
});

test('a losing unit gets a kind message and no win', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const play = await lastPlay(page);
  expect(play.winCents).toBe(0);
  const card = page.getByRole('dialog');
  await expect(card).toContainText('Ce ticket n’est pas gagnant.');
  await expect(card.locator('.total-value')).toHaveCount(0);
  await expect(card.locator('[data-game=jeu1]')).toContainText('Pas de gain');
  await expect(card.locator('[data-game=jeu2]')).toContainText('Pas de gain');
  await expect(balance(page)).toHaveText(euros(10_000 - 100));
});

test('100× by bells at 2 €: JEU 1 wins, JEU 2 does not', async ({ page }) => {
  await openGame(page);
  await stake(page, 2).click();
  await fixture(page, 'x100-bells');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const card = page.getByRole('dialog');
  await expect(card.locator('[data-game=jeu1]')).toContainText('3 cloches');
  await expect(card.locator('.total-value')).toHaveText(euros(20_000));
  await expect(balance(page)).toHaveText(euros((await lastPlay(page)).balanceAfterCents));
});

test('a sold-out stake says so and cannot be bought; another stake still can', async ({ page }) => {
  await openGame(page);
  await exhaust(page, 500);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await stake(page, 5).click();
  await expect(page.getByRole('alert')).toContainText('Plus aucun ticket');
  await expect(playButton(page)).toBeDisabled();
  await stake(page, 1).click();
  await expect(playButton(page)).toBeEnabled();
});

import { expect, test } from '@playwright/test';
import { fr } from '../src/client/i18n/fr.ts';
import { body, buy, euros, expectPhase, fixture, goAll, lastPlay, openGame, revealAll, stake } from './game.ts';

/** What a player sees of a round's result, of the rules and of the history (issue 15). */

test('the card lists the four segments under the cursors, and folds to show the wheels', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x1');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const play = await lastPlay(page);
  const dialog = page.getByRole('dialog');
  // 1 € won on a 1 € stake: said honestly.
  await expect(dialog.getByRole('heading')).toHaveText('Mise remboursée');
  const segments = dialog.getByRole('list', { name: 'Sous les curseurs' }).getByRole('listitem');
  await expect(segments).toHaveCount(4);
  for (const [i, w] of play.wheels.entries()) {
    const s = w.segments[w.stop]!;
    await expect(segments.nth(i)).toHaveText(`Roue ${i + 1}${s.points} points${fr.symbols[s.symbol]}`);
  }
  await expect(dialog.locator('.total-value')).toHaveText(euros(play.winCents));

  await dialog.getByRole('button', { name: 'Voir les roues' }).click();
  await expect(dialog.getByRole('button', { name: 'Voir le résultat' })).toHaveAttribute('aria-pressed', 'true');
  await expect(segments.first()).toBeHidden();
  // Folded, the card stays below the wheels: none of the four is covered.
  const card = await dialog.boundingBox();
  const faces = await page.locator('.wheel-go').evaluateAll((gos) => gos.map((g) => g.getBoundingClientRect().top));
  for (const top of faces) expect(card!.y).toBeGreaterThanOrEqual(top - 1);
  await dialog.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
});

test('a win bigger than the stake is « Gagné ! »; a losing unit is not', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x2');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await expect(page.getByRole('dialog').getByRole('heading')).toHaveText('Gagné !');
  await page.keyboard.press('Escape');
  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await expect(page.getByRole('dialog').getByRole('heading')).toHaveText(fr.lostTitle);
});

test('a reload brings back the last result and the stake picked', async ({ page }) => {
  await openGame(page);
  await stake(page, 3).click();
  await fixture(page, 'x7');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const play = await lastPlay(page);
  expect(play.stakeCents).toBe(300);

  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expectPhase(page, 'revealed');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.total-value')).toHaveText(euros(play.winCents));
  expect(await page.evaluate(() => window.spincake!.cursors())).toEqual(play.wheels.map((w) => w.stop));
  await expect(page.locator('[aria-live="polite"] p').first()).toHaveText(fr.lastResultNotice);
  await dialog.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
  await expect(stake(page, 3)).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await expectPhase(page, 'idle');
  await expect(stake(page, 3)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

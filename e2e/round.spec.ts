import { expect, test, type Page } from '@playwright/test';
import { formatCount } from '../src/rules/money.ts';
import type { Play } from '../src/contract/api.ts';
import {
  balance,
  body,
  buy,
  euros,
  expectPhase,
  expectWheels,
  finishSpins,
  goAll,
  goWheel,
  lastPlay,
  openGame,
  playButton,
  revealAll,
  serverPlays,
} from './game.ts';

const START_CENTS = 10_000;

/** The card and the balance say exactly what the server recorded for this play. */
async function expectCardMatchesServer(page: Page, play: Play): Promise<void> {
  const card = page.getByRole('dialog');
  await expect(card).toHaveAttribute('data-win-cents', String(play.winCents));
  const jeu1 = card.locator('[data-game=jeu1]');
  const jeu2 = card.locator('[data-game=jeu2]');
  await expect(jeu1).toContainText(play.jeu1.bells === 0 ? 'Aucune cloche' : `${play.jeu1.bells} cloche`);
  await expect(jeu1).toContainText(play.jeu1.winCents > 0 ? euros(play.jeu1.winCents) : 'Pas de gain');
  await expect(jeu2).toContainText(`${formatCount(play.jeu2.points)} points`);
  await expect(jeu2).toContainText(play.jeu2.winCents > 0 ? euros(play.jeu2.winCents) : 'Pas de gain');
  if (play.winCents > 0) await expect(card.locator('.total-value')).toHaveText(euros(play.winCents));
  else await expect(card).toContainText('Ce ticket n’est pas gagnant.');
  await expect(balance(page)).toHaveText(euros(play.balanceAfterCents));
}

async function expectServerLaunched(page: Page, launched: boolean[], finished = false): Promise<void> {
  await expect
    .poll(async () => {
      const play = await lastPlay(page);
      return { launched: play.launched, finished: play.finished };
    })
    .toEqual({ launched, finished });
}

test.describe('a round, in the three launch modes of 4.4', () => {
  test('all four wheels with the common GO', async ({ page }) => {
    await openGame(page);
    await expect(balance(page)).toHaveText(euros(START_CENTS));
    await expect(goAll(page)).toBeDisabled();
    await expect(goWheel(page, 1)).toBeDisabled();
    await buy(page);
    await expect(balance(page)).toHaveText(euros(START_CENTS - 100));
    await expect(playButton(page)).toBeDisabled();
    await goAll(page).click();
    await expectWheels(page, 'spinning,spinning,spinning,spinning');
    for (const w of [1, 2, 3, 4]) await expect(goWheel(page, w)).toBeDisabled();
    await expect(goAll(page)).toBeDisabled();
    await revealAll(page);
    const play = await lastPlay(page);
    await expectCardMatchesServer(page, play);
    await expectServerLaunched(page, [true, true, true, true], true);
    await page.getByRole('button', { name: 'Nouvelle partie' }).click();
    await expectPhase(page, 'idle');
    await expect(playButton(page)).toBeEnabled();
  });

  test('each wheel with its own GO, in any order, each once', async ({ page }) => {
    await openGame(page);
    await buy(page);
    const order = [3, 1, 4, 2];
    const launched = [false, false, false, false];
    for (const w of order) {
      await goWheel(page, w).click();
      launched[w - 1] = true;
      await expect(goWheel(page, w)).toBeDisabled();
      await finishSpins(page);
      await expect(body(page)).toHaveAttribute(
        'data-wheels',
        launched.map((l) => (l ? 'stopped' : 'standing')).join(','),
      );
      for (let other = 1; other <= 4; other++) {
        if (!launched[other - 1]) await expect(goWheel(page, other)).toBeEnabled();
      }
      if (launched.includes(false)) await expectServerLaunched(page, launched);
    }
    await revealAll(page);
    await expectCardMatchesServer(page, await lastPlay(page));
  });

  test('some wheels with their own GO, then the rest with the common GO', async ({ page }) => {
    await openGame(page);
    await buy(page);
    await goWheel(page, 2).click();
    await goWheel(page, 4).click();
    await expectWheels(page, 'standing,spinning,standing,spinning');
    await goAll(page).click();
    await expectWheels(page, 'spinning,spinning,spinning,spinning');
    await revealAll(page);
    await expectCardMatchesServer(page, await lastPlay(page));
  });

  test('nothing can be launched outside a round', async ({ page }) => {
    await openGame(page);
    for (const w of [1, 2, 3, 4]) await expect(goWheel(page, w)).toBeDisabled();
    await expect(goAll(page)).toBeDisabled();
    await goAll(page).click({ force: true });
    await expectPhase(page, 'idle');
    expect(await serverPlays(page)).toHaveLength(0);
  });
});

import { expect, test } from '@playwright/test';
import {
  body,
  buy,
  expectPhase,
  finishSpins,
  goAll,
  openGame,
  playRoundToIdle,
  revealAll,
  setBalance,
  stake,
} from './game.ts';

/**
 * Issue 31: a history replay is marked as one on the table and on its card, with
 * « Revoir »; the responsible-gaming line stays in view over the card, folded or not;
 * a remembered stake the balance cannot pay says it was lowered.
 */
test('a replay is said on the table and its card, and « Revoir » plays it again', async ({ page }) => {
  await openGame(page);
  await playRoundToIdle(page);
  await page.getByRole('button', { name: 'Historique' }).click();
  await page.locator('ol.history li [role=button]').first().click();
  await expectPhase(page, 'replay');
  await expect(page.getByRole('alert')).toContainText('Rediffusion');
  await finishSpins(page);
  await page.evaluate(() => window.spincake!.advance(8_000));
  const card = page.getByRole('dialog');
  await expect(card.locator('.result-replay')).toBeVisible();
  const again = card.getByRole('button', { name: 'Revoir' });
  await expect(again).toBeVisible();
  await again.click();
  await expect(body(page)).toHaveAttribute('data-wheels', 'spinning,spinning,spinning,spinning');
  await finishSpins(page);
  await page.evaluate(() => window.spincake!.advance(8_000));
  await card.getByRole('button', { name: 'Retour au jeu' }).click();
  await expectPhase(page, 'idle');
});

test('the 18+ line stays in view over the result card, folded or not', async ({ page }) => {
  await openGame(page);
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const line = (await page.locator('footer.responsible').boundingBox())!;
  // Nothing of the card's layer (its dimming, the card) over the line.
  const covered = async () => {
    for (const layer of [page.locator('.result-layer'), page.getByRole('dialog')]) {
      const box = (await layer.boundingBox())!;
      if (box.y + box.height > line.y + 0.5) return true;
    }
    return false;
  };
  expect(await covered()).toBe(false);
  await page.getByRole('button', { name: 'Voir les roues' }).click();
  expect(await covered()).toBe(false);
});

test('a remembered 5 € stake on a 3,50 € balance says « Mise ajustée à 3 € »', async ({ page }) => {
  await openGame(page);
  await stake(page, 5).click();
  await setBalance(page, 350);
  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await expect(stake(page, 3)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('alert')).toContainText('Mise ajustée à 3');
});

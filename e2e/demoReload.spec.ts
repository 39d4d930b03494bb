import { expect, test } from '@playwright/test';
import {
  balance,
  buy,
  euros,
  expectPhase,
  fixture,
  openGame,
  playButton,
  playRoundToIdle,
  serverPlays,
  setBalance,
} from './game.ts';

const reloadButton = (page: import('@playwright/test').Page) =>
  page.getByRole('button', { name: 'Recharger la démo', exact: true });

test('a demo player who spends down to 0 € reloads the demo and plays again', async ({ page }) => {
  await openGame(page);
  await setBalance(page, 100);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
  await expect(balance(page)).toHaveText(euros(100));
  // Money left: nothing to reload.
  await expect(reloadButton(page)).toBeHidden();

  await fixture(page, 'lose');
  await playRoundToIdle(page);
  await expect(balance(page)).toHaveText(euros(0));
  await expect(playButton(page)).toBeDisabled();
  await expect(page.getByRole('alert')).toHaveText(
    `Votre solde (${euros(0)}) est insuffisant pour jouer : la plus petite mise est de ${euros(100)}.`,
  );
  await expect(reloadButton(page)).toBeVisible();

  await reloadButton(page).click();
  await expect(balance(page)).toHaveText(euros(10_000));
  await expect(page.getByRole('alert')).toHaveText(
    `Démo rechargée : votre solde de démonstration est de ${euros(10_000)}.`,
  );
  await expect(reloadButton(page)).toBeHidden();
  await expect(playButton(page)).toBeEnabled();
  await buy(page);
  await expectPhase(page, 'ready');
  await expect(balance(page)).toHaveText(euros(9_900));
  expect(await serverPlays(page)).toHaveLength(2);
});

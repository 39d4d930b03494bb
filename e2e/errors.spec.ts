import { expect, test } from '@playwright/test';
import {
  balance,
  buy,
  euros,
  expectPhase,
  goAll,
  lastPlay,
  openGame,
  playButton,
  revealAll,
  serverPlays,
  setBalance,
  setSales,
  stake,
} from './game.ts';

test('a balance below a stake: that stake is off; below every stake: said so, nothing bought', async ({ page }) => {
  await openGame(page);
  await setBalance(page, 250);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(balance(page)).toHaveText(euros(250));
  await expect(stake(page, 3)).toBeDisabled();
  await expect(stake(page, 5)).toBeDisabled();
  await expect(stake(page, 1)).toBeEnabled();
  await stake(page, 2).click();
  await expect(page.getByRole('alert')).toBeHidden();
  await buy(page);
  await expect(balance(page)).toHaveText(euros(50));
  await goAll(page).click();
  await revealAll(page);
  await page.keyboard.press('Escape');
  await expectPhase(page, 'idle');
  await setBalance(page, 50);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByRole('alert')).toHaveText(
    `Votre solde (${euros(50)}) est insuffisant pour jouer : la plus petite mise est de ${euros(100)}.`,
  );
  await expect(playButton(page)).toBeDisabled();
  for (const e of [1, 2, 3, 5]) await expect(stake(page, e)).toBeDisabled();
  // Not framed by a portal: no deposit page to offer.
  await expect(page.getByRole('button', { name: 'Alimenter mon compte' })).toBeHidden();
  expect(await serverPlays(page)).toHaveLength(1);
});

test('« Jouer » whose answer is lost is retried with the same playId: one debit', async ({ page }) => {
  await openGame(page);
  const sent: string[] = [];
  let dropped = false;
  await page.route('**/api/plays', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    sent.push((route.request().postDataJSON() as { playId: string }).playId);
    if (dropped) return route.fallback();
    // The server takes the play and debits; the answer never reaches the page.
    dropped = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await buy(page);
  expect(sent.length).toBeGreaterThanOrEqual(2);
  expect(new Set(sent).size).toBe(1);
  const plays = await serverPlays(page);
  expect(plays).toHaveLength(1);
  expect(plays[0]!.playId).toBe(sent[0]);
  await expect(balance(page)).toHaveText(euros(10_000 - 100));
  await goAll(page).click();
  await revealAll(page);
  await expect(balance(page)).toHaveText(euros(plays[0]!.balanceAfterCents));
});

test('network down during « Jouer »: a message, and the next press resends the same purchase', async ({ page }) => {
  await openGame(page);
  const sent: string[] = [];
  const blackhole = async (route: import('@playwright/test').Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    sent.push((route.request().postDataJSON() as { playId: string }).playId);
    await route.abort('internetdisconnected');
  };
  await page.route('**/api/plays', blackhole);
  await playButton(page).click();
  await expect(page.getByRole('alert')).toContainText('Connexion impossible');
  await expectPhase(page, 'idle');
  await expect(stake(page, 2)).toBeDisabled();
  expect(await serverPlays(page)).toHaveLength(0);
  await page.unroute('**/api/plays', blackhole);
  await page.route('**/api/plays', async (route) => {
    if (route.request().method() === 'POST') sent.push((route.request().postDataJSON() as { playId: string }).playId);
    await route.fallback();
  });
  // The button says what it does now: it resends that purchase (unless the page's own
  // resend, after its pause, got there first: the same purchase either way).
  const resume = page.getByRole('button', { name: `Reprendre l’achat de ${euros(100)}` });
  await expect(async () => {
    if (await resume.isEnabled().catch(() => false)) await resume.click({ timeout: 1_000 });
    await expectPhase(page, 'ready');
  }).toPass();
  expect(new Set(sent).size).toBe(1);
  const play = await lastPlay(page);
  expect(play.playId).toBe(sent[0]);
  expect(await serverPlays(page)).toHaveLength(1);
});

test('sales closed: the message says why, « Jouer » is off, history and rules stay open', async ({ page }) => {
  await openGame(page);
  try {
    await setSales(page, false, 'Ventes suspendues pour maintenance.');
    await page.reload();
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByRole('alert')).toContainText('Ventes suspendues pour maintenance.');
    await expect(playButton(page)).toBeDisabled();
    await page.getByRole('button', { name: 'Règlement' }).click();
    await expect(page.getByRole('dialog', { name: 'Règlement' })).toContainText('1 sur 3,98');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Historique' }).click();
    await expect(page.getByRole('dialog', { name: 'Historique' })).toContainText('Aucune partie');
  } finally {
    await setSales(page, true);
  }
});

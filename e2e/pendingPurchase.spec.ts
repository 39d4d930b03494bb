import { expect, test } from '@playwright/test';
import {
  balance,
  body,
  buy,
  euros,
  expectPhase,
  finishSpins,
  goAll,
  lastPlay,
  openGame,
  playButton,
  serverPlays,
  stake,
} from './game.ts';

/**
 * Issue 31: a purchase whose answer was lost (the server debited, every try failed) is
 * shown as pending, says what the button will do, and is sent again by itself when the
 * network comes back; a round played offline comes back after a reload with its result.
 */

test('a purchase whose answer was lost is pending, then resent by itself when the network returns', async ({
  page,
}) => {
  await openGame(page);
  const sent: string[] = [];
  let answersLost = true;
  await page.route('**/api/plays', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    sent.push((route.request().postDataJSON() as { playId: string }).playId);
    if (!answersLost) return route.fallback();
    // The server sells and debits; its answer never reaches the page.
    await route.fetch();
    await route.abort('connectionreset');
  });
  await playButton(page).click();
  await expect(page.getByRole('alert')).toContainText('Achat en attente — reprise…');
  await expectPhase(page, 'idle');
  // The stake held for that purchase, and why; the button resends it and says so.
  await expect(balance(page)).toHaveText(euros(10_000 - 100));
  await expect(page.locator('.balance-pending')).toBeVisible();
  await expect(stake(page, 2)).toBeDisabled();
  const resume = page.getByRole('button', { name: `Reprendre l’achat de ${euros(100)}` });
  await expect(resume).toBeEnabled();
  await expect(playButton(page)).toHaveCount(0);

  answersLost = false;
  await page.context().setOffline(true);
  await page.context().setOffline(false);
  // Nothing pressed: the network's return resends the same purchase.
  await expectPhase(page, 'ready');
  await expect(page.getByRole('alert')).toBeHidden();
  await expect(page.locator('.balance-pending')).toBeHidden();
  await expect(playButton(page)).toBeVisible();
  expect(new Set(sent).size).toBe(1);
  const plays = await serverPlays(page);
  expect(plays).toHaveLength(1);
  expect(plays[0]!.playId).toBe(sent[0]);
});

test('after a round played offline and a reload, the ticket comes back with its result, said as resumed', async ({
  page,
}) => {
  await openGame(page);
  await buy(page);
  // The network goes: none of the round's reports reach the server.
  const reports = { progress: 0, finish: 0 };
  await page.route('**/api/plays/*/*', async (route) => {
    const kind = route.request().url().split('/').at(-1) as keyof typeof reports;
    if (kind !== 'progress' && kind !== 'finish') return route.fallback();
    reports[kind]++;
    await route.abort('internetdisconnected');
  });
  await goAll(page).click();
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  // Every retry of both reports spent: the server still has the ticket unlaunched.
  await expect.poll(() => reports.finish, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
  const play = await lastPlay(page);
  expect(play.launched).toEqual([false, false, false, false]);
  await page.unroute('**/api/plays/*/*');

  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
  // Its wheels on their stops and its result: not standing, waiting for GO again.
  await expectPhase(page, 'revealed');
  expect(await page.evaluate(() => window.spincake!.cursors())).toEqual(play.wheels.map((w) => w.stop));
  await page.evaluate(() => window.spincake!.advance(8_000));
  const card = page.getByRole('dialog');
  await expect(card).toHaveAttribute('data-win-cents', String(play.winCents));
  await expect(card.locator('.result-resumed')).toHaveText('Partie reprise');
  await expect(card.locator('.result-resumed')).toBeVisible();
  // The server learns what it missed.
  await expect.poll(async () => (await lastPlay(page)).finished).toBe(true);
  expect((await lastPlay(page)).launched).toEqual([true, true, true, true]);
  expect(await serverPlays(page)).toHaveLength(1);
});

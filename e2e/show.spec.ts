import { expect, test, type Page } from '@playwright/test';
import type { PairKey } from '../src/rules/tables.ts';
import { fr } from '../src/client/i18n/fr.ts';
import {
  balance,
  body,
  buy,
  euros,
  expectPhase,
  finishSpins,
  fixture,
  goAll,
  goWheel,
  lastPlay,
  openGame,
} from './game.ts';

/** The show (issue 30): the tally as wheels stop, the lit segments, the tiers, the balance after the card. */

/** Buys a unit of `pair`, lands its four wheels, and runs the clock past the card's beat. */
async function landAll(page: Page, pair: PairKey): Promise<void> {
  await fixture(page, pair);
  await buy(page);
  await goAll(page).click();
  await finishSpins(page);
  await page.evaluate(() => window.spincake!.advance(700));
}

/** Runs the result to its end and starts over. */
async function nextRound(page: Page): Promise<void> {
  await page.evaluate(() => window.spincake!.advance(12_000));
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
}

test('tallies the wheels as they stop, over the table, and clears it for the next round', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x100-bells');
  await buy(page);
  const play = await lastPlay(page);
  const tally = page.locator('.live-tally');
  await expect(tally).toBeHidden();
  await goWheel(page, 2).click();
  await finishSpins(page);
  const second = play.wheels[1]!.segments[play.wheels[1]!.stop]!;
  await expect(tally).toHaveText(fr.liveTally(second.symbol === 'bell' ? 1 : 0, second.points));
  await goAll(page).click();
  await finishSpins(page);
  await expect(tally).toHaveText(fr.liveTally(play.jeu1.bells, play.jeu2.points));
  await page.evaluate(() => window.spincake!.advance(16_000));
  // The card says it all: the tally would only peek out from under its edge. Folded, it shows with the wheels.
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(tally).toBeHidden();
  await page.getByRole('button', { name: 'Voir les roues' }).click();
  await expect(tally).toBeVisible();
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expect(tally).toBeHidden();
});

test('lights the winning segment itself: its light turns with the wheel onto the segment under the cursor', async ({
  page,
}) => {
  await openGame(page, '&renderer=canvas');
  await fixture(page, 'x100-bells');
  await buy(page);
  await goAll(page).click();
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  const play = await lastPlay(page);
  const turns = await page.evaluate(() =>
    [...document.querySelectorAll('.wheel-layers')].map((stand) => {
      const rad = (part: string) => {
        const canvas = stand.querySelector<HTMLCanvasElement>(`.wheel-${part}`)!;
        const m = /rotate\(([-\d.e]+)rad\)/.exec(canvas.style.transform);
        return { rad: m ? Number(m[1]) : 0, shown: canvas.style.visibility !== 'hidden' };
      };
      return { face: rad('face'), glow: rad('glow'), symbol: rad('symbol') };
    }),
  );
  play.wheels.forEach((w, i) => {
    const lit = w.segments[w.stop]!.symbol === 'bell';
    const t = turns[i]!;
    expect(t.glow.shown, `wheel ${i + 1}`).toBe(lit);
    if (!lit) return;
    // The light sits on segment `stop` of the face (i × 60° clockwise on it), wherever the face turned.
    const offset = (((t.glow.rad - t.face.rad - (w.stop * Math.PI) / 3) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    expect(Math.min(offset, 2 * Math.PI - offset)).toBeLessThan(1e-4);
    expect(t.symbol.shown).toBe(true);
  });
});

test('a big lot takes the screen first, a tap ends it, and the balance counts up with the card, never before', async ({
  page,
}) => {
  await openGame(page);
  await fixture(page, 'x100-points');
  await buy(page);
  const play = await lastPlay(page);
  const before = euros(play.balanceBeforeCents - play.stakeCents);
  await expect(balance(page)).toHaveText(before);
  await goAll(page).click();
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(1_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'takeover');
  const takeover = page.locator('.takeover');
  await expect(takeover).toContainText(fr.takeoverTitle.big);
  await expect(balance(page)).toHaveText(before);
  await takeover.click();
  await expect(takeover).toHaveCount(0);
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(balance(page)).toHaveText(before);
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  await expect(balance(page)).toHaveText(euros(play.balanceAfterCents));
});

test('each tier above small has a takeover of its own, longer at each tier', async ({ page }) => {
  await openGame(page);
  const lengths: number[] = [];
  for (const [pair, title] of [
    ['x100-bells', fr.takeoverTitle.big],
    ['x1000', fr.takeoverTitle.mega],
    ['x20000', fr.takeoverTitle.jackpot],
  ] as const) {
    await landAll(page, pair);
    await expect(page.locator('.takeover')).toContainText(title);
    let ms = 0;
    while ((await page.locator('.takeover').count()) > 0) {
      await page.evaluate(() => window.spincake!.advance(100));
      ms += 100;
    }
    lengths.push(ms);
    await nextRound(page);
  }
  expect(lengths[1]).toBeGreaterThan(lengths[0]!);
  expect(lengths[2]).toBeGreaterThan(lengths[1]!);
});

test('the stake back is quiet, a loss is said plainly, and neither takes the screen', async ({ page }) => {
  await openGame(page);
  for (const [pair, title, text] of [
    ['x1', fr.refundTitle, null],
    ['lose', fr.lostTitle, fr.lostMessage],
  ] as const) {
    await landAll(page, pair);
    await expect(page.locator('.takeover')).toHaveCount(0);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toHaveText(title);
    if (text) await expect(dialog).toContainText(text);
    await nextRound(page);
  }
  expect(fr.lostMessage).toBe('Ce ticket n’est pas gagnant.');
});

test('an idle table asks for no animation frame at all', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { rafCalls: number };
    w.rafCalls = 0;
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (cb) => {
      w.rafCalls++;
      return raf(cb);
    };
  });
  await page.goto('/');
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  // GSAP's ticker goes to sleep at its next check (every 120 frames) once nothing listens:
  // then a whole second passes without a frame asked for.
  const calls = () => page.evaluate(() => (window as unknown as { rafCalls: number }).rafCalls);
  await expect
    .poll(
      async () => {
        const start = await calls();
        await page.waitForTimeout(1_000);
        return (await calls()) - start;
      },
      { timeout: 30_000, intervals: [0] },
    )
    .toBe(0);
});

import type { Page } from '@playwright/test';
import type { PairKey } from '../../src/rules/tables.ts';
import {
  body,
  buy,
  exhaust,
  expectPhase,
  expectWheels,
  goAll,
  goWheel,
  playButton,
  revealAll,
  setBalance,
  setSales,
  stake,
} from '../game.ts';
import { expect, expectPicture, FROZEN_SERVER_TIME, idleWithStake, openTable, seededFixture, test } from './visual.ts';

/**
 * One picture per state of the table, in every project (desktop 1280×720, mobile
 * portrait 390×844 at DPR 3, mobile landscape 844×390). Each state starts from a fixed
 * unit (a server fixture with a fixed seed) and the game's test clock frozen, so the
 * only thing that can change a picture is a change to the game.
 */

test('loading screen', async ({ page }) => {
  // The session never answers: the page stays on its loading screen, at its last step.
  await page.route('**/api/session', () => {});
  const sessionAsked = page.waitForRequest('**/api/session');
  await page.goto('/?test=1&seed=7&renderer=canvas');
  // Everything before the session is done by then: the bar stands at its last step.
  await sessionAsked;
  await expect(page.locator('#loading')).toBeVisible();
  await expectPicture(page, 'loading');
});

for (const euros of [1, 2, 3, 5]) {
  test(`idle table, stake ${euros} €`, async ({ page }) => {
    await idleWithStake(page, euros);
    await expectPicture(page, `idle-stake-${euros}`);
  });
}

test('unit shown before any spin', async ({ page }) => {
  await openTable(page);
  await seededFixture(page, 'x7');
  await buy(page);
  await expectWheels(page, 'standing,standing,standing,standing');
  await expectPicture(page, 'unit-shown');
});

test('frozen mid-spin frame', async ({ page }) => {
  await openTable(page);
  await seededFixture(page, 'x7');
  await buy(page);
  await goAll(page).click();
  await expectWheels(page, 'spinning,spinning,spinning,spinning');
  await page.evaluate(() => window.spincake!.advance(1_500));
  await expectPicture(page, 'mid-spin');
});

test('one wheel stopped, three standing', async ({ page }) => {
  await openTable(page);
  await seededFixture(page, 'x7');
  await buy(page);
  await goWheel(page, 2).click();
  await page.evaluate(() => window.spincake!.finishSpins());
  await expectWheels(page, 'standing,stopped,standing,standing');
  await expectPicture(page, 'one-stopped');
});

const overlays: PairKey[] = [
  'lose',
  'x1',
  'x7',
  'x10-points',
  'x10-bells',
  'x100-bells',
  'x100-points',
  'x1000',
  'x20000',
];
/** The result card of a fixed unit that gives `pair`, every wheel stopped and the card revealed. */
async function showResult(page: Page, pair: PairKey): Promise<void> {
  await openTable(page);
  await seededFixture(page, pair);
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
}

for (const pair of overlays) {
  test(`result overlay, ${pair}`, async ({ page }) => {
    await showResult(page, pair);
    await expectPicture(page, `overlay-${pair}`);
  });
}

/** Issue 30: the wheels just stopped (tally, lit segments), and each big tier's takeover mid-way. */
test('live tally and lit segments, the wheels just stopped', async ({ page }) => {
  await openTable(page);
  await seededFixture(page, 'x100-bells');
  await buy(page);
  await goAll(page).click();
  await page.evaluate(() => window.spincake!.finishSpins());
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(300));
  await expectPicture(page, 'tally-lit');
});

for (const [pair, tier] of [
  ['x100-points', 'big'],
  ['x1000', 'mega'],
  ['x20000', 'jackpot'],
] as const) {
  test(`takeover, ${tier}`, async ({ page }) => {
    await openTable(page);
    await seededFixture(page, pair);
    await buy(page);
    await goAll(page).click();
    await page.evaluate(() => window.spincake!.finishSpins());
    await expectPhase(page, 'revealed');
    // Past the card's beat and the takeover's count-up, before it fades.
    await page.evaluate(() => window.spincake!.advance(2_600));
    await expect(body(page)).toHaveAttribute('data-overlay', 'takeover');
    await expectPicture(page, `takeover-${tier}`);
  });
}

test('result folded below the four stopped wheels', async ({ page }) => {
  await showResult(page, 'x7');
  await page.getByRole('button', { name: 'Voir les roues' }).click();
  await expect(page.getByRole('button', { name: 'Voir le résultat' })).toBeVisible();
  await expectPicture(page, 'overlay-folded');
});

/** A table whose balance (0,50 €) is below every stake, its message shown. */
async function showInsufficientBalance(page: Page): Promise<void> {
  await openTable(page);
  await setBalance(page, 50);
  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
  await expect(page.getByRole('alert')).toContainText('est insuffisant pour jouer');
}

test('insufficient balance', async ({ page }) => {
  await showInsufficientBalance(page);
  await expect(playButton(page)).toBeDisabled();
  await expectPhase(page, 'idle');
  await expectPicture(page, 'insufficient-balance');
});

test('network error during « Jouer »', async ({ page }) => {
  await openTable(page);
  await page.route('**/api/plays', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await playButton(page).click();
  await expect(page.getByRole('alert')).toContainText('Connexion impossible');
  await expectPhase(page, 'idle');
  await expectPicture(page, 'network-error');
});

test('history panel', async ({ page, server }) => {
  await openTable(page);
  for (const [pair, time] of [
    ['x7', '2026-06-21T16:30:00Z'],
    ['lose', '2026-06-21T16:31:00Z'],
  ] as const) {
    server.context.clock = () => new Date(time);
    await seededFixture(page, pair);
    await buy(page);
    await goAll(page).click();
    await revealAll(page);
    await page.getByRole('button', { name: 'Nouvelle partie' }).click();
    await expectPhase(page, 'idle');
  }
  await page.getByRole('button', { name: 'Historique' }).click();
  await expect(page.locator('#history-panel li')).toHaveCount(2);
  await expect(page.locator('#history-panel .log-head')).toHaveAttribute('data-tree-size', /^\d+$/);
  // The ticket references are the plays' ids, and the log's hash covers its entries' times,
  // new on every run: masked, the rest compared.
  await expectPicture(page, 'history', { mask: [page.locator('.history-ref'), page.locator('.log-head')] });
});

test('rules panel', async ({ page }) => {
  await openTable(page);
  await page.getByRole('button', { name: 'Règlement' }).click();
  await expect(page.getByRole('dialog', { name: 'Règlement' })).toContainText('1 sur 3,98');
  await expectPicture(page, 'rules');
});

test('sound muted', async ({ page }) => {
  await openTable(page);
  await page.getByRole('button', { name: 'Couper le son' }).click();
  await expect(page.getByRole('button', { name: 'Remettre le son' })).toHaveAttribute('aria-pressed', 'true');
  await expectPicture(page, 'muted');
});

test('quick spin on', async ({ page }) => {
  await openTable(page);
  await page.getByRole('switch', { name: 'Rotation rapide' }).click();
  await expect(page.getByRole('switch', { name: 'Rotation rapide' })).toHaveAttribute('aria-checked', 'true');
  await expectPicture(page, 'quick-spin-on');
});

test.describe('a large desktop screen, 1920×1080', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });
  // The layout scales up only in desktop mode: a phone's viewport is its own projects' business.
  test.skip(({ isMobile }) => isMobile, 'phones have their own viewports (mobile-portrait, mobile-landscape)');

  test('idle table', async ({ page }) => {
    await idleWithStake(page, 2);
    await expectPicture(page, 'large-idle');
  });

  test('result card', async ({ page }) => {
    await showResult(page, 'x7');
    await expectPicture(page, 'large-overlay-x7');
  });

  test('a message over the bar', async ({ page }) => {
    await showInsufficientBalance(page);
    await expectPicture(page, 'large-insufficient-balance');
  });
});

test.describe('a small phone, 320×568', () => {
  test.use({ viewport: { width: 320, height: 568 } });
  // One phone picture is enough: the portrait project's touch emulation at 320 px wide.
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'mobile-portrait', 'a portrait phone only (mobile-portrait)');
  });

  test('idle table', async ({ page }) => {
    await idleWithStake(page, 2);
    await expectPicture(page, 'small-idle');
  });

  test('unit shown before any spin', async ({ page }) => {
    await openTable(page);
    await seededFixture(page, 'x7');
    await buy(page);
    await expectPicture(page, 'small-unit-shown');
  });

  test('result card', async ({ page }) => {
    await showResult(page, 'x7');
    await expectPicture(page, 'small-overlay-x7');
  });
});

test.describe('on a server of their own', () => {
  test.use({ privateServer: true });

  test('sales closed', async ({ page }) => {
    // The page's calendar stands with the server's, inside the configured window.
    await page.clock.setFixedTime(FROZEN_SERVER_TIME);
    await openTable(page);
    await setSales(page, false, 'Ventes suspendues pour maintenance.', {
      opensAt: '2026-06-01T09:00:00+02:00',
      closesAt: '2026-09-30T20:00:00+02:00',
    });
    await page.reload();
    await expect(body(page)).toHaveAttribute('data-ready', 'true');
    await page.evaluate(() => window.spincake!.freeze());
    await expect(page.getByRole('alert')).toContainText('Ventes suspendues pour maintenance.');
    await expect(page.getByRole('alert')).toContainText('du 1 juin 2026 à 09:00 au 30 septembre 2026 à 20:00');
    await expect(playButton(page)).toBeDisabled();
    await expectPicture(page, 'sales-closed');
  });

  test('sold out', async ({ page }) => {
    await openTable(page);
    await exhaust(page, 500);
    await page.reload();
    await expect(body(page)).toHaveAttribute('data-ready', 'true');
    await page.evaluate(() => window.spincake!.freeze());
    await stake(page, 5).click();
    await expect(page.getByRole('alert')).toContainText('Plus aucun ticket');
    await expect(playButton(page)).toBeDisabled();
    await expectPicture(page, 'sold-out');
  });
});

import { expect, test } from '@playwright/test';
import { buy, expectPhase, goAll, goWheel, openGame, playButton, revealAll, stake } from './game.ts';

/**
 * Runs in every project (desktop, mobile portrait, mobile landscape): the table fits,
 * every control can be tapped, a whole round plays, and the main states are kept as
 * screenshots in the report for a look by eye (the visual-regression baselines are
 * a separate suite).
 */
test('the table fits the screen, controls are big enough, and a round plays', async ({ page }, info) => {
  await openGame(page);
  const viewport = page.viewportSize()!;
  const controls = [
    playButton(page),
    goAll(page),
    ...[1, 2, 3, 4].map((w) => goWheel(page, w)),
    ...[1, 2, 3, 5].map((e) => stake(page, e)),
    page.getByRole('button', { name: 'Couper le son' }),
    page.getByRole('button', { name: 'Historique' }),
    page.getByRole('button', { name: 'Règlement' }),
  ];
  for (const control of controls) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
    if (info.project.name !== 'desktop') expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  }
  const shot = async (name: string) => info.attach(name, { body: await page.screenshot(), contentType: 'image/png' });
  await shot('idle');
  await buy(page);
  await shot('unit shown');
  await goWheel(page, 1)
    .tap()
    .catch(() => goWheel(page, 1).click());
  await page.evaluate(() => window.spincake!.advance(1_500));
  await shot('mid-spin');
  await goAll(page).click();
  await revealAll(page);
  await shot('result');
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
});

test('the table is laid out again when the window changes shape', async ({ page }) => {
  await openGame(page);
  const { width, height } = page.viewportSize()!;
  const before = await goWheel(page, 4).boundingBox();
  await page.setViewportSize({ width: height, height: width });
  await expect.poll(async () => (await goWheel(page, 4).boundingBox())?.y).not.toBe(before!.y);
  const after = (await goWheel(page, 4).boundingBox())!;
  expect(after.x + after.width).toBeLessThanOrEqual(height + 0.5);
  expect(after.y + after.height).toBeLessThanOrEqual(width + 0.5);
});

import { expect, test, type Page } from '@playwright/test';
import { boxOnScreen, buy, expectPhase, goAll, goWheel, openGame, playButton, revealAll, stake } from './game.ts';

/**
 * Runs in every project (desktop, mobile portrait, mobile landscape): the table fits,
 * every control can be tapped, a whole round plays, and the main states are kept as
 * screenshots in the report for a look by eye (the visual-regression baselines are
 * a separate suite).
 */
test('the table fits the screen, controls are big enough, and a round plays', async ({ page }, info) => {
  await openGame(page);
  const controls = [
    playButton(page),
    goAll(page),
    ...[1, 2, 3, 4].map((w) => goWheel(page, w)),
    ...[1, 2, 3, 5].map((e) => stake(page, e)),
    page.getByRole('button', { name: 'Couper le son' }),
    page.getByRole('button', { name: 'Historique' }),
    page.getByRole('button', { name: 'Règlement' }),
  ];
  for (const control of controls) await boxOnScreen(page, control, info.project.name !== 'desktop' ? 44 : undefined);
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

/**
 * On the canvas renderer each wheel's parts are layers beside Pixi's canvas, placed
 * from the same layout as the buttons: every face stands centred over its own GO.
 */
async function expectFacesOverTheirGo(page: Page): Promise<void> {
  // The unturned size of each face (a turned face's bounding box is larger).
  const sizes = await page
    .locator('.wheel-face')
    .evaluateAll((faces) => faces.map((face) => (face as HTMLElement).offsetHeight));
  for (let w = 1; w <= 4; w++) {
    const face = (await page
      .locator('.wheel-face')
      .nth(w - 1)
      .boundingBox())!;
    const go = (await goWheel(page, w).boundingBox())!;
    const centre = { x: face.x + face.width / 2, y: face.y + face.height / 2 };
    expect(Math.abs(centre.x - (go.x + go.width / 2)), `wheel ${w} centred over its GO`).toBeLessThan(1);
    expect(centre.y + sizes[w - 1]! / 2, `wheel ${w} above its GO`).toBeLessThanOrEqual(go.y + 1);
  }
}

test('the table is laid out again when the window changes shape', async ({ page }) => {
  await openGame(page, '&renderer=canvas');
  await expectFacesOverTheirGo(page);
  const { width, height } = page.viewportSize()!;
  const before = await goWheel(page, 4).boundingBox();
  await page.setViewportSize({ width: height, height: width });
  await expect.poll(async () => (await goWheel(page, 4).boundingBox())?.y).not.toBe(before!.y);
  const after = (await goWheel(page, 4).boundingBox())!;
  expect(after.x + after.width).toBeLessThanOrEqual(height + 0.5);
  expect(after.y + after.height).toBeLessThanOrEqual(width + 0.5);
  await expectFacesOverTheirGo(page);
});

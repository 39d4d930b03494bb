import { expect, test } from '@playwright/test';
import { boxOnScreen, buy, goAll, goWheel, openGame, playButton, revealAll, stake } from './game.ts';

/**
 * Issue 31: phones 320 to 359 px wide. Every control on screen and at least 44 px, the
 * header's buttons clear of the logo and of each other, « Règlement » reachable, and the
 * wheels given the room (their numbers at 12 px or more follow from the radius).
 */
const overlap = (a: DOMRect | { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const viewport of [
  { width: 320, height: 568 },
  { width: 359, height: 740 },
]) {
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

    test('every control on screen, ≥ 44 px, none over another; the wheels have the room', async ({ page }, info) => {
      await openGame(page, '&renderer=canvas');
      const header = [
        page.getByRole('button', { name: 'Couper le son' }),
        page.getByRole('switch', { name: 'Rotation rapide' }),
        page.getByRole('button', { name: 'Historique' }),
        page.getByRole('button', { name: 'Règlement' }),
      ];
      const controls = [
        ...header,
        playButton(page),
        goAll(page),
        ...[1, 2, 3, 4].map((w) => goWheel(page, w)),
        ...[1, 2, 3, 5].map((e) => stake(page, e)),
      ];
      const boxes = [];
      for (const control of controls) {
        const box = await boxOnScreen(page, control, 44);
        for (const other of boxes) expect(overlap(box, other)).toBe(false);
        boxes.push(box);
      }
      const logo = (await page.locator('.logo').boundingBox())!;
      const mute = (await header[0]!.boundingBox())!;
      expect(logo.x + logo.width + 4).toBeLessThanOrEqual(mute.x);
      // The faces (canvas renderer: one layer each) are at least 94 px across.
      const faces = await page
        .locator('.wheel-face')
        .evaluateAll((f) => f.map((face) => (face as HTMLElement).offsetWidth));
      for (const size of faces) expect(size).toBeGreaterThanOrEqual(94);
      await info.attach('idle', { body: await page.screenshot(), contentType: 'image/png' });

      await header[3]!.click();
      await expect(page.getByRole('dialog', { name: 'Règlement' })).toBeVisible();
      await page.keyboard.press('Escape');
      await buy(page);
      await goAll(page).click();
      await revealAll(page);
      await info.attach('result', { body: await page.screenshot(), contentType: 'image/png' });
    });
  });
}

import { expect, test, type Page } from '@playwright/test';
import { segmentUnderCursor } from '../src/client/game/spin.ts';
import { body, buy, expectPhase, goAll, goWheel, lastPlay, openGame, revealAll } from './game.ts';

/**
 * Both Pixi back-ends play a whole round and land on the server's stops. On the 2D
 * canvas renderer the faces turn as compositor layers of their own (view/wheelLayers.ts),
 * so there the picture itself is checked too: the segment that each face, as the
 * browser turned it, shows under the cursor is the server's.
 */
const cursors = (page: Page) => page.evaluate(() => window.spincake!.cursors());

/** The segment under each cursor as the browser draws the face layers (their CSS rotation). */
function shownSegments(page: Page): Promise<number[]> {
  return page
    .locator('.wheel-face')
    .evaluateAll((faces) =>
      faces.map((face) => {
        const transform = getComputedStyle(face).transform;
        const m = transform === 'none' ? new DOMMatrix() : new DOMMatrix(transform);
        return (Math.atan2(m.b, m.a) * 180) / Math.PI;
      }),
    )
    .then((degrees) => degrees.map(segmentUnderCursor));
}

for (const renderer of ['canvas', 'webgl'] as const) {
  test(`a round on the ${renderer} renderer lands on the server's stops`, async ({ page }) => {
    await openGame(page, `&renderer=${renderer}`);
    await expect(body(page)).toHaveAttribute('data-renderer', renderer);
    await expect(page.locator('.wheel-face')).toHaveCount(renderer === 'canvas' ? 4 : 0);
    await buy(page);
    await goWheel(page, 3).click();
    await page.evaluate(() => window.spincake!.advance(1_200));
    if (renderer === 'canvas') expect(await shownSegments(page)).toEqual(await cursors(page));
    await goAll(page).click();
    await revealAll(page);
    await expectPhase(page, 'revealed');
    const stops = (await lastPlay(page)).wheels.map((w) => w.stop);
    expect(await cursors(page)).toEqual(stops);
    if (renderer === 'canvas') expect(await shownSegments(page)).toEqual(stops);
  });
}

import { expect, test, type Page } from '@playwright/test';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { body, buy, expectPhase, expectWheels, finishSpins, goAll, goWheel, lastPlay } from './game.ts';

/**
 * Issue 31: on the WebGL renderer (the path real GPUs take), a lost graphics context
 * (`WEBGL_lose_context`, as a phone sent to the background loses it) must not leave an
 * empty table: once restored, every stand is drawn again where it is — on its stop, or
 * in its spin — and no result card shows while the wheels it sums up are gone.
 */
const loseContext = (page: Page, how: 'loseContext' | 'restoreContext') =>
  page.evaluate((call) => {
    const canvas = document.querySelector<HTMLCanvasElement>('.canvas-host > canvas')!;
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl'))!;
    const w = window as unknown as { loseExtension?: WEBGL_lose_context };
    w.loseExtension ??= gl.getExtension('WEBGL_lose_context')!;
    w.loseExtension[call]();
  }, how);

/** The table where the stands are, as a picture. */
async function table(page: Page): Promise<PNG> {
  const box = (await page.locator('.canvas-host').boundingBox())!;
  const clip = { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 480) };
  return PNG.sync.read(await page.screenshot({ clip, animations: 'disabled', scale: 'css' }));
}

const differing = (a: PNG, b: PNG) => pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0.1 });

/** The table with Pixi's canvas out of the picture: what an empty table looks like. */
async function emptyTable(page: Page): Promise<PNG> {
  const canvas = page.locator('.canvas-host > canvas');
  await canvas.evaluate((c) => (c.style.opacity = '0'));
  const picture = await table(page);
  await canvas.evaluate((c) => (c.style.opacity = ''));
  return picture;
}

test.beforeEach(async ({ page }) => {
  await page.goto('/?test=1&seed=7&renderer=webgl');
  // WebGL runs in software (SwiftShader) here: its start can take longer than a page's.
  await expect(body(page)).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  await page.evaluate(() => window.spincake!.freeze());
  await expect(body(page)).toHaveAttribute('data-renderer', 'webgl');
});

test('a lost context comes back with every stand drawn again on its stop', async ({ page }) => {
  await buy(page);
  await goWheel(page, 1).click();
  await finishSpins(page);
  await expectWheels(page, 'stopped,standing,standing,standing');
  const before = await table(page);
  const empty = await emptyTable(page);
  expect(differing(before, empty)).toBeGreaterThan(10_000);

  await loseContext(page, 'loseContext');
  await expect(body(page)).toHaveAttribute('data-graphics', 'lost');
  await loseContext(page, 'restoreContext');
  await expect(body(page)).toHaveAttribute('data-graphics', 'drawn');
  // The same picture as before the loss: the same four stands, the same angles.
  expect(differing(await table(page), before)).toBeLessThan(200);
  const cursors = await page.evaluate(() => window.spincake!.cursors());
  expect(cursors[0]).toBe((await lastPlay(page)).wheels[0]!.stop);
});

test('lost mid-spin: the stands come back turning, and the card waits for them', async ({ page }) => {
  await buy(page);
  const empty = await emptyTable(page);
  await goAll(page).click();
  await page.evaluate(() => window.spincake!.advance(300));
  await loseContext(page, 'loseContext');
  await expect(body(page)).toHaveAttribute('data-graphics', 'lost');
  await page.evaluate(() => window.spincake!.advance(300));
  await loseContext(page, 'restoreContext');
  await expect(body(page)).toHaveAttribute('data-graphics', 'drawn');
  await expectWheels(page, 'spinning,spinning,spinning,spinning');
  expect(differing(await table(page), empty)).toBeGreaterThan(10_000);

  // Lost again, and the wheels come to rest meanwhile: no card over an empty table.
  await loseContext(page, 'loseContext');
  await expect(body(page)).toHaveAttribute('data-graphics', 'lost');
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'hidden');
  await loseContext(page, 'restoreContext');
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  expect(await page.evaluate(() => window.spincake!.cursors())).toEqual(
    (await lastPlay(page)).wheels.map((w) => w.stop),
  );
  // Folded, the card shows the four stands, drawn.
  await page.getByRole('button', { name: 'Voir les roues' }).click();
  expect(differing(await table(page), empty)).toBeGreaterThan(10_000);
});

/**
 * A frame strip of one round's spin, to look at:
 *
 *   npx tsx scripts/frame-strip.ts [full|quick] [--every MS] [--until MS]   → .tmp/strip-full.png
 *
 * The built client (`npm run build` first) served by the README's server in test mode, with
 * a fresh data dir. The page's test clock is frozen and moved by exact steps from the GO, so
 * the frames fall where the motion puts them, not where a busy machine lets a screenshot
 * land. Each frame is the table above its controls (wheels, GO buttons, tally), at half size with
 * its time since the GO in a sheet of four columns, which the browser draws to the PNG.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { cleanUp, currentTree, spawnTreeServer, tempDir } from '../bench/serverTree.ts';
import { buy, goAll, openGame } from '../e2e/game.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { every: { type: 'string' }, until: { type: 'string' } },
});
const pace = positionals[0] ?? 'full';
if (pace !== 'full' && pace !== 'quick') throw new Error(`pace: full or quick, not ${pace}`);
const everyMs = Number(values.every ?? (pace === 'full' ? 200 : 50));
const untilMs = Number(values.until ?? (pace === 'full' ? 5_600 : 1_100));
if (!(everyMs > 0) || !(untilMs >= everyMs)) throw new Error('--every and --until: milliseconds, every ≤ until');

const VIEWPORT = { width: 1280, height: 720 };
/** The table at 1280×720 above the controls: the wheels, their GO buttons and the tally under them. */
const BAND = { x: 0, y: 0, width: 1280, height: 600 };
const COLUMNS = 4;
const SCALE = 0.5;
const output = join(resolve(import.meta.dirname, '..'), '.tmp', `strip-${pace}.png`);

interface Frame {
  ms: number;
  png: Buffer;
}

async function shoot(browser: Browser, url: string): Promise<Frame[]> {
  // Driven as the end-to-end tests drive it (e2e/game.ts): the test clock frozen once ready.
  const page = await browser.newPage({ viewport: VIEWPORT, baseURL: url });
  await openGame(page);
  if (pace === 'quick') await page.getByRole('switch', { name: 'Rotation rapide' }).click();
  await buy(page);
  await goAll(page).click();
  const frames: Frame[] = [];
  for (let ms = 0; ms <= untilMs; ms += everyMs) {
    frames.push({ ms, png: await page.screenshot({ clip: BAND }) });
    await page.evaluate((step) => window.spincake!.advance(step), everyMs);
  }
  await page.close();
  return frames;
}

/** The frames in rows of COLUMNS, each captioned with its time, drawn by the browser. */
async function sheet(browser: Browser, frames: Frame[]): Promise<Buffer> {
  const width = BAND.width * SCALE;
  const page = await browser.newPage({ viewport: { width: width * COLUMNS, height: 200 } });
  const cells = frames
    .map(
      ({ ms, png }) =>
        `<figure><img src="data:image/png;base64,${png.toString('base64')}" width="${width}"><figcaption>${ms} ms</figcaption></figure>`,
    )
    .join('');
  await page.setContent(
    `<!doctype html><style>
      body { margin: 0; display: grid; grid-template-columns: repeat(${COLUMNS}, ${width}px); background: #000; }
      figure { margin: 0; position: relative; }
      img { display: block; }
      figcaption { position: absolute; left: 6px; top: 34px; font: 700 16px sans-serif; color: #fff;
        background: rgb(0 0 0 / 0.6); padding: 1px 8px; border-radius: 4px; }
    </style>${cells}`,
  );
  const png = await page.screenshot({ fullPage: true });
  await page.close();
  return png;
}

// A fresh data dir: the first start makes the demo blocks (seconds each, more on a busy machine).
const server = await spawnTreeServer(
  currentTree(),
  { DATA_DIR: tempDir('spincake-strip-'), SPINCAKE_TEST_MODE: '1' },
  300_000,
);
const browser = await chromium.launch({
  executablePath: process.env.PLAYWRIGHT_OWN_BROWSER ? undefined : '/usr/bin/chromium',
  args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const frames = await shoot(browser, server.url);
  mkdirSync(join(output, '..'), { recursive: true });
  writeFileSync(output, await sheet(browser, frames));
  console.log(`${frames.length} frames, every ${everyMs} ms from the GO → ${output}`);
} finally {
  await browser.close();
  await cleanUp();
}

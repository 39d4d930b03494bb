/**
 * Renders every symbol, the cursor and the sprinkles at 28, 64 and 128 px on the three
 * backgrounds they meet (cream, strawberry, cocoa) and saves a screenshot to look at:
 *
 *   npx tsx scripts/preview-art.ts [webgl|canvas]   → .tmp/art.png (or .tmp/art-canvas.png)
 *
 * The page lives in .tmp, never in the build; Vite's dev server serves it with the real modules.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';

const renderer = process.argv[2] === 'canvas' ? 'canvas' : 'webgl';
const root = resolve(import.meta.dirname, '..');
const pageDir = join(root, '.tmp', 'art-preview');
const output = join(root, '.tmp', renderer === 'canvas' ? 'art-canvas.png' : 'art.png');

const entry = `
import { Application, Container, Graphics, Text } from 'pixi.js';
import { SYMBOLS } from '/src/rules/unit.ts';
import { createSymbol, createPipingTip, createSprinkle } from '/src/client/art/symbols.ts';
import { PALETTE, SPRINKLE_COLORS } from '/src/client/art/palette.ts';

const SIZES = [28, 64, 128];
const CELL = 150;
const backgrounds = [PALETTE.cream, PALETTE.strawberry, PALETTE.cocoa];
const items = [...SYMBOLS, 'piping-tip', 'sprinkles'];
const app = new Application();
await app.init({ width: CELL * items.length, height: 3 * 3 * CELL / 1.5 + 30, background: PALETTE.plum,
  antialias: true, preference: '${renderer}', resolution: 1 });
document.body.appendChild(app.canvas);
items.forEach((item, column) => {
  const label = new Text({ text: item, style: { fill: 0xffffff, fontSize: 14 } });
  label.position.set(column * CELL + 8, 6);
  app.stage.addChild(label);
  backgrounds.forEach((bg, row) => {
    const y0 = 30 + row * 3 * CELL / 1.5;
    const tile = new Graphics().rect(column * CELL, y0, CELL, 3 * CELL / 1.5).fill(bg);
    app.stage.addChild(tile);
    let y = y0 + 8;
    for (const size of SIZES) {
      let art;
      if (item === 'piping-tip') { art = createPipingTip(size); art.position.set(column * CELL + CELL / 2, y + size); }
      else if (item === 'sprinkles') {
        art = new Container();
        SPRINKLE_COLORS.forEach((c, i) => { const s = createSprinkle(c, size / 4); s.rotation = i; s.position.set((i - 2.5) * size / 4, 0); art.addChild(s); });
        art.position.set(column * CELL + CELL / 2, y + size / 2);
      } else { art = createSymbol(item, size); art.position.set(column * CELL + CELL / 2, y + size / 2); }
      app.stage.addChild(art);
      y += size + 8;
    }
  });
});
app.render();
window.__artReady = app.renderer.name;
`;

mkdirSync(pageDir, { recursive: true });
writeFileSync(join(pageDir, 'entry.ts'), entry);
writeFileSync(
  join(pageDir, 'index.html'),
  '<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0"><script type="module" src="./entry.ts"></script></body></html>',
);

const server = await createServer({
  root,
  configFile: false,
  logLevel: 'warn',
  server: { host: '127.0.0.1', port: 0 },
});
await server.listen();
const base = server.resolvedUrls?.local[0];
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const browser = await chromium.launch(
  existsSync(DEBIAN_CHROMIUM)
    ? {
        executablePath: DEBIAN_CHROMIUM,
        args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
      }
    : {},
);
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  page.on('pageerror', (error) => console.error('page error:', error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error('console:', message.text());
  });
  await page.goto(`${base}.tmp/art-preview/index.html`);
  const used = await page.waitForFunction(() => (window as unknown as { __artReady?: string }).__artReady, null, {
    timeout: 60_000,
  });
  await page.locator('canvas').screenshot({ path: output });
  console.log(`${output} (renderer: ${await used.jsonValue()})`);
} finally {
  await browser.close();
  await server.close();
}

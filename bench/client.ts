/**
 * `npm run bench:client`: the game in headless Chromium, next to a bare Pixi app of the
 * same canvas size, on both renderer paths, in the same run.
 *
 * For each (page, renderer): frames per second and, from the Chrome DevTools Protocol
 * (Performance.getMetrics), TaskDuration and ScriptDuration deltas over a 3-second window
 * of a 4-wheel spin, per frame; WebGL draw calls per frame (counted on the context);
 * time to the first interactive frame; and the initial JS of the game, gzipped.
 *
 * Then the table at rest, on both renderers: main-thread task and script time over 5 s and
 * the animation frames the page asks for, for the game's normal page (no test mode) next to
 * the bare Pixi app with its wheels still (Pixi's default: its ticker draws every frame).
 */
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';

const WINDOW_MS = 3_000;
/** The idle window: the table at rest, nothing moving, 1.5 s after the page said it was ready. */
const IDLE_WINDOW_MS = 5_000;
const IDLE_SETTLE_MS = 1_500;
const VIEWPORT = { width: 1280, height: 720 };
const CHROMIUM = process.env.PLAYWRIGHT_OWN_BROWSER ? undefined : '/usr/bin/chromium';

type Renderer = 'canvas' | 'webgl';
interface Sample {
  page: 'game' | 'bare Pixi';
  renderer: Renderer;
  actualRenderer: string;
  fps: number;
  taskMsPerFrame: number;
  scriptMsPerFrame: number;
  drawCallsPerFrame: number | null;
  interactiveMs: number | null;
}

/** Counts WebGL draw calls and rendered frames, installed before any page script runs. */
const COUNTERS = `
  window.__bench = { draws: 0, frames: 0 };
  for (const C of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    if (!C) continue;
    for (const name of ['drawElements', 'drawArrays', 'drawElementsInstanced', 'drawArraysInstanced']) {
      const original = C.prototype[name];
      if (!original) continue;
      C.prototype[name] = function (...args) { window.__bench.draws++; return original.apply(this, args); };
    }
  }
  (function count() { window.__bench.frames++; requestAnimationFrame(count); })();
`;

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // node itself (not `npx tsx`): stopping npx left the server running and the bench never exited.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'spincake-bench-')),
      SPINCAKE_TEST_MODE: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/`)).ok) return { url, stop: () => child.kill('SIGTERM') };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the game server did not start');
}

/** Reads Chromium's Performance.getMetrics for the page (TaskDuration, ScriptDuration… in seconds). */
async function performanceMetrics(page: Page): Promise<() => Promise<Record<string, number>>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return async () => {
    const { metrics: list } = await cdp.send('Performance.getMetrics');
    return Object.fromEntries(list.map((m) => [m.name, m.value]));
  };
}

async function measureWindow(
  page: Page,
): Promise<Omit<Sample, 'page' | 'renderer' | 'actualRenderer' | 'interactiveMs'>> {
  const metrics = await performanceMetrics(page);
  const counters = () =>
    page.evaluate(() => ({
      ...(window as unknown as { __bench: { draws: number; frames: number } }).__bench,
      t: performance.now(),
    }));
  const m0 = await metrics();
  const c0 = await counters();
  await page.waitForTimeout(WINDOW_MS);
  const m1 = await metrics();
  const c1 = await counters();
  const frames = c1.frames - c0.frames;
  const seconds = (c1.t - c0.t) / 1000;
  return {
    fps: frames / seconds,
    taskMsPerFrame: ((m1.TaskDuration! - m0.TaskDuration!) * 1000) / frames,
    scriptMsPerFrame: ((m1.ScriptDuration! - m0.ScriptDuration!) * 1000) / frames,
    drawCallsPerFrame: c1.draws - c0.draws > 0 ? (c1.draws - c0.draws) / frames : null,
  };
}

/** The game's page on a renderer, ready to play, with `initScript` run before its own scripts. */
async function openGamePage(
  browser: Browser,
  initScript: string,
  address: string,
): Promise<{ context: BrowserContext; page: Page; actualRenderer: string }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.goto(address);
  await page.waitForSelector('body[data-ready=true]', { state: 'attached' });
  const actualRenderer = (await page.getAttribute('body', 'data-renderer')) ?? '?';
  return { context, page, actualRenderer };
}

async function benchGame(browser: Browser, url: string, renderer: Renderer): Promise<Sample> {
  const { context, page, actualRenderer } = await openGamePage(
    browser,
    COUNTERS,
    `${url}/?test=1&renderer=${renderer}`,
  );
  await page.waitForFunction(() => performance.getEntriesByName('spincake:interactive').length > 0);
  const interactiveMs = await page.evaluate(() => performance.getEntriesByName('spincake:interactive')[0]!.startTime);
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await page.waitForSelector('body[data-phase=ready]', { state: 'attached' });
  await page.getByRole('button', { name: 'GO', exact: true }).click();
  await page.waitForTimeout(300); // past the wind-up, into the long run
  const sample = await measureWindow(page);
  const phase = await page.getAttribute('body', 'data-wheels');
  if (phase !== 'spinning,spinning,spinning,spinning')
    console.warn(`  (wheels were ${phase} at the end of the window)`);
  await context.close();
  return { page: 'game', renderer, actualRenderer, interactiveMs, ...sample };
}

/**
 * The baseline: Pixi alone, same canvas and resolution, four 6-wedge wheels, turning (for
 * the spin) or still (at rest: Pixi's ticker draws every frame all the same).
 */
async function openBarePixi(
  browser: Browser,
  initScript: string,
  renderer: Renderer,
  turning: boolean,
): Promise<{ context: BrowserContext; page: Page; actualRenderer: string }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(initScript);
  const page = await context.newPage();
  await page.setContent('<!doctype html><body style="margin:0;background:#2b1431"></body>');
  await page.addScriptTag({ path: 'node_modules/pixi.js/dist/pixi.min.js' });
  const actualRenderer = await page.evaluate(
    async ({ preference, turning }) => {
      const PIXI = (window as unknown as { PIXI: typeof import('pixi.js') }).PIXI;
      const app = new PIXI.Application();
      await app.init({
        preference: [preference],
        width: innerWidth,
        height: innerHeight,
        antialias: true,
        backgroundAlpha: 0,
        resolution: devicePixelRatio,
        autoDensity: true,
      });
      document.body.appendChild(app.canvas);
      const wheels = [0, 1, 2, 3].map((i) => {
        const g = new PIXI.Graphics();
        for (let s = 0; s < 6; s++)
          g.moveTo(0, 0)
            .arc(0, 0, 150, (s * Math.PI) / 3, ((s + 1) * Math.PI) / 3)
            .closePath()
            .fill(s % 2 ? 0xf5a3bf : 0xfbe9c8);
        g.position.set(160 + i * 320, 330);
        app.stage.addChild(g);
        return g;
      });
      if (turning) app.ticker.add((t) => wheels.forEach((w, i) => (w.rotation += 0.05 * t.deltaTime * (1 + i * 0.1))));
      return app.renderer.name;
    },
    { preference: renderer, turning },
  );
  return { context, page, actualRenderer };
}

async function benchBare(browser: Browser, renderer: Renderer): Promise<Sample> {
  const { context, page, actualRenderer } = await openBarePixi(browser, COUNTERS, renderer, true);
  await page.waitForTimeout(300);
  const sample = await measureWindow(page);
  await context.close();
  return { page: 'bare Pixi', renderer, actualRenderer, interactiveMs: null, ...sample };
}

/** The table at rest: what the main thread spends over IDLE_WINDOW_MS with nothing moving. */
interface IdleSample {
  page: 'game' | 'bare Pixi';
  renderer: Renderer;
  actualRenderer: string;
  taskMs: number;
  scriptMs: number;
  framesAsked: number;
}

/** Counts requestAnimationFrame calls, without asking for any frame itself. */
const FRAME_REQUESTS = `
  window.__framesAsked = 0;
  const request = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => { window.__framesAsked++; return request(callback); };
`;

async function measureIdle(page: Page): Promise<Pick<IdleSample, 'taskMs' | 'scriptMs' | 'framesAsked'>> {
  await page.waitForTimeout(IDLE_SETTLE_MS);
  const metrics = await performanceMetrics(page);
  const asked = () => page.evaluate(() => (window as unknown as { __framesAsked: number }).__framesAsked);
  const [m0, a0] = [await metrics(), await asked()];
  await page.waitForTimeout(IDLE_WINDOW_MS);
  const [m1, a1] = [await metrics(), await asked()];
  return {
    taskMs: (m1.TaskDuration! - m0.TaskDuration!) * 1000,
    scriptMs: (m1.ScriptDuration! - m0.ScriptDuration!) * 1000,
    framesAsked: a1 - a0,
  };
}

async function idleGame(browser: Browser, url: string, renderer: Renderer): Promise<IdleSample> {
  // The normal page (no test mode), as a player has it.
  const { context, page, actualRenderer } = await openGamePage(browser, FRAME_REQUESTS, `${url}/?renderer=${renderer}`);
  const sample = await measureIdle(page);
  await context.close();
  return { page: 'game', renderer, actualRenderer, ...sample };
}

async function idleBare(browser: Browser, renderer: Renderer): Promise<IdleSample> {
  const { context, page, actualRenderer } = await openBarePixi(browser, FRAME_REQUESTS, renderer, false);
  const sample = await measureIdle(page);
  await context.close();
  return { page: 'bare Pixi', renderer, actualRenderer, ...sample };
}

function initialJsGzip(indexHtml: string): { files: string[]; bytes: number } {
  // The entry and every chunk it imports statically or loads during start-up (the
  // renderer chunks Pixi fetches in init are counted: they are on the first-frame path).
  const files = readdirSync('dist/assets').filter((f) => f.endsWith('.js'));
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(indexHtml)?.[1];
  if (!entry) throw new Error('no entry script in dist/index.html');
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(join('dist/assets', f)), { level: 9 }).length, 0);
  return { files, bytes };
}

async function main(): Promise<void> {
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  const js = initialJsGzip(readFileSync('dist/index.html', 'utf8'));
  const server = await startServer();
  // A browser that cannot start must still stop the server, or the bench never exits.
  const browser = await chromium
    .launch({ executablePath: CHROMIUM, args: ['--no-first-run'] })
    .catch((error: unknown) => {
      server.stop();
      throw error;
    });
  const samples: Sample[] = [];
  const idle: IdleSample[] = [];
  try {
    for (const renderer of ['canvas', 'webgl'] as const) {
      samples.push(await benchBare(browser, renderer));
      samples.push(await benchGame(browser, server.url, renderer));
    }
    for (const renderer of ['canvas', 'webgl'] as const) {
      idle.push(await idleBare(browser, renderer));
      idle.push(await idleGame(browser, server.url, renderer));
    }
  } finally {
    await browser.close();
    server.stop();
  }
  const f1 = (v: number | null) => (v === null ? '—' : v.toFixed(1));
  const f2 = (v: number | null) => (v === null ? '—' : v.toFixed(2));
  const ratio = (game: Sample, key: 'taskMsPerFrame' | 'scriptMsPerFrame') => {
    const bare = samples.find((s) => s.page === 'bare Pixi' && s.renderer === game.renderer)!;
    return `${(game[key] / bare[key]).toFixed(2)}×`;
  };
  console.log(
    `\nbench:client — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `headless Chromium ${browser.version()}, ${VIEWPORT.width}×${VIEWPORT.height} at DPR 1, ${WINDOW_MS / 1000} s window of a 4-wheel spin\n`,
  );
  console.log(
    '| page | renderer asked → used | fps | task ms/frame | script ms/frame | task vs bare | script vs bare | draw calls/frame | first interactive frame |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of samples) {
    const vs = s.page === 'game' ? [ratio(s, 'taskMsPerFrame'), ratio(s, 'scriptMsPerFrame')] : ['1.00×', '1.00×'];
    console.log(
      `| ${s.page} | ${s.renderer} → ${s.actualRenderer} | ${f1(s.fps)} | ${f2(s.taskMsPerFrame)} | ${f2(s.scriptMsPerFrame)} | ${vs[0]} | ${vs[1]} | ${f1(s.drawCallsPerFrame)} | ${s.interactiveMs === null ? '—' : `${Math.round(s.interactiveMs)} ms`} |`,
    );
  }
  console.log(
    `\nThe table at rest: ${IDLE_WINDOW_MS / 1000} s, ${IDLE_SETTLE_MS / 1000} s after it was ready (the game's normal page)\n`,
  );
  console.log('| page | renderer asked → used | task ms | script ms | animation frames asked | task vs bare |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const s of idle) {
    const bare = idle.find((b) => b.page === 'bare Pixi' && b.renderer === s.renderer)!;
    console.log(
      `| ${s.page} | ${s.renderer} → ${s.actualRenderer} | ${f1(s.taskMs)} | ${f1(s.scriptMs)} | ${s.framesAsked} | ${(s.taskMs / bare.taskMs).toFixed(2)}× |`,
    );
  }
  console.log(
    `\nJS of the client, gzip -9: ${(js.bytes / 1024).toFixed(1)} KB in ${js.files.length} files (all chunks, an upper bound of what start-up loads)`,
  );
}

await main();

import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { init as lexerReady, parse as parseModule } from 'es-module-lexer';
import { MP3_SOUNDS } from '../scripts/make-sounds.ts';
import { MP3_LEAD_S, ON_DEMAND_CUES } from '../src/client/audio/cues.ts';

/**
 * How the built client (dist/, as `npm run build` made it) goes over the wire, asked of the
 * real server with real HTTP requests: compressed answers with Content-Encoding and Vary,
 * hashed assets cached for a year (immutable), index.html revalidated on every visit; a
 * returning player's reload fetches nothing but index.html and the API; the game's script is
 * asked for only after the loading screen has painted.
 */

const DIST = 'dist';
const assets = readdirSync(join(DIST, 'assets')).filter((f) => !/\.(br|gz)$/.test(f));
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A GET with node:http, so that the body is read as it was sent (Playwright's client would decode it). */
function fetchRaw(
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  const base = test.info().project.use.baseURL!;
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), headers: response.headers }),
        );
      })
      .on('error', reject);
  });
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

test('index.html: brotli, gzip or plain as the browser accepts, Vary: Accept-Encoding, no-cache', async () => {
  const html = readFileSync(join(DIST, 'index.html'));
  for (const [accept, expected] of [
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
  ] as const) {
    for (const path of ['/', '/index.html']) {
      const { status, body, headers } = await fetchRaw(path, accept);
      expect(status, `${path} (${accept})`).toBe(200);
      expect(headers['content-encoding'], `${path} (${accept})`).toBe(expected);
      expect(headers['vary']?.toLowerCase()).toContain('accept-encoding');
      expect(headers['cache-control']).toBe('no-cache');
      expect(headers['content-type']).toMatch(/^text\/html/);
      expect(decode(body, expected).equals(html), `${path} (${accept}) is index.html`).toBe(true);
    }
  }
});

test('every hashed asset: immutable for a year; scripts and styles compressed, the same bytes once decoded', async () => {
  expect(assets.some((f) => f.endsWith('.js'))).toBe(true);
  for (const file of assets) {
    const plain = readFileSync(join(DIST, 'assets', file));
    const { status, body, headers } = await fetchRaw(`/assets/${file}`, 'gzip, deflate, br');
    expect(status, file).toBe(200);
    expect(headers['cache-control'], file).toBe(IMMUTABLE);
    expect(headers['vary']?.toLowerCase(), file).toContain('accept-encoding');
    if (/\.(js|css)$/.test(file) && plain.length >= 512) {
      expect(headers['content-encoding'], file).toBe('br');
      expect(body.length, file).toBeLessThan(plain.length);
    }
    expect(decode(body, headers['content-encoding']).equals(plain), `${file} decodes to the built file`).toBe(true);
  }
  const main = assets.find((f) => /^main-.*\.js$/.test(f))!;
  const gz = await fetchRaw(`/assets/${main}`, 'gzip');
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(decode(gz.body, 'gzip').equals(readFileSync(join(DIST, 'assets', main)))).toBe(true);
});

test('a missing asset is a 404 that no cache keeps for a year', async () => {
  const { status, headers } = await fetchRaw('/assets/missing-00000000.js', 'br');
  expect(status).toBe(404);
  expect(headers['cache-control'] ?? '').not.toContain('immutable');
});

test('index.html links its stylesheet, icon and fonts (preloaded), all built assets', async () => {
  const text = (await fetchRaw('/', 'identity')).body.toString('utf8');
  const preloads = [...text.matchAll(/<link rel="preload" href="\/assets\/([^"]+)" as="font" type="font\/woff2"/g)];
  expect(preloads.map((m) => m[1]!.replace(/-[\w-]{8}\./, '.')).sort()).toEqual([
    'fredoka-latin-500-normal.woff2',
    'fredoka-latin-600-normal.woff2',
    'fredoka-latin-700-normal.woff2',
  ]);
  for (const [, file] of text.matchAll(/(?:href|src)="\/assets\/([^"]+)"/g)) expect(assets).toContain(file);
  expect(text).toMatch(/<link rel="icon" href="\/assets\/favicon-[\w-]{8}\.svg"/);
  expect(text).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[^"]+\.css">/);
});

/** The built files a built script imports, as its module graph loads them (static) and as it asks with import(). */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const [imports] = parseModule(readFileSync(join(DIST, 'assets', file), 'utf8'));
  const named = (type: 'static' | 'dynamic') =>
    imports
      .filter((entry) => entry.type === type && entry.specifier?.startsWith('./'))
      .map((entry) => entry.specifier!.slice('./'.length));
  return { static: named('static'), dynamic: named('dynamic') };
}

/** A script and every file its static imports reach: what is evaluated in the one task that runs the script. */
function moduleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const next of importsOf(file).static) moduleGraph(next, seen);
  return seen;
}

test('the game loads as two module graphs (the table with Pixi apart), the ticket check on demand', async () => {
  await lexerReady();
  const html = (await fetchRaw('/', 'identity')).body.toString('utf8');
  const entry = /<script type="module" crossorigin src="\/assets\/([^"]+)"/.exec(html)![1]!;
  const asked = importsOf(entry).dynamic;
  const main = asked.find((file) => /^main-[\w-]+\.js$/.test(file));
  const table = asked.find((file) => /^scene-[\w-]+\.js$/.test(file));
  expect(main, `${entry} asks for the game`).toBeDefined();
  expect(table, `${entry} asks for the table`).toBeDefined();
  // Markers of the code itself, whatever the chunks are named: Pixi's own warnings name it, and
  // every SHA-256 carries the first word of its initial hash (0x6a09e667).
  const carries = (files: Set<string>, marker: string) =>
    [...files].filter((file) => readFileSync(join(DIST, 'assets', file), 'utf8').includes(marker));
  const gameGraph = moduleGraph(main!);
  expect(carries(gameGraph, 'PixiJS'), "Pixi is no part of the game's graph").toEqual([]);
  expect(carries(moduleGraph(table!), 'PixiJS').length, "Pixi is in the table's graph").toBeGreaterThan(0);
  expect(carries(gameGraph, '1779033703'), "no SHA-256 in the game's graph").toEqual([]);
  const check = importsOf(main!).dynamic.find((file) => /^ticketCheck-[\w-]+\.js$/.test(file));
  expect(check, 'the game asks for the ticket check when a player does').toBeDefined();
  expect(carries(moduleGraph(check!), '1779033703').length).toBeGreaterThan(0);
});

test('the loading screen paints before the game script is asked for; a reload fetches only index.html and the API', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const order = await page.evaluate(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    main: performance.getEntriesByType('resource').find((e) => /\/assets\/main-[\w-]+\.js$/.test(e.name))?.startTime,
  }));
  expect(order.paint).not.toBeNull();
  expect(order.main).toBeGreaterThanOrEqual(order.paint!);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const responses = new Map<string, { path: string; cached: boolean }>();
  const servedFromCache = new Set<string>();
  cdp.on('Network.requestServedFromCache', ({ requestId }) => servedFromCache.add(requestId));
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const cached = response.fromDiskCache || response.fromPrefetchCache || false;
    responses.set(requestId, { path: new URL(response.url).pathname, cached });
  });
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const all = [...responses].map(([id, r]) => ({ ...r, cached: r.cached || servedFromCache.has(id) }));
  const fromNetwork = all.filter((r) => !r.cached).map((r) => r.path);
  const fromCache = all.filter((r) => r.cached).map((r) => r.path);
  expect(fromNetwork.filter((path) => !path.startsWith('/api/'))).toEqual(['/']);
  // The page's scripts, stylesheet and fonts came from the cache.
  expect(fromCache.some((path) => /\/assets\/main-[\w-]+\.js$/.test(path))).toBe(true);
  expect(fromCache.some((path) => path.endsWith('.css'))).toBe(true);
});

test('audio is no part of the first load: howler.js and the sounds come with the first touch, MP3 where there is one', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const loaded = () =>
    page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  expect((await loaded()).filter((path) => /howler|\.(wav|mp3)$/.test(path))).toEqual([]);
  await page.mouse.click(5, 5);
  // Every sound of the build, once: the MP3 where one was made (Chromium plays MP3), else the WAV;
  // all but the on-demand cues, fetched when a round that needs them is bought.
  const cue = (file: string) => file.replace(/^.*\//, '').replace(/-[\w-]{8}\.(wav|mp3)$/, '');
  const mp3s = assets.filter((f) => f.endsWith('.mp3') && !ON_DEMAND_CUES.some((name) => cue(f) === name));
  const wavsWithoutMp3 = assets.filter((f) => f.endsWith('.wav') && !MP3_SOUNDS.some((name) => cue(f) === name));
  expect(mp3s.length).toBeGreaterThan(0);
  const expected = [...mp3s, ...wavsWithoutMp3].map(cue).sort();
  await expect
    .poll(
      async () =>
        (await loaded())
          .filter((path) => /\.(wav|mp3)$/.test(path))
          .map(cue)
          .sort(),
      { timeout: 15_000 },
    )
    .toEqual(expected);
  const sounds = (await loaded()).filter((path) => /\.(wav|mp3)$/.test(path));
  expect(sounds.filter((path) => path.endsWith('.mp3'))).toHaveLength(mp3s.length);
  expect((await loaded()).some((path) => /\/assets\/howler-[\w-]+\.js$/.test(path))).toBe(true);
});

test('every MP3 of the build decodes in the browser to its sound, as long as its WAV', async ({ page }) => {
  await page.goto('/');
  const mp3s = assets.filter((f) => f.endsWith('.mp3'));
  expect(mp3s.length).toBeGreaterThan(0);
  for (const file of mp3s) {
    const wav = readFileSync(join('assets', 'sounds', file.replace(/-[\w-]{8}\.mp3$/, '.wav')));
    const wavSeconds = (wav.length - 44) / 2 / wav.readUInt32LE(24);
    const decoded = await page.evaluate(async (url) => {
      const bytes = await (await fetch(url)).arrayBuffer();
      const audio = await new OfflineAudioContext(1, 1, 22_050).decodeAudioData(bytes);
      const samples = audio.getChannelData(0);
      let peak = 0;
      for (const s of samples) peak = Math.max(peak, Math.abs(s));
      return { seconds: audio.duration, peak };
    }, `/assets/${file}`);
    // Longer by LAME's padding only (under four frames of 576 samples).
    expect(decoded.seconds).toBeGreaterThanOrEqual(wavSeconds - 0.01);
    expect(decoded.seconds).toBeLessThan(wavSeconds + 0.11);
    expect(decoded.peak).toBeGreaterThan(0.2);
  }
});

test('each MP3’s sound starts MP3_LEAD_S into what Chromium decodes, where the game plays it from', async ({
  page,
}) => {
  await page.goto('/');
  const onset = (samples: ArrayLike<number>) => {
    let peak = 0;
    for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]!));
    for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i]!) > peak * 0.05) return i;
    return -1;
  };
  for (const file of assets.filter((f) => f.endsWith('.mp3'))) {
    const wav = readFileSync(join('assets', 'sounds', file.replace(/-[\w-]{8}\.mp3$/, '.wav')));
    const rate = wav.readUInt32LE(24);
    const wavSamples = Array.from({ length: (wav.length - 44) / 2 }, (_, i) => wav.readInt16LE(44 + i * 2) / 32767);
    const decoded = await page.evaluate(async (url) => {
      const bytes = await (await fetch(url)).arrayBuffer();
      return Array.from((await new OfflineAudioContext(1, 1, 22_050).decodeAudioData(bytes)).getChannelData(0));
    }, `/assets/${file}`);
    const leadS = (onset(decoded) - onset(wavSamples)) / rate;
    // Within a millisecond and a half of the measured lead: the cue plays where its sound begins.
    expect(Math.abs(leadS - MP3_LEAD_S), file).toBeLessThan(0.0015);
  }
});

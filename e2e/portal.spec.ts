import net from 'node:net';
import path from 'node:path';
import { expect, test, type Frame, type Page } from '@playwright/test';
import type { Play, PlaysPage } from '../src/contract/api.ts';
import { startTestServer, type TestServer } from '../src/server/testing/harness.ts';
import { signLaunchToken } from '../src/server/tokens.ts';
import { startPortalDemo, type PortalDemo } from '../scripts/portal-demo.ts';

/**
 * The game inside the demo portal (examples/portal), each on its own origin: a real game
 * server in test mode that allows only the portal's origin, and the demo portal that
 * signs launch tokens with the shared secret. Everything waits on messages and data
 * attributes, never on sleeps.
 */

const PORTAL_SECRET = 'e2e-portal-secret-0123456789abcdef-0123';
const START_CENTS = 10_000;

let game: TestServer;
let portal: PortalDemo;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address() as net.AddressInfo;
      probe.close(() => resolve(address.port));
    });
  });
}

test.beforeAll(async () => {
  // A first run generates the test blocks (seconds each) while the config's server starts too.
  test.setTimeout(240_000);
  // The game must know the portal's origin before it starts (CSP, bridge), so the
  // portal's port is chosen first.
  const portalPort = await freePort();
  game = await startTestServer({
    CLIENT_DIR: path.resolve('dist'),
    SPINCAKE_TEST_MODE: '1',
    DEMO_MODE: 'off',
    PORTAL_SECRET,
    PORTAL_ORIGINS: `http://127.0.0.1:${portalPort}`,
  });
  portal = await startPortalDemo({
    port: portalPort,
    gameUrl: `${game.url}/?test=1&seed=7`,
    portalSecret: PORTAL_SECRET,
    playerId: 'e2e-player',
    fundCents: START_CENTS,
  });
});

test.afterAll(async () => {
  await portal?.close();
  await game?.close();
});

interface Logged {
  type: string;
  payload: Record<string, unknown>;
}

/** The messages the portal page has logged, in order. */
async function portalLog(page: Page): Promise<Logged[]> {
  return page.locator('#events li').evaluateAll((items) =>
    items.map((li) => ({
      type: li.getAttribute('data-type')!,
      payload: JSON.parse(li.getAttribute('data-payload')!),
    })),
  );
}

const logged = (page: Page, type: string) => page.locator(`#events li[data-type=${type}]`);

/** Opens the portal for a fresh player and waits for the game's `ready`. */
async function openPortal(page: Page, player: string): Promise<Frame> {
  await page.goto(`${portal.url}?player=${player}`);
  await expect(logged(page, 'ready')).toHaveCount(1);
  const frame = await (await page.locator('#game').elementHandle())!.contentFrame();
  if (!frame) throw new Error('the game iframe has no frame');
  await expect(frame.locator('body')).toHaveAttribute('data-ready', 'true');
  return frame;
}

async function gameToken(frame: Frame): Promise<string> {
  const token = await frame.evaluate(() => window.spincake!.token());
  if (!token) throw new Error('the game has no session');
  return token;
}

async function serverCall(method: 'GET' | 'POST', url: string, token: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${game.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `${url}: ${response.status}`).toBe(true);
  return response.json();
}

/** The game's own sound button (« Couper le son » / « Remettre le son »). */
const muteButton = (frame: Frame) => frame.getByRole('button', { name: /^(Couper|Remettre) le son$/ });

/**
 * Starts listening in the game frame for a message from `origin`; `received()` then
 * waits for it. The bridge's listener was added first, so it has run by then.
 */
async function listenFor(frame: Frame, origin: string) {
  // Wrapped in an object: evaluateHandle would otherwise wait for the promise itself.
  const handle = await frame.evaluateHandle(
    (from) => ({
      message: new Promise<unknown>((resolve) => {
        window.addEventListener('message', (event) => {
          if (event.origin === from) resolve(event.data);
        });
      }),
    }),
    origin,
  );
  return { received: () => frame.evaluate((h) => h.message, handle) };
}

test('the portal starts the game and receives the events of a round with the server’s amounts', async ({ page }) => {
  const frame = await openPortal(page, 'e2e-round');
  await frame.evaluate(() => window.spincake!.freeze());
  const token = await gameToken(frame);
  await serverCall('POST', '/api/test/fixture', token, { pair: 'x7' });

  await frame.getByRole('button', { name: 'Jouer', exact: true }).click();
  await expect(logged(page, 'roundStarted')).toHaveCount(1);
  await frame.getByRole('button', { name: 'GO', exact: true }).click();
  await frame.evaluate(() => window.spincake!.finishSpins());
  await expect(logged(page, 'roundEnded')).toHaveCount(1);
  // The credit reaches the bar with the card (the show counts it up there), on the frozen clock.
  await frame.evaluate(() => window.spincake!.advance(8_000));
  await expect(logged(page, 'balanceChanged')).toHaveCount(3);

  const { plays } = (await serverCall('GET', '/api/plays?limit=10', token)) as PlaysPage;
  expect(plays).toHaveLength(1);
  const play: Play = plays[0]!;
  expect(play.winCents).toBe(700);
  expect(await portalLog(page)).toEqual([
    { type: 'ready', payload: { muted: false } },
    { type: 'balanceChanged', payload: { balanceCents: START_CENTS } },
    { type: 'roundStarted', payload: { playId: play.playId, stakeCents: play.stakeCents, resumed: false } },
    { type: 'balanceChanged', payload: { balanceCents: play.balanceBeforeCents - play.stakeCents } },
    {
      type: 'roundEnded',
      payload: { playId: play.playId, winCents: play.winCents, balanceCents: play.balanceAfterCents },
    },
    { type: 'balanceChanged', payload: { balanceCents: play.balanceAfterCents } },
  ]);
  await expect(page.locator('#balance')).toHaveText(/106,00/);
});

test('the portal mutes, pauses and resumes the game from outside', async ({ page }) => {
  const frame = await openPortal(page, 'e2e-mute');
  await expect(muteButton(frame)).toHaveAttribute('aria-pressed', 'false');

  await page.getByRole('button', { name: 'Mute' }).click();
  await expect(muteButton(frame)).toHaveAttribute('aria-pressed', 'true');
  await expect(frame.getByRole('button', { name: 'Remettre le son' })).toBeVisible();
  await page.getByRole('button', { name: 'Unmute' }).click();
  await expect(muteButton(frame)).toHaveAttribute('aria-pressed', 'false');

  // resize: the table takes the size the portal gives it.
  await page.evaluate((gameOrigin) => {
    const game = (document.getElementById('game') as HTMLIFrameElement).contentWindow!;
    game.postMessage({ source: 'spincake-portal', type: 'resize', payload: { width: 640, height: 360 } }, gameOrigin);
  }, new URL(game.url).origin);
  await expect
    .poll(() => frame.locator('#app').evaluate((el) => [el.clientWidth, el.clientHeight]))
    .toEqual([640, 360]);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(frame.locator('body')).toHaveAttribute('data-paused', 'true');
  // Paused, and saying so on screen.
  await expect
    .poll(() => frame.locator('body').evaluate((b) => getComputedStyle(b, '::after').content))
    .toBe('"Jeu en pause"');
  expect(await frame.evaluate(() => document.body.inert)).toBe(true);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(frame.locator('body')).not.toHaveAttribute('data-paused', /.*/);
  expect(await frame.evaluate(() => document.body.inert)).toBe(false);
});

test('the launch token leaves the URL once read; a reload resumes the session; the token opens no other', async ({
  page,
}) => {
  const frame = await openPortal(page, 'e2e-url');
  const href = await frame.evaluate(() => location.href);
  expect(href).not.toContain('launchToken');
  expect(new URL(href).search).toBe('?test=1&seed=7');
  const launchToken = decodeURIComponent((await page.locator('#game').getAttribute('src'))!.split('#launchToken=')[1]!);
  const token = await gameToken(frame);

  // A reload finds no token in the URL, and resumes the same session.
  await Promise.all([frame.waitForNavigation(), frame.evaluate(() => location.reload())]);
  await expect(frame.locator('body')).toHaveAttribute('data-ready', 'true');
  expect(await frame.evaluate(() => location.href)).toBe(href);
  expect(await gameToken(frame)).toBe(token);

  // The token itself, seen by anyone who copied the URL before, opens nothing.
  const replay = await fetch(`${game.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ launchToken }),
  });
  expect(replay.status).toBe(401);
});

/** Opens the portal page with a launch token of the test's choosing instead of the demo's. */
async function openPortalWith(page: Page, launchToken: string): Promise<void> {
  await page.route('**/launch.json*', (route) =>
    route.fulfill({ json: { gameUrl: `${game.url}/?test=1&seed=7`, launchToken, playerId: 'chosen' } }),
  );
  await page.goto(portal.url);
}

test('the portal hears why the game cannot start, and is asked for its deposit page at 0 €', async ({ page }) => {
  const exp = Math.floor(Date.now() / 1000) + 300;
  await openPortalWith(
    page,
    signLaunchToken({ playerId: 'e2e-forged', exp }, 'not-the-portal-secret-0123456789abcdef'),
  );
  await expect(logged(page, 'error')).toHaveCount(1);
  expect((await portalLog(page))[0]).toEqual({
    type: 'error',
    payload: { code: 'NO_SESSION', message: 'the launch token is not signed by the portal' },
  });
  await expect(logged(page, 'ready')).toHaveCount(0);

  // A portal player with no money: « Jouer » is off, the game says why and offers the
  // portal's own deposit page, which the portal is asked to open.
  await page.unrouteAll();
  await openPortalWith(page, signLaunchToken({ playerId: 'e2e-broke', exp }, PORTAL_SECRET));
  await expect(logged(page, 'ready')).toHaveCount(1);
  const frame = await (await page.locator('#game').elementHandle())!.contentFrame();
  await expect(frame!.locator('body')).toHaveAttribute('data-phase', 'idle');
  await expect(frame!.getByRole('button', { name: 'Jouer', exact: true })).toBeDisabled();
  await expect(frame!.getByRole('alert')).toContainText('est insuffisant pour jouer');
  // Real money is never play money: no « Recharger la démo » for a portal player, even at 0 €.
  await expect(frame!.getByRole('button', { name: 'Recharger la démo' })).toBeHidden();
  await frame!.getByRole('button', { name: 'Alimenter mon compte' }).click();
  await expect(logged(page, 'deposit')).toHaveCount(1);
  expect(await portalLog(page)).toEqual([
    { type: 'ready', payload: { muted: false } },
    { type: 'balanceChanged', payload: { balanceCents: 0 } },
    { type: 'deposit', payload: { balanceCents: 0, minStakeCents: 100 } },
  ]);
});

test('a message from another origin is ignored', async ({ page }) => {
  const frame = await openPortal(page, 'e2e-foreign');
  await expect(muteButton(frame)).toHaveAttribute('aria-pressed', 'false');
  const eventsBefore = (await portalLog(page)).length;

  // A window of another origin (the same demo server under another host name) that
  // holds a reference to the game's frame, as any popup of the portal would.
  const foreignOrigin = portal.origin.replace('127.0.0.1', 'localhost');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.evaluate((url) => void window.open(url), `${foreignOrigin}/not-the-portal`),
  ]);
  await popup.waitForLoadState('domcontentloaded');
  expect(await popup.evaluate(() => location.origin)).toBe(foreignOrigin);

  const foreign = await listenFor(frame, foreignOrigin);
  await popup.evaluate(() => {
    const game = window.opener.frames[0] as Window;
    game.postMessage({ source: 'spincake-portal', type: 'mute', payload: { muted: true } }, '*');
    game.postMessage({ source: 'spincake-portal', type: 'pause', payload: {} }, '*');
  });
  expect(await foreign.received()).toEqual({
    source: 'spincake-portal',
    type: 'mute',
    payload: { muted: true },
  });
  // Delivered, and ignored: still sounding, not paused, and nothing sent back.
  await expect(muteButton(frame)).toHaveAttribute('aria-pressed', 'false');
  await expect(frame.locator('body')).not.toHaveAttribute('data-paused', /.*/);
  expect(await portalLog(page)).toHaveLength(eventsBefore);
});

test('a page of a non-portal origin framing the game gets no events and no say', async ({ page }) => {
  // The game's own origin may frame it (CSP 'self') but is not a portal origin.
  const launch = (await (await fetch(`${portal.url}launch.json?player=e2e-self`)).json()) as { launchToken: string };
  await page.goto(`${game.url}/api/health`);
  await page.evaluate((src) => {
    (window as unknown as { received: unknown[] }).received = [];
    window.addEventListener('message', (e) => (window as unknown as { received: unknown[] }).received.push(e.data));
    const iframe = document.createElement('iframe');
    iframe.id = 'game';
    iframe.src = src;
    document.body.append(iframe);
  }, `/?test=1&seed=7#launchToken=${launch.launchToken}`);
  const frame = await (await page.locator('#game').elementHandle())!.contentFrame();
  await expect(frame!.locator('body')).toHaveAttribute('data-ready', 'true');

  const fromParent = await listenFor(frame!, new URL(game.url).origin);
  await page.evaluate(() => {
    const game = (document.getElementById('game') as HTMLIFrameElement).contentWindow!;
    game.postMessage({ source: 'spincake-portal', type: 'mute', payload: { muted: true } }, '*');
  });
  expect(await fromParent.received()).toEqual({ source: 'spincake-portal', type: 'mute', payload: { muted: true } });
  await expect(muteButton(frame!)).toHaveAttribute('aria-pressed', 'false');

  // The game would have posted `ready` before it said data-ready; a marker posted now
  // arrives after anything it sent, so seeing it alone proves nothing was sent.
  await frame!.evaluate(() => window.parent.postMessage('marker', '*'));
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { received: unknown[] }).received))
    .toEqual(['marker']);
});

import { expect, type Locator, type Page } from '@playwright/test';
import type { PairKey } from '../src/rules/tables.ts';
import type { Play, PlaysPage } from '../src/contract/api.ts';
import { formatCents } from '../src/rules/money.ts';

/**
 * Driving the game the way a player does, plus the real server's test-mode hooks for
 * choosing a unit. Everything waits on the game's own signals (data attributes on
 * <body> and the test clock), never on sleeps.
 */
export async function openGame(page: Page, query = ''): Promise<void> {
  await page.goto(`/?test=1&seed=7${query}`);
  // Software WebGL (SwiftShader, where no GPU is) compiles its shaders on the CPU: with a
  // second browser on the same two cores that start alone can outlast the usual wait.
  const start = query.includes('renderer=webgl') ? { timeout: 60_000 } : undefined;
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', start);
  await page.evaluate(() => window.spincake!.freeze());
}

export const body = (page: Page) => page.locator('body');

export async function expectPhase(page: Page, phase: string): Promise<void> {
  await expect(body(page)).toHaveAttribute('data-phase', phase);
}

export async function expectWheels(page: Page, wheels: string): Promise<void> {
  await expect(body(page)).toHaveAttribute('data-wheels', wheels);
}

export const playButton = (page: Page) => page.getByRole('button', { name: 'Jouer', exact: true });
export const goAll = (page: Page) => page.getByRole('button', { name: 'GO', exact: true });
export const goWheel = (page: Page, wheel: number) => page.getByRole('button', { name: `GO roue ${wheel}` });
export const stake = (page: Page, euros: number) => page.getByRole('button', { name: `Mise ${euros}\u00a0€` });
export const balance = (page: Page) => page.locator('.balance-value');

export async function token(page: Page): Promise<string> {
  const t = await page.evaluate(() => window.spincake!.token());
  if (!t) throw new Error('no session yet');
  return t;
}

async function testHook(page: Page, path: string, data: unknown): Promise<void> {
  const response = await page.request.post(`/api/test/${path}`, {
    data,
    headers: { authorization: `Bearer ${await token(page)}` },
  });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
}

/** The player's next unit shows this pair (server fixture, test mode only). */
export const fixture = (page: Page, pair: PairKey) => testHook(page, 'fixture', { pair });
export const setBalance = (page: Page, balanceCents: number) => testHook(page, 'balance', { balanceCents });
/** Opens or closes sales; `dates`: the window told to players, as SALES_OPENS_AT / SALES_CLOSES_AT give it. */
export const setSales = (
  page: Page,
  open: boolean,
  message?: string,
  dates?: { opensAt: string | null; closesAt: string | null },
) => testHook(page, 'sales', { open, message, ...dates });
export const exhaust = (page: Page, stakeCents: number) => testHook(page, 'exhaust', { stakeCents });

export async function serverPlays(page: Page): Promise<Play[]> {
  const response = await page.request.get('/api/plays?limit=50', {
    headers: { authorization: `Bearer ${await token(page)}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as PlaysPage).plays;
}

export async function lastPlay(page: Page): Promise<Play> {
  const plays = await serverPlays(page);
  expect(plays.length).toBeGreaterThan(0);
  return plays[0]!;
}

export async function buy(page: Page): Promise<void> {
  await expectPhase(page, 'idle');
  await playButton(page).click();
  await expectPhase(page, 'ready');
}

/** Lets every launched wheel come to rest, then runs the card's reveal to its end. */
export async function finishSpins(page: Page): Promise<void> {
  await page.evaluate(() => window.spincake!.finishSpins());
}

export async function revealAll(page: Page): Promise<void> {
  await finishSpins(page);
  await expectPhase(page, 'revealed');
  // Long enough for the jackpot's takeover, then its card and count-up.
  await page.evaluate(() => window.spincake!.advance(16_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
}

/** A control's box, checked to lie inside the viewport (and to be `minSize` px or more, when given). */
export async function boxOnScreen(page: Page, control: Locator, minSize?: number) {
  const viewport = page.viewportSize()!;
  const box = (await control.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
  if (minSize !== undefined) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(minSize);
  return box;
}

/** One round from an idle table to the idle table again, its card closed with « Nouvelle partie ». */
export async function playRoundToIdle(page: Page): Promise<void> {
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
}

/** « 20 000 € » the way the page writes it. */
export const euros = (cents: number) => formatCents(cents, 'fr');

import { expect, test, type Page } from '@playwright/test';
import { formatCount } from '../src/rules/money.ts';
import { fr } from '../src/client/i18n/fr.ts';
import { typeset } from '../src/client/i18n/typography.ts';
import type { Play } from '../src/contract/api.ts';
import { body, euros, expectPhase, expectWheels, fixture, lastPlay, openGame } from './game.ts';

/** The labels of the symbols, from fr.ts (the test reads what the player hears). */
const SYMBOLS_FR = fr.symbols;

const announcements = (page: Page) => page.locator('[aria-live="polite"] p');

/** The accessible name of the focused element, as the accessibility tree has it. */
async function focusedName(page: Page): Promise<string | null> {
  const snapshot = await page.locator(':focus').ariaSnapshot();
  return snapshot;
}

/**
 * Presses `key` until the focused control is the button named `name` — the way a
 * keyboard user gets there. Fails if it is not reached within a lap of the page.
 */
async function tabTo(page: Page, name: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  const target = page.getByRole('button', { name, exact: true });
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`« ${name} » not reached with ${key}; focus on ${await focusedName(page)}`);
}

function wheelLines(play: Play): string[] {
  return play.wheels.map((w, i) => {
    const s = w.segments[w.stop]!;
    return typeset(`Roue ${i + 1} : ${s.points} points, ${SYMBOLS_FR[s.symbol]}`, 'fr');
  });
}

test('a whole round with the keyboard alone, every result announced', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x7');
  await tabTo(page, 'Mise 2\u00a0€');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Mise 2\u00a0€' })).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, 'Jouer');
  await page.keyboard.press('Space');
  await expectPhase(page, 'ready');
  const play = await lastPlay(page);
  expect(play.stakeCents).toBe(200);

  await tabTo(page, 'GO roue 1', 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expectWheels(page, 'spinning,standing,standing,standing');
  await page.evaluate(() => window.spincake!.finishSpins());
  await expectWheels(page, 'stopped,standing,standing,standing');
  const lines = wheelLines(play);
  await expect(announcements(page).last()).toHaveText(lines[0]!);

  await tabTo(page, 'GO');
  await page.keyboard.press('Enter');
  await expectWheels(page, 'stopped,spinning,spinning,spinning');
  await page.evaluate(() => window.spincake!.finishSpins());
  await expectPhase(page, 'revealed');

  const money = (c: number) => (c > 0 ? euros(c) : 'Pas de gain');
  const bells = play.jeu1.bells === 0 ? 'Aucune cloche' : `${play.jeu1.bells} cloche${play.jeu1.bells > 1 ? 's' : ''}`;
  const expected = [
    ...lines,
    `JEU 1 : ${bells}, ${money(play.jeu1.winCents)}`,
    `JEU 2 : ${formatCount(play.jeu2.points)} points, ${money(play.jeu2.winCents)}`,
    `Gain total : ${euros(play.winCents)}`,
  ].map((line) => typeset(line, 'fr')); // as every string the player reads
  expect(play.winCents).toBe(play.jeu1.winCents + play.jeu2.winCents);
  expect(play.winCents).toBe(1400);
  // Wheels 2–4 stop in any order; the results follow them, in the order above.
  const heard = await announcements(page).allTextContents();
  const tail = heard.slice(-expected.length);
  expect(tail[0]).toBe(expected[0]);
  expect([...tail.slice(1, 4)].sort()).toEqual([...expected.slice(1, 4)].sort());
  expect(tail.slice(4)).toEqual(expected.slice(4));

  // The card's « Nouvelle partie » takes the focus: Enter goes back to the table.
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  await expect(page.getByRole('button', { name: 'Nouvelle partie' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expectPhase(page, 'idle');
});

const NAMES = {
  fr: {
    play: 'Jouer',
    goAll: 'GO',
    goWheel: (w: number) => `GO roue ${w}`,
    stake: (e: number) => `Mise ${e}\u00a0€`,
    mute: 'Couper le son',
    history: 'Historique',
    rules: 'Règlement',
  },
  en: {
    play: 'Play',
    goAll: 'GO',
    goWheel: (w: number) => `GO wheel ${w}`,
    stake: (e: number) => `Stake €${e}`,
    mute: 'Mute',
    history: 'History',
    rules: 'Rules',
  },
};

for (const lang of ['fr', 'en'] as const) {
  test(`every control has its accessible name (${lang})`, async ({ page }) => {
    await openGame(page, lang === 'en' ? '&lang=en' : '');
    const n = NAMES[lang];
    const names = [n.play, n.goAll, ...[1, 2, 3, 4].map(n.goWheel), ...[1, 2, 3, 5].map(n.stake), n.mute, n.history];
    names.push(n.rules);
    for (const name of names) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(1);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
  });
}

test('reduced motion: short spins, nothing falling after the reveal', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openGame(page);
  await fixture(page, 'x7');
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await expectPhase(page, 'ready');
  await page.getByRole('button', { name: 'GO', exact: true }).click();
  await expectWheels(page, 'spinning,spinning,spinning,spinning');
  // A short spin: one second of the game's clock brings all four to rest (a normal spin
  // takes more than three and a half).
  await page.evaluate(() => window.spincake!.advance(1_000));
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(100));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  await expect(page.locator('.total-value')).toHaveText(euros(700));
  expect(await stripChangesOverTime(page)).toBe(false);
  // The winning segments glow steadily: the outer wheels' cursor segments do not pulse.
  expect(await changesOverTime(page, OUTER_CURSOR_SEGMENTS[0])).toBe(false);
  expect(await changesOverTime(page, OUTER_CURSOR_SEGMENTS[1])).toBe(false);
});

test('without reduced motion, the spins are long and sprinkles fall on a win', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await openGame(page);
  await fixture(page, 'x7');
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await expectPhase(page, 'ready');
  await page.getByRole('button', { name: 'GO', exact: true }).click();
  await page.evaluate(() => window.spincake!.advance(1_000));
  await expectWheels(page, 'spinning,spinning,spinning,spinning');
  await page.evaluate(() => window.spincake!.finishSpins());
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(100));
  expect(await stripChangesOverTime(page)).toBe(true);
  // Without reduced motion the glow of a winning cursor segment pulses.
  const pulses = await Promise.all(OUTER_CURSOR_SEGMENTS.map((clip) => changesOverTime(page, clip)));
  expect(pulses).toContain(true);
});

/** Desktop 1280×720: the segments under the cursors of wheels 1 and 4, beside the result card. */
const OUTER_CURSOR_SEGMENTS = [
  { x: 110, y: 200, width: 140, height: 110 },
  { x: 1030, y: 200, width: 140, height: 110 },
] as const;

/**
 * Whether the band of the table between the header and the wheels' cursors changes
 * while the game's clock moves on: falling sprinkles cross it, nothing else moves there.
 */
async function stripChangesOverTime(page: Page): Promise<boolean> {
  return changesOverTime(page, { x: 360, y: 8, width: 560, height: 48 });
}

/** Whether this part of the page changes while the game's clock moves on. */
async function changesOverTime(
  page: Page,
  clip: { x: number; y: number; width: number; height: number },
): Promise<boolean> {
  let previous = await page.screenshot({ clip });
  for (let i = 0; i < 10; i++) {
    await page.evaluate(() => window.spincake!.advance(150));
    const next = await page.screenshot({ clip });
    if (!next.equals(previous)) return true;
    previous = next;
  }
  return false;
}

interface Contrast {
  what: string;
  ratio: number;
  /** 4.5:1 for every text, large or not (the art brief asks more than WCAG's 3:1 for large text). */
  needed: number;
}

/**
 * WCAG 2 contrast of each text against the first opaque background behind it
 * (elements over a gradient or the canvas are skipped: they have no single colour).
 */
async function contrasts(page: Page, selectors: string[]): Promise<Contrast[]> {
  // Colours are read once CSS transitions and finite animations (a card fading in) are over.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  return page.evaluate((sels) => {
    const parse = (c: string) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a] = m[1]!.split(/[ ,/]+/).map(Number);
      return { r: r!, g: g!, b: b!, a: a ?? 1 };
    };
    const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const ch = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const out: { what: string; ratio: number; needed: number }[] = [];
    for (const sel of sels) {
      for (const node of document.querySelectorAll<HTMLElement>(sel)) {
        // Inactive controls are exempt (WCAG 1.4.3).
        if (!node.textContent?.trim() || node.getClientRects().length === 0 || node.matches(':disabled')) continue;
        const style = getComputedStyle(node);
        const fg = parse(style.color);
        let bg = null;
        for (let e: HTMLElement | null = node; e; e = e.parentElement) {
          const s = getComputedStyle(e);
          const c = parse(s.backgroundColor);
          if (c && c.a >= 1) {
            bg = c;
            break;
          }
          if (s.backgroundImage !== 'none' || (c && c.a > 0)) break;
        }
        if (!fg || !bg) continue;
        // Text drawn semi-transparent (or under an opacity) is blended with its background.
        let opacity = fg.a;
        for (let e: HTMLElement | null = node; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
        const blend = (f: number, b: number) => f * opacity + b * (1 - opacity);
        const seen = { r: blend(fg.r, bg.r), g: blend(fg.g, bg.g), b: blend(fg.b, bg.b) };
        const l1 = Math.max(lum(seen), lum(bg));
        const l2 = Math.min(lum(seen), lum(bg));
        const ratio = (l1 + 0.05) / (l2 + 0.05);
        out.push({ what: `${sel}: ${node.textContent.trim().slice(0, 30)}`, ratio, needed: 4.5 });
      }
    }
    return out;
  }, selectors);
}

test('text contrast: at least 4.5:1 for every text', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x7');
  const checked: Contrast[] = [];
  checked.push(...(await contrasts(page, ['.balance-label', '.balance-value', '.stake', '.play', '.message'])));
  await page.getByRole('button', { name: 'Jouer', exact: true }).click();
  await expectPhase(page, 'ready');
  checked.push(...(await contrasts(page, ['.go'])));
  await page.getByRole('button', { name: 'GO', exact: true }).click();
  await page.evaluate(() => window.spincake!.finishSpins());
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  checked.push(
    ...(await contrasts(page, [
      '.result-title',
      '.result-game',
      '.result-detail',
      '.result-win',
      '.total-label',
      '.total-value',
      '.result-card .play',
    ])),
  );
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await page.getByRole('button', { name: 'Historique' }).click();
  await expect(page.locator('#history-panel li')).toHaveCount(1);
  checked.push(
    ...(await contrasts(page, [
      '#history-panel h2',
      '.history-date',
      '.history-stake',
      '.history-win',
      '.history-cursors',
    ])),
  );
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Règlement' }).click();
  checked.push(...(await contrasts(page, ['#rules-panel h2', '#rules-panel h3', '#rules-panel p', '#rules-panel td'])));
  expect(checked.length).toBeGreaterThan(15);
  const weak = checked.filter((c) => c.ratio < c.needed).map((c) => `${c.what} ${c.ratio.toFixed(2)}`);
  expect(weak).toEqual([]);
});

test('focus follows the next action; the result card is a modal dialog; the loading screen is gone', async ({
  page,
}) => {
  await openGame(page);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await fixture(page, 'x2');
  await tabTo(page, 'Jouer');
  await page.keyboard.press('Enter');
  await expectPhase(page, 'ready');
  await expect(page.getByRole('button', { name: 'GO', exact: true })).toBeFocused();
  const play = await lastPlay(page);
  await expect(announcements(page).last()).toHaveText(
    `Mise de ${euros(play.stakeCents)} payée. Nouveau solde : ${euros(play.balanceBeforeCents - play.stakeCents)}. Les roues peuvent être lancées : GO.`,
  );

  await tabTo(page, 'GO roue 1', 'Shift+Tab');
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'GO roue 2' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'GO roue 3' })).toBeFocused();
  await tabTo(page, 'GO');
  await page.keyboard.press('Enter');
  await page.evaluate(() => window.spincake!.finishSpins());
  await expectPhase(page, 'revealed');
  await page.evaluate(() => window.spincake!.advance(8_000));

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  const again = dialog.getByRole('button', { name: 'Nouvelle partie' });
  await expect(again).toBeFocused();
  // Tab and Shift+Tab stay in the card.
  for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Tab', 'Tab', 'Tab']) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  // Nothing behind it can be reached: the panels do not open over it.
  await page.getByRole('button', { name: 'Historique' }).click({ force: true });
  await expect(page.locator('#history-panel')).toBeHidden();
  await page.keyboard.press('Escape');
  await expectPhase(page, 'idle');
  await expect(dialog).toHaveCount(0);
  await expect(playButtonOf(page)).toBeFocused();
});

const playButtonOf = (page: Page) => page.getByRole('button', { name: 'Jouer', exact: true });

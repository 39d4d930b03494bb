import { expect, test } from '@playwright/test';
import { fr } from '../src/client/i18n/fr.ts';
import { formatCount } from '../src/rules/money.ts';
import {
  body,
  buy,
  euros,
  expectPhase,
  fixture,
  goAll,
  lastPlay,
  openGame,
  playButton,
  revealAll,
  stake,
} from './game.ts';

/** What a player sees of a round's result, of the rules and of the history (issue 15). */

test('the card lists the four segments under the cursors, and folds to show the wheels', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x1');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const play = await lastPlay(page);
  const dialog = page.getByRole('dialog');
  // 1 € won on a 1 € stake: said honestly.
  await expect(dialog.getByRole('heading')).toHaveText('Mise remboursée');
  const segments = dialog.getByRole('list', { name: 'Sous les curseurs' }).getByRole('listitem');
  await expect(segments).toHaveCount(4);
  for (const [i, w] of play.wheels.entries()) {
    const s = w.segments[w.stop]!;
    await expect(segments.nth(i)).toHaveText(`Roue ${i + 1}${s.points} points${fr.symbols[s.symbol]}`);
  }
  await expect(dialog.locator('.total-value')).toHaveText(euros(play.winCents));

  await dialog.getByRole('button', { name: 'Voir les roues' }).click();
  await expect(dialog.getByRole('button', { name: 'Voir le résultat' })).toHaveAttribute('aria-pressed', 'true');
  await expect(segments.first()).toBeHidden();
  // Folded, the card stays below the wheels: none of the four is covered.
  const card = await dialog.boundingBox();
  const faces = await page.locator('.wheel-go').evaluateAll((gos) => gos.map((g) => g.getBoundingClientRect().top));
  for (const top of faces) expect(card!.y).toBeGreaterThanOrEqual(top - 1);
  await dialog.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
});

test('a win bigger than the stake is « Gagné ! »; a losing unit is not', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x2');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await expect(page.getByRole('dialog').getByRole('heading')).toHaveText('Gagné !');
  await page.keyboard.press('Escape');
  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  await expect(page.getByRole('dialog').getByRole('heading')).toHaveText(fr.lostTitle);
});

test('a reload brings back the last result and the stake picked', async ({ page }) => {
  await openGame(page);
  await stake(page, 3).click();
  await fixture(page, 'x7');
  await buy(page);
  await goAll(page).click();
  await revealAll(page);
  const play = await lastPlay(page);
  expect(play.stakeCents).toBe(300);

  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.advance(8_000));
  await expectPhase(page, 'revealed');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.total-value')).toHaveText(euros(play.winCents));
  expect(await page.evaluate(() => window.spincake!.cursors())).toEqual(play.wheels.map((w) => w.stop));
  await expect(page.locator('[aria-live="polite"] p').first()).toHaveText(fr.lastResultNotice);
  await dialog.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
  await expect(stake(page, 3)).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await expectPhase(page, 'idle');
  await expect(stake(page, 3)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the rules give every stake’s lots with their total line, JEU 1 and JEU 2 at every stake, odds and payout', async ({
  page,
}) => {
  await openGame(page);
  await page.getByRole('button', { name: 'Règlement' }).click();
  const panel = page.getByRole('dialog', { name: 'Règlement' });
  for (const [stakeEuros, total] of [
    [1, '700 000'],
    [2, '1 400 000'],
    [3, '2 100 000'],
    [5, '3 500 000'],
  ] as const) {
    const block = panel.locator('section.rules-block', {
      has: page.getByRole('heading', { name: `Bloc d’unités de jeu à ${stakeEuros}\u00a0€` }),
    });
    await expect(block.getByRole('row')).toHaveCount(10);
    await expect(block.locator('tfoot')).toHaveText(
      `251\u00a0119 lots formant un total de${total.replace(/ /g, '\u00a0')}\u00a0€`,
    );
    const x = (n: number) => euros(n * stakeEuros * 100);
    await expect(block.locator('.rules-note')).toContainText(`Les montants de ${x(20_000)}, de ${x(7)} et de ${x(1)}`);
  }
  const jeu1 = panel.getByRole('table').first();
  await expect(jeu1.getByRole('columnheader')).toHaveText([
    'Vous découvrez',
    'Mise 1\u00a0€',
    'Mise 2\u00a0€',
    'Mise 3\u00a0€',
    'Mise 5\u00a0€',
  ]);
  await expect(jeu1.getByRole('row', { name: /^4 cloches/ })).toHaveText(
    ['4 cloches', euros(1_000_000), euros(2_000_000), euros(3_000_000), euros(5_000_000)].join(''),
  );
  const jeu2 = panel.getByRole('table').nth(1);
  await expect(jeu2.getByRole('row')).toHaveCount(9);
  await expect(panel).toContainText('Chances de gain : 1 sur 3,98. Taux de retour aux joueurs : 70 %.');
});

test('history: ticket reference, both games, the four segments in points; a live round keeps its result', async ({
  page,
}) => {
  await openGame(page);
  await fixture(page, 'x7');
  await buy(page);
  const play = await lastPlay(page);
  // Bought, wheels standing: the history has the play but not its result.
  await page.getByRole('button', { name: 'Historique' }).click();
  const panel = page.getByRole('dialog', { name: 'Historique' });
  const row = panel.locator(`li[data-play-id="${play.playId}"]`);
  await expect(row).toContainText(`Réf. ticket : ${play.playId}`);
  await expect(row).toContainText('Résultat affiché à l’arrêt des quatre roues.');
  await expect(row).not.toContainText(euros(play.winCents));
  await expect(panel.locator('.session-line')).toContainText(`Mises : ${euros(play.stakeCents)}`);
  await page.keyboard.press('Escape');

  await goAll(page).click();
  await revealAll(page);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Historique' }).click();
  await expect(row).toContainText(`Gain ${euros(play.winCents)}`);
  await expect(row).toContainText(`JEU 1 : 2 cloches, ${euros(500)}`);
  await expect(row).toContainText(`JEU 2 : ${formatCount(play.jeu2.points)} points, ${euros(200)}`);
  const s = play.wheels.map((w) => w.segments[w.stop]!);
  await expect(row.locator('.history-cursors')).toHaveText(
    `Sous les curseurs : ${s.map((x) => `${formatCount(x.points)} points (${fr.symbols[x.symbol]})`).join(' · ')}`,
  );
  await expect(panel.locator('.session-line')).toContainText(
    `Résultat net : +${euros(play.winCents - play.stakeCents)}`,
  );
  // Opening the entry replays that unit's wheels (the row's own control, not its « Vérifier ce ticket »).
  await row.locator('> [role="button"]').click();
  await expectPhase(page, 'replay');
});

test('a tap on the table or Space lands the turning wheels on the server’s stops, braking for 0.2 s', async ({
  page,
}) => {
  await openGame(page);
  await fixture(page, 'x2');
  await buy(page);
  await goAll(page).click();
  await page.evaluate(() => window.spincake!.advance(1_500));
  await expect(body(page)).toHaveAttribute('data-wheels', 'spinning,spinning,spinning,spinning');
  await page.locator('.canvas-host').click({ position: { x: 5, y: 300 } });
  // A slam-stop decelerates: still turning a frame later, at rest on the stops 0.2 s later.
  await page.evaluate(() => window.spincake!.advance(100));
  await expect(body(page)).toHaveAttribute('data-wheels', 'spinning,spinning,spinning,spinning');
  await page.evaluate(() => window.spincake!.advance(120));
  await expectPhase(page, 'revealed');
  const play = await lastPlay(page);
  expect(await page.evaluate(() => window.spincake!.cursors())).toEqual(play.wheels.map((w) => w.stop));
  await page.evaluate(() => window.spincake!.advance(8_000));
  await page.keyboard.press('Escape');

  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await expect(body(page)).toHaveAttribute('data-wheels', 'spinning,spinning,spinning,spinning');
  await page.keyboard.press('Space');
  await page.evaluate(() => window.spincake!.advance(220));
  await expectPhase(page, 'revealed');
});

test('« Rotation rapide »: a switch, remembered; a round in three actions, the wheels on the server’s stops in 1.1 s of game time, the card 0.15 s later', async ({
  page,
}) => {
  await openGame(page);
  const quick = page.getByRole('switch', { name: 'Rotation rapide' });
  await expect(quick).toHaveAttribute('aria-checked', 'false');
  // At the full pace the wheels still turn after 1.1 s: the quick check below can fail.
  await fixture(page, 'lose');
  await buy(page);
  await goAll(page).click();
  await page.evaluate(() => window.spincake!.advance(1_100));
  await expectPhase(page, 'spinning');
  await revealAll(page);
  await page.keyboard.press('Escape');
  await expectPhase(page, 'idle');

  await quick.click();
  await expect(quick).toHaveAttribute('aria-checked', 'true');
  await page.reload();
  await expect(body(page)).toHaveAttribute('data-ready', 'true');
  await page.evaluate(() => window.spincake!.freeze());
  await expect(quick).toHaveAttribute('aria-checked', 'true');

  // Three actions: « Jouer », GO, « Nouvelle partie »; the clock only moves between them.
  await fixture(page, 'x2');
  await playButton(page).click();
  await expectPhase(page, 'ready');
  await goAll(page).click();
  await page.evaluate(() => window.spincake!.advance(1_100));
  await expectPhase(page, 'revealed');
  // The card a beat after the last wheel rests (a wheel's rest is seen once the clock stops).
  await page.evaluate(() => window.spincake!.advance(150));
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const play = await lastPlay(page);
  expect(await page.evaluate(() => window.spincake!.cursors())).toEqual(play.wheels.map((w) => w.stop));
  await page.evaluate(() => window.spincake!.advance(2_000));
  await expect(body(page)).toHaveAttribute('data-overlay', 'shown');
  await expect(dialog.locator('.total-value')).toHaveText(euros(play.winCents));
  await dialog.getByRole('button', { name: 'Nouvelle partie' }).click();
  await expectPhase(page, 'idle');
  await expect(playButton(page)).toBeFocused();

  // Off again, and kept off.
  await quick.click();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Rotation rapide' })).toHaveAttribute('aria-checked', 'false');
});

test('the page loads without a console error (the favicon is served)', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await openGame(page);
  const icon = await page.request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(errors).toEqual([]);
});

import { expect, test, type Page } from '@playwright/test';
import type { BlocksResponse, TicketProofResponse } from '../src/contract/api.ts';
import { fixture, lastPlay, openGame, playRoundToIdle } from './game.ts';

/** « Vérifier ce ticket »: the browser checks the play’s proof itself (src/proofs), trusting the server for nothing. */

async function checkInHistory(page: Page, playId: string) {
  await page.getByRole('button', { name: 'Historique' }).click();
  return checkAgain(page, playId);
}

/** « Vérifier ce ticket » on the play's row of the open history panel; its result once shown. */
async function checkAgain(page: Page, playId: string) {
  const row = page.locator(`#history-panel li[data-play-id="${playId}"]`);
  await row.getByRole('button', { name: 'Vérifier ce ticket' }).click();
  const result = row.locator('.ticket-check');
  // The server computes each block's commitment once (about a second of CPU each) after it starts.
  await expect(result).toBeVisible({ timeout: 60_000 });
  return result;
}

const CHECKS = ['shape', 'lot', 'leaf', 'path', 'published', 'play'];
/** The transparency log's part of the proof, checked in the browser too (docs/fairness.md). */
const LOG_CHECKS = ['entry', 'inclusion', 'signature', 'key', 'head time', 'played at'];

test('a ticket from a block is checked in the browser against the published root, in plain French', async ({
  page,
}) => {
  await openGame(page);
  await playRoundToIdle(page);
  const play = await lastPlay(page);
  const result = await checkInHistory(page, play.playId);
  await expect(result).toHaveAttribute('data-result', 'verified');
  await expect(result.locator('.ticket-check-summary')).toContainText('Ticket vérifié : c’est le ticket n°');
  for (const name of CHECKS) await expect(result.locator(`li[data-check="${name}"]`)).toHaveClass('ok');
  // Written for players (issue 31): no « feuille », no « racine ».
  await expect(result.locator('li[data-check="path"]')).toHaveText(
    '✓ Ce ticket est bien celui prévu dans le bloc publié avant la vente.',
  );
  await expect(result).not.toContainText(/feuille|racine/);
  const button = (await page.getByRole('button', { name: 'Vérifier ce ticket' }).first().boundingBox())!;
  expect(Math.min(button.width, button.height)).toBeGreaterThanOrEqual(44);
  await expect(result.locator('li[data-check="published"]')).toHaveText(
    '✓ Le bloc est bien celui que le jeu a publié avant sa première vente.',
  );
  for (const name of LOG_CHECKS) await expect(result.locator(`li[data-check="${name}"]`)).toHaveClass('ok');
  await expect(result.locator('li[data-check="head time"]')).toHaveText(
    '✓ Cet état du journal a été signé avant la vente du ticket.',
  );
});

test('a proof changed on its way, or a root that is not the published one, is reported as such', async ({ page }) => {
  await openGame(page);
  await playRoundToIdle(page);
  const play = await lastPlay(page);

  // The server (or anyone between) sends a unit with another lot: the faces do not give it.
  await page.route('**/api/plays/*/proof', async (route) => {
    const response = await route.fetch();
    const proof = (await response.json()) as TicketProofResponse;
    await route.fulfill({ response, json: { ...proof, lotCents: proof.lotCents + 100_000 } });
  });
  let result = await checkInHistory(page, play.playId);
  await expect(result).toHaveAttribute('data-result', 'refuted');
  await expect(result.locator('.ticket-check-summary')).toHaveText(
    'Vérification échouée : ce ticket ne correspond pas à l’engagement publié.',
  );
  for (const name of ['lot', 'leaf', 'path', 'play'])
    await expect(result.locator(`li[data-check="${name}"]`)).toHaveClass('failed');

  // A right proof against a different published root.
  await page.unroute('**/api/plays/*/proof');
  await page.route('**/api/blocks', async (route) => {
    const response = await route.fetch();
    const listed = (await response.json()) as BlocksResponse;
    await route.fulfill({
      response,
      json: {
        blocks: listed.blocks.map((b) => ({ ...b, root: b.root.replace(/^./, (c) => (c === '0' ? '1' : '0')) })),
      },
    });
  });
  await page.getByRole('button', { name: 'Fermer' }).click();
  result = await checkInHistory(page, play.playId);
  await expect(result).toHaveAttribute('data-result', 'refuted');
  await expect(result.locator('li.failed')).toHaveCount(1);
  await expect(result.locator('li[data-check="published"]')).toHaveText(
    '✗ Le bloc n’est pas celui que le jeu a publié avant sa première vente.',
  );
});

test('a test unit, from no block, says it has no proof', async ({ page }) => {
  await openGame(page);
  await fixture(page, 'x7');
  await playRoundToIdle(page);
  const play = await lastPlay(page);
  const result = await checkInHistory(page, play.playId);
  await expect(result).toHaveAttribute('data-result', 'no-proof');
  await expect(result).toHaveText('Ce ticket ne vient d’aucun bloc (partie de test) : il n’a pas de preuve.');
});

test('the check’s code comes with the first check: when the network drops it, the row says so and a retry checks', async ({
  page,
}) => {
  await openGame(page);
  await playRoundToIdle(page);
  const play = await lastPlay(page);
  const checkCode = /\/assets\/ticketCheck-[\w-]+\.js$/;
  let dropped = 0;
  await page.route(checkCode, (route) => {
    dropped++;
    return route.abort('internetdisconnected');
  });
  const result = await checkInHistory(page, play.playId);
  expect(dropped).toBe(1);
  await expect(result).toHaveAttribute('data-result', 'failed');
  await expect(result).toHaveText('Vérification impossible sans réseau. Vérifiez votre connexion puis réessayez.');

  await page.unroute(checkCode);
  // The failed line shows until the check's answer replaces it.
  await expect(await checkAgain(page, play.playId)).toHaveAttribute('data-result', 'verified', { timeout: 60_000 });
});

import { expect, test } from '@playwright/test';
import type { SignedTreeHeadResponse } from '../src/contract/api.ts';
import { formatCount } from '../src/rules/money.ts';
import { openGame } from './game.ts';

/** Gossip (docs/fairness.md): the history panel says which transparency log head this page saw. */
test('the history panel shows the log head this page saw: its size and the start of its hash', async ({ page }) => {
  await openGame(page);
  await page.getByRole('button', { name: 'Historique' }).click();
  const line = page.locator('#history-panel .log-head');
  await expect(line).toHaveAttribute('data-tree-size', /^\d+$/);
  const seen = {
    size: Number(await line.getAttribute('data-tree-size')),
    hash: await line.getAttribute('data-root-hash'),
  };
  const response = await page.request.get('/api/transparency/head');
  const head = (await response.json()) as SignedTreeHeadResponse;
  // The log only grows: a head signed since may be larger (a block logged meanwhile); the same size has the same root.
  expect(head.treeSize).toBeGreaterThanOrEqual(seen.size);
  if (head.treeSize === seen.size) expect(seen.hash).toBe(head.rootHash);
  const count = formatCount(seen.size, 'fr');
  await expect(line).toHaveText(
    `Journal public des blocs vu ici\u202f: ${count}\u00a0entrées, empreinte ${seen.hash!.slice(0, 16)}… (la même pour tous les joueurs, à comparer)`,
  );
});

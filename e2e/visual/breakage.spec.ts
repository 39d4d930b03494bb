import { balance, euros, setBalance } from '../game.ts';
import { baselinePath, expect, idleWithStake, maxDiffPixels, pixelsOffBaseline, test } from './visual.ts';

/**
 * The suite must fail when the picture changes. Starting from a committed baseline
 * state (the idle table at 1 €), this breaks a copy of it three ways — a colour, a
 * segment turned by 3°, a wrong amount — and checks that each would exceed the same
 * tolerance the baselines are compared with, while the unbroken state stays within it.
 */
test('a changed colour, a moved segment and a wrong amount all fail the comparison', async ({ page }, info) => {
  // An update run is rewriting the baselines this test reads; it checks them on the next run.
  test.skip(info.config.updateSnapshots === 'all' || info.config.updateSnapshots === 'changed', 'updating baselines');
  const baseline = baselinePath(info, 'idle-stake-1');
  const limit = maxDiffPixels(info);
  const off: Record<string, number> = {};
  const measure = async (what: string) => {
    off[what] = await pixelsOffBaseline(page, baseline);
    info.annotations.push({ type: 'pixels off baseline', description: `${what}: ${off[what]} (limit ${limit})` });
    return off[what];
  };

  await idleWithStake(page, 1);
  expect(await measure('unbroken'), 'the unbroken state matches its baseline').toBeLessThanOrEqual(limit);

  await test.step('a changed colour: the balance label', async () => {
    const style = await page.addStyleTag({ content: '.balance-label { color: #7fd3c4 !important; }' });
    expect(await measure('colour')).toBeGreaterThan(limit);
    await style.evaluate((node) => (node as HTMLStyleElement).remove());
    expect(await measure('colour undone')).toBeLessThanOrEqual(limit);
  });

  await test.step('a moved segment: wheel 1 turned by 3°', async () => {
    await page.evaluate(() => window.spincake!.turnWheel(0, 3));
    expect(await measure('turned 3°')).toBeGreaterThan(limit);
    await page.evaluate(() => window.spincake!.turnWheel(0, -3));
    expect(await measure('turned back')).toBeLessThanOrEqual(limit);
  });

  await test.step('a wrong amount: 106 € instead of 100 €', async () => {
    await setBalance(page, 10_600);
    await idleWithStake(page, 1);
    await expect(balance(page)).toHaveText(euros(10_600));
    expect(await measure('amount')).toBeGreaterThan(limit);
  });
});

import { describe, expect, it } from 'vitest';
import type { StakeCents } from '../../rules/index.ts';
import { ON_SALE_FRESH_MS, StakesOnSale } from './stakesOnSale.ts';

/** A store whose stakes with units the test sets, counting how often it is asked. */
function storeWith(initial: StakeCents[]) {
  const store = {
    stakes: new Set<StakeCents>(initial),
    asked: 0,
    async stakesWithUnits() {
      store.asked++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return new Set(store.stakes);
    },
  };
  return store;
}

describe('StakesOnSale', () => {
  it('trusts a stake seen on sale for a moment, then asks the store again', async () => {
    const store = storeWith([100, 200]);
    let now = 0;
    const onSale = new StakesOnSale(store, 'real', () => now);
    expect(await onSale.has(100)).toBe(true);
    store.stakes.delete(100);
    now += ON_SALE_FRESH_MS - 1;
    expect(await onSale.has(100)).toBe(true);
    expect(await onSale.has(200)).toBe(true);
    expect(store.asked).toBe(1);
    now += 1;
    expect(await onSale.has(100)).toBe(false);
    expect(store.asked).toBe(2);
  });

  it('asks every time about a stake seen without units, so a block put on sale sells at once', async () => {
    const store = storeWith([100]);
    const onSale = new StakesOnSale(store, 'real', () => 0);
    expect(await onSale.has(500)).toBe(false);
    expect(await onSale.has(500)).toBe(false);
    store.stakes.add(500);
    expect(await onSale.has(500)).toBe(true);
    expect(store.asked).toBe(3);
  });

  it('shares one query among the plays that ask at once', async () => {
    const store = storeWith([300]);
    const onSale = new StakesOnSale(store, 'real', () => 0);
    const answers = await Promise.all([onSale.has(300), onSale.has(300), onSale.has(100)]);
    expect(answers).toEqual([true, true, false]);
    expect(store.asked).toBe(1);
  });
});

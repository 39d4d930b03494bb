import type { StakeCents } from '../../rules/index.ts';
import type { BlockBook, BlockPool } from '../store/types.ts';

/** How long a stake seen with units left is taken to still have some. */
export const ON_SALE_FRESH_MS = 250;

/**
 * Whether a stake has a unit left in the pool, asked before a bet is sent so that no bet goes out for a
 * stake sold out. A stake seen on sale is trusted for a moment without asking the store again
 * (one query per stake every 250 ms instead of one per play): if it sold out meanwhile, the
 * sale answers SOLD_OUT and the bet is rolled back, as when two plays race for the last unit.
 * A stake seen without units is asked again every time, so a block put on sale sells at once.
 */
export class StakesOnSale {
  private readonly freshUntil = new Map<StakeCents, number>();
  private asking: Promise<Set<StakeCents>> | null = null;

  constructor(
    private readonly store: Pick<BlockBook, 'stakesWithUnits'>,
    private readonly pool: BlockPool,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async has(stakeCents: StakeCents): Promise<boolean> {
    if ((this.freshUntil.get(stakeCents) ?? -Infinity) > this.now()) return true;
    // Plays that ask at once share one query.
    this.asking ??= this.store.stakesWithUnits(this.pool).finally(() => (this.asking = null));
    const stakes = await this.asking;
    const until = this.now() + ON_SALE_FRESH_MS;
    this.freshUntil.clear();
    for (const stake of stakes) this.freshUntil.set(stake, until);
    return stakes.has(stakeCents);
  }
}

import { unitForPair } from '../../emission/index.ts';
import type { PairKey } from '../../rules/index.ts';
import { seededRandom } from '../seededRandom.ts';
import type { BuyRequest, BuyResult, Store } from '../store/types.ts';
import { createTestBook, type TestBook } from './testBook.ts';

/**
 * The unit pair a player's next play will show, and the seed that lays it out (the
 * playId when none is given; a fixed seed gives the same faces every run).
 */
export interface Fixture {
  pair: PairKey;
  seed?: string;
}

/** Per player, the fixture waiting for their next play (set by POST /api/test/fixture). */
export type Fixtures = Map<string, Fixture>;

/** The store as test mode decorates it: the test-only writes beside the store's parts. */
export type TestModeStore = Store & TestBook;

/**
 * The store the routes use in test mode: a play takes the player's pending fixture and
 * sells its unit instead of the block's next one; a refused or replayed play gives the
 * fixture back (unless a new one was set meanwhile). It adds the test-only writes
 * (TestBook), built on the store's dialect; every other method is the store's.
 */
export function withFixtures(store: Store, fixtures: Fixtures): TestModeStore {
  const testBook = createTestBook(store.dialect);
  const buyPlay = async (request: BuyRequest): Promise<BuyResult> => {
    const { playerId } = request;
    const fixture = fixtures.get(playerId);
    if (fixture === undefined) return store.buyPlay(request);
    fixtures.delete(playerId);
    const fixtureUnit = unitForPair(fixture.pair, request.stakeCents, seededRandom(fixture.seed ?? request.playId));
    const result = await store.buyPlay({ ...request, fixtureUnit });
    if ((!result.ok || result.replayed) && !fixtures.has(playerId)) fixtures.set(playerId, fixture);
    return result;
  };
  return new Proxy(store as TestModeStore, {
    get(target, key) {
      if (key === 'buyPlay') return buyPlay;
      if (Object.hasOwn(testBook, key)) return testBook[key as keyof TestBook];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

import type { Store } from '../store/types.ts';
import { createTestBook, type TestBook } from '../testMode/testBook.ts';

/** The test-only writes (src/server/testMode/testBook.ts) on a store that tests opened. */
export function testBook(store: Pick<Store, 'dialect'>): TestBook {
  return createTestBook(store.dialect);
}

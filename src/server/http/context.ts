import type { BlockLibrary } from '../blocks/blockLibrary.ts';
import type { ServerConfig } from '../config.ts';
import type { ApiServer } from './apiServer.ts';
import type { SaleRoom } from '../sale/saleRoom.ts';
import type { SalesCalendar } from '../salesWindow/salesCalendar.ts';
import type { SessionKeyring } from '../sessions/sessionKeys.ts';
import type { SessionRegistry } from '../sessions/sessionRegistry.ts';
import type { BlockBook, PlayBook, PlayerBook, Store } from '../store/types.ts';
import type { BlockPublication } from '../transparency/publication.ts';
import type { OperatorWallet } from '../operatorWallet/operatorWallet.ts';

/** What the routes share. */
export interface AppContext {
  config: ServerConfig;
  /** The parts of the store that the routes read and write (the rest goes through the rooms). */
  store: PlayerBook & PlayBook & BlockBook;
  library: BlockLibrary;
  /** Blocks' commitments logged in the transparency log before any sale, and the tickets' log part. */
  publication: BlockPublication;
  sales: SalesCalendar;
  /** Sign and check session tokens (never stored in the database). */
  sessionKeys: SessionKeyring;
  /** Logouts, idle sessions and used launch tokens, shared by every instance. */
  sessions: SessionRegistry;
  clock: () => Date;
  /** Portal players' money at the operator (WALLET_URL set); null: every player on the game's ledger. */
  wallet: OperatorWallet | null;
  /** The one sale path: a play's purse and pool chosen once, the roots awaited, the unit sold. */
  sale: SaleRoom;
}

/**
 * Something plugged into the app from outside it (test mode is the one such today): it
 * may decorate the store the routes use, and add routes once the API's own are in place.
 * Both run once, while the app is built: an extension costs nothing per request beyond
 * what its own decorator does.
 */
export interface AppExtension {
  /** Wraps the store the routes use (the server keeps the store it opened, to close it). */
  wrapStore?(store: Store): Store;
  /** Adds routes, with the context the API's routes share. */
  register?(app: ApiServer, ctx: AppContext): void;
}

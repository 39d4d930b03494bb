/**
 * The API's stable error codes. A module of its own, without the schema library, so that
 * the browser can import this list as a value (the client imports everything else of the
 * contract with `import type`, which leaves nothing in its bundle).
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'NO_SESSION',
  'INSUFFICIENT_BALANCE',
  'SALES_CLOSED',
  'SOLD_OUT',
  'PLAY_ID_REUSED',
  'NOT_FOUND',
  'RATE_LIMITED',
  /** The operator's wallet refused the stake: a responsible-gaming limit of the account. */
  'LIMIT_REACHED',
  /** The operator's wallet refused the stake: the account is blocked. */
  'PLAYER_BLOCKED',
  /** The operator's wallet did not answer in time: nothing was sold; retry. */
  'WALLET_UNAVAILABLE',
  /** An unexpected server fault (HTTP 500); nothing was changed. */
  'INTERNAL',
  /** The request was not received in full in time (HTTP 408); nothing was changed. */
  'REQUEST_TIMEOUT',
  /** This server is stopping (HTTP 503): the request was not run; retry (another instance answers). */
  'SHUTTING_DOWN',
  /** « Recharger la démo » is for a demo player's play money only: never real money (HTTP 403). */
  'DEMO_ONLY',
  /** « Recharger la démo » while the demo balance still pays the smallest stake (HTTP 409): nothing changed. */
  'BALANCE_NOT_LOW',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Which failures of a play transaction may be retried under the same playIds. A retry
 * is always safe: the transaction either committed nothing, or committed everything and
 * the retry finds the plays and replays them (a connection lost during COMMIT).
 */
const RETRY_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '57P01', // admin_shutdown (pg_terminate_backend, fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
]);

/** Errors of the socket under the connection: the server never saw or never answered. */
const CONNECTION_ERRNOS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH']);

interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

export function isRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as PgLikeError;
  if (typeof e.code === 'string') {
    if (RETRY_SQLSTATES.has(e.code) || CONNECTION_ERRNOS.has(e.code)) return true;
    // Another instance committed the same playId first: the retry replays its play.
    if (e.code === '23505' && e.constraint === 'plays_play_id_key') return true;
  }
  // node-postgres reports a socket closed under it without a code.
  return typeof e.message === 'string' && /Connection terminated|connection error|not queryable/i.test(e.message);
}

/** Is the connection itself unusable after this error (so that the pool must drop it)? */
export function isConnectionLoss(error: unknown): boolean {
  if (!isRetryable(error)) return false;
  const code = (error as PgLikeError).code;
  return code !== '40001' && code !== '40P01' && code !== '23505';
}

export const MAX_ATTEMPTS = 12;

/** Backoff with jitter: short enough for a deadlock, long enough to ride out a server restart (~10 s in all). */
export function retryDelayMs(attempt: number): number {
  const base = Math.min(2000, 5 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

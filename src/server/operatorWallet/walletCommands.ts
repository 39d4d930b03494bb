import { getFullStatement } from '../../walletApi/client.ts';
import type { WalletSettings } from '../config.ts';
import type { WalletBook } from '../store/types.ts';
import { reconcile, type ReconcileLine } from './reconcile.ts';

/** `npm run ops -- wallet-pending` and `… reconcile`: what operators run against the game's database. */

type Print = (line: string) => void;

const euros = (cents: number | null) => (cents === null ? '—' : (cents / 100).toFixed(2));

/** Owed calls and bets without an outcome; exit code 1 when some need a person (`failed`). */
export async function walletPendingCommand(store: WalletBook, json: boolean, print: Print): Promise<number> {
  const outbox = await store.unsettledOutbox();
  const bets = await store.unresolvedWalletBets();
  const failed = outbox.filter((e) => e.state === 'failed').length;
  if (json) {
    print(JSON.stringify({ outbox, bets }));
  } else {
    for (const e of outbox) {
      print(
        `${e.state === 'failed' ? 'FAILED ' : 'PENDING'} ${e.kind.padEnd(8)} ${e.requestId} round ${e.playId} ` +
          `player ${e.walletPlayerId} ${euros(e.amountCents)} € attempts ${e.attempts} ` +
          (e.state === 'failed' ? `answered ${e.answerStatus}` : `next ${e.nextAttemptAt}`) +
          (e.lastError ? ` last error: ${e.lastError}` : ''),
      );
    }
    for (const b of bets) {
      print(
        `SENDING bet      ${b.requestId} round ${b.playId} player ${b.walletPlayerId} ${euros(b.stakeCents)} € ` +
          `rolled back after ${b.deadlineAt} if still unknown`,
      );
    }
    print(
      `wallet: ${outbox.length - failed} call(s) owed, ${failed} failed (need a person), ${bets.length} bet(s) without an outcome`,
    );
  }
  return failed > 0 ? 1 : 0;
}

/** How far before the period the wallet's log is read: a bet answered a little after the game recorded it. */
const WALLET_LOG_BEFORE_MS = 5 * 60_000;
/** How far after: wins and rollbacks answered late (retried) still belong to the period's rounds. */
const WALLET_LOG_AFTER_MS = 24 * 3_600_000;

/**
 * The period's calls against the wallet's statement. Exit code 0: every line agrees; 1:
 * some differ or are unknown to the game; 3: they agree so far, but some calls are still
 * owed (run it again once `wallet-pending` is empty); 2: the statement could not be read.
 */
export async function reconcileCommand(
  store: WalletBook,
  wallet: WalletSettings,
  period: { from: Date; to: Date },
  json: boolean,
  print: Print,
): Promise<number> {
  const { from, to } = period;
  const calls = await store.walletCalls(from, to);
  const wider = await store.walletCalls(
    new Date(from.getTime() - WALLET_LOG_AFTER_MS),
    new Date(to.getTime() + WALLET_LOG_BEFORE_MS),
  );
  const knownRequestIds = new Set([...wider.bets.map((b) => b.requestId), ...wider.outbox.map((o) => o.requestId)]);
  const logTo = new Date(Math.min(Date.now() + 1000, to.getTime() + WALLET_LOG_AFTER_MS));
  const statement = await getFullStatement(
    wallet.url,
    wallet.keyring,
    { from: new Date(from.getTime() - WALLET_LOG_BEFORE_MS), to: logTo },
    { timeoutMs: Math.max(wallet.timeoutMs, 10_000) },
  );
  if (statement.kind === 'unknown') {
    print(`reconcile: cannot read the wallet's statement: ${statement.reason}`);
    return 2;
  }
  const report = reconcile({ ...calls, knownRequestIds }, statement.transactions, from, to);
  if (json) {
    print(JSON.stringify(report));
  } else {
    for (const line of report.lines) print(format(line));
    const c = report.counts;
    print(
      `reconcile ${from.toISOString()} → ${to.toISOString()}: ${c.agree} agree, ${c.pending} pending, ` +
        `${c.differ} differ, ${c['unknown-to-game']} unknown to the game`,
    );
  }
  const c = report.counts;
  if (c.differ > 0 || c['unknown-to-game'] > 0) return 1;
  return c.pending > 0 ? 3 : 0;
}

function format(line: ReconcileLine): string {
  const status = line.status.toUpperCase().padEnd(15);
  return (
    `${status} ${line.kind.padEnd(8)} ${line.requestId} round ${line.roundId ?? '—'} player ${line.playerId} ` +
    `game ${euros(line.gameCents)} wallet ${euros(line.walletCents)} (${line.detail})`
  );
}

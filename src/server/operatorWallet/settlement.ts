import { callWallet, type WalletResult } from '../../walletApi/client.ts';
import { WALLET_CURRENCY } from '../../walletApi/contract.ts';
import type { WalletSettings } from '../config.ts';
import type { OutboxEntry, WalletBook } from '../store/types.ts';
import { retryDelayMs } from './backoff.ts';

/** What a win's or rollback's call came to, for the outbox. */
export type SettlementOutcome =
  | { kind: 'settled'; state: 'done' | 'failed'; answerStatus: string; balanceCents: number | null }
  | { kind: 'retry'; reason: string };

/**
 * A win or rollback answered `OK` is done. A final answer that settles nothing — a win on a
 * bet the wallet does not know, a rollback of a bet already paid, a request id reused —
 * will not change by sending it again: it is kept as `failed` for a person to look at
 * (`npm run ops -- wallet-pending`). No answer, or one that is not this call's (the wallet
 * refusing our signature among them: a fault of secrets or clocks that fixing them cures):
 * retried.
 */
export function settlementOutcome(result: WalletResult<'win'> | WalletResult<'rollback'>): SettlementOutcome {
  if (result.kind === 'unknown') return { kind: 'retry', reason: result.reason };
  const body = result.body;
  if (body.status === 'OK')
    return { kind: 'settled', state: 'done', answerStatus: 'OK', balanceCents: body.balanceCents };
  return { kind: 'settled', state: 'failed', answerStatus: body.status, balanceCents: null };
}

/**
 * Sends one outbox entry with its own requestId (the same every time); `recorded` settles
 * once the outcome is written to the outbox.
 */
export async function sendSettlement(
  store: WalletBook,
  settings: WalletSettings,
  entry: Pick<
    OutboxEntry,
    'requestId' | 'kind' | 'betRequestId' | 'playId' | 'walletPlayerId' | 'amountCents' | 'attempts'
  >,
  random: () => number = Math.random,
): Promise<{ outcome: SettlementOutcome; recorded: Promise<void> }> {
  const body = {
    requestId: entry.requestId,
    playerId: entry.walletPlayerId,
    roundId: entry.playId,
    betRequestId: entry.betRequestId,
    amountCents: entry.amountCents,
    currency: WALLET_CURRENCY,
  } as const;
  const options = { timeoutMs: settings.timeoutMs, connections: settings.connections };
  const outcome = settlementOutcome(
    entry.kind === 'win'
      ? await callWallet(settings.url, settings.keyring, 'win', body, options)
      : await callWallet(settings.url, settings.keyring, 'rollback', body, options),
  );
  const now = new Date();
  const delay = retryDelayMs(entry.attempts, settings.retryBaseMs, settings.retryCapMs, random());
  const recorded =
    outcome.kind === 'settled'
      ? store.settleOutbox(entry.requestId, outcome, now)
      : store.retryOutbox(entry.requestId, new Date(now.getTime() + delay), outcome.reason);
  return { outcome, recorded };
}

/** How long a sender holds an entry it took: past its call's timeout, with a margin. */
export function holdMs(settings: WalletSettings): number {
  return 2 * settings.timeoutMs + 1000;
}

import type { StatementEntry } from '../../walletApi/contract.ts';
import type { OutboxEntry, WalletBetRecord } from '../store/types.ts';

/**
 * Reconciliation of the game's calls with the wallet's statement (spec, guarantee 5),
 * line by line, by requestId. Pure: the caller reads both sides.
 *
 * Game side: every bet recorded in the period and the win or rollback owed on it. Wallet
 * side: its log, read over a wider window (settlements may be answered late). Each game
 * call gets a line; each wallet line of the period that the game does not know gets one.
 */

export type ReconcileStatus = 'agree' | 'pending' | 'differ' | 'unknown-to-game';

export interface ReconcileLine {
  status: ReconcileStatus;
  kind: 'bet' | 'win' | 'rollback';
  requestId: string;
  roundId: string | null;
  playerId: string;
  gameCents: number | null;
  walletCents: number | null;
  detail: string;
}

export interface ReconcileReport {
  lines: ReconcileLine[];
  counts: Record<ReconcileStatus, number>;
}

export interface GameCalls {
  /** The bets recorded in the period, and what is owed on them. */
  bets: readonly WalletBetRecord[];
  outbox: readonly OutboxEntry[];
  /** Every requestId the game knows, over a window wider than the period (late settlements). */
  knownRequestIds: ReadonlySet<string>;
}

export function reconcile(
  game: GameCalls,
  walletLog: readonly StatementEntry[],
  from: Date,
  to: Date,
): ReconcileReport {
  const lines: ReconcileLine[] = [];
  const byRequest = new Map(walletLog.map((t) => [t.requestId, t]));
  const settlementOf = new Map(game.outbox.map((o) => [o.betRequestId, o]));
  const add = (line: ReconcileLine) => lines.push(line);

  for (const bet of game.bets) {
    const atWallet = byRequest.get(bet.requestId);
    const base = { kind: 'bet' as const, requestId: bet.requestId, roundId: bet.playId, playerId: bet.walletPlayerId };
    const walletCents = atWallet ? atWallet.amountCents : null;
    switch (bet.state) {
      case 'sending':
        add({ ...base, status: 'pending', gameCents: bet.stakeCents, walletCents, detail: 'outcome not known yet' });
        break;
      case 'refused':
        add(
          atWallet
            ? { ...base, status: 'differ', gameCents: null, walletCents, detail: `refused (${bet.refusal}) but booked` }
            : { ...base, status: 'agree', gameCents: null, walletCents: null, detail: `refused: ${bet.refusal}` },
        );
        break;
      case 'sold':
        add(
          atWallet?.kind === 'bet' && atWallet.amountCents === bet.stakeCents && atWallet.movedCents === -bet.stakeCents
            ? { ...base, status: 'agree', gameCents: bet.stakeCents, walletCents, detail: atWallet.transactionId }
            : {
                ...base,
                status: 'differ',
                gameCents: bet.stakeCents,
                walletCents,
                detail: atWallet ? `booked as ${atWallet.kind} moving ${atWallet.movedCents}` : 'not at the wallet',
              },
        );
        break;
      case 'cancelled': {
        // Reversed: at the wallet either the bet and its reversal, or the reversal of a bet it never took.
        const rollback = settlementOf.get(bet.requestId);
        const reversal = rollback ? byRequest.get(rollback.requestId) : undefined;
        const reversed = reversal?.movedCents ?? null;
        const agrees = atWallet ? reversed === bet.stakeCents : reversed === 0;
        add({
          ...base,
          status: rollback?.state === 'pending' ? 'pending' : agrees ? 'agree' : 'differ',
          // Net: what the bet and its reversal moved together (0 once reversed).
          gameCents: 0,
          walletCents: (atWallet?.movedCents ?? 0) + (reversed ?? 0),
          detail: atWallet ? `taken then reversed (${reversed ?? 'not yet'})` : 'never taken; reversal remembered',
        });
        break;
      }
    }
  }

  for (const entry of game.outbox) {
    const atWallet = byRequest.get(entry.requestId);
    const base = {
      kind: entry.kind,
      requestId: entry.requestId,
      roundId: entry.playId,
      playerId: entry.walletPlayerId,
      gameCents: entry.amountCents,
      walletCents: atWallet ? atWallet.amountCents : null,
    };
    if (entry.state === 'pending') {
      add({
        ...base,
        status: 'pending',
        detail: `owed; ${entry.attempts} attempt(s)${entry.lastError ? `, last: ${entry.lastError}` : ''}`,
      });
    } else if (entry.state === 'failed') {
      add({ ...base, status: 'differ', detail: `the wallet answered ${entry.answerStatus}` });
    } else if (!atWallet || atWallet.kind !== entry.kind || atWallet.amountCents !== entry.amountCents) {
      add({
        ...base,
        status: 'differ',
        detail: atWallet ? `booked as ${atWallet.kind} of ${atWallet.amountCents}` : 'not at the wallet',
      });
    } else {
      add({ ...base, status: 'agree', detail: atWallet.transactionId });
    }
  }

  for (const t of walletLog) {
    if (t.kind !== 'bet' && t.kind !== 'win' && t.kind !== 'rollback') continue;
    const at = Date.parse(t.createdAt);
    if (at < from.getTime() || at >= to.getTime() || game.knownRequestIds.has(t.requestId)) continue;
    add({
      status: 'unknown-to-game',
      kind: t.kind,
      requestId: t.requestId,
      roundId: t.roundId,
      playerId: t.playerId,
      gameCents: null,
      walletCents: t.amountCents,
      detail: `${t.transactionId} at ${t.createdAt}`,
    });
  }

  const counts: Record<ReconcileStatus, number> = { agree: 0, pending: 0, differ: 0, 'unknown-to-game': 0 };
  for (const line of lines) counts[line.status]++;
  return { lines, counts };
}

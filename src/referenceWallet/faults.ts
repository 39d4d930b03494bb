import { mulberry32 } from '../common/seededRandom.ts';
import { WALLET_CALLS, type WalletCall } from '../walletApi/index.ts';
import type { ForcedRefusal } from './ledger.ts';

/**
 * The reference wallet's fault mode, for testing a game server against a wallet that
 * misbehaves the ways real ones do. Each kind has its own rate (0 to 1) and is drawn for
 * every call of the contract (balance, bet, win, rollback; `calls` narrows that) from one
 * seeded generator, so a run with the same seed and the same sequence of calls makes the
 * same faults.
 *
 * - latency: the call waits `minMs`–`maxMs` before it is processed;
 * - error: HTTP 5xx (`errorStatus`) before anything is done;
 * - lostAnswer: the call is processed and committed, then the connection is destroyed
 *   without an answer;
 * - duplicate: the call is processed twice, as a duplicated delivery would be; the second
 *   time is absorbed by idempotency on requestId and its (stored) answer is sent;
 * - refuse: a new bet is refused with `refuse.status` (a final answer, stored like any other).
 */
export interface FaultSettings {
  seed: number;
  calls: readonly WalletCall[];
  latency: { rate: number; minMs: number; maxMs: number };
  errorRate: number;
  errorStatus: number;
  lostAnswerRate: number;
  duplicateRate: number;
  refuse: { rate: number; status: ForcedRefusal };
}

export const NO_FAULTS: FaultSettings = {
  seed: 1,
  calls: WALLET_CALLS,
  latency: { rate: 0, minMs: 0, maxMs: 0 },
  errorRate: 0,
  errorStatus: 503,
  lostAnswerRate: 0,
  duplicateRate: 0,
  refuse: { rate: 0, status: 'LIMIT_REACHED' },
};

export interface FaultDecision {
  latencyMs: number;
  error: boolean;
  lostAnswer: boolean;
  duplicate: boolean;
  refuse: ForcedRefusal | null;
}

export const CLEAN: FaultDecision = { latencyMs: 0, error: false, lostAnswer: false, duplicate: false, refuse: null };

export type FaultCounts = Record<'calls' | 'delayed' | 'errors' | 'lostAnswers' | 'duplicates' | 'refusals', number>;

export function isActive(settings: FaultSettings): boolean {
  return (
    settings.latency.rate > 0 ||
    settings.errorRate > 0 ||
    settings.lostAnswerRate > 0 ||
    settings.duplicateRate > 0 ||
    settings.refuse.rate > 0
  );
}

export class FaultPlan {
  private readonly random: () => number;
  readonly counts: FaultCounts = { calls: 0, delayed: 0, errors: 0, lostAnswers: 0, duplicates: 0, refusals: 0 };

  constructor(readonly settings: FaultSettings) {
    this.random = mulberry32(settings.seed);
  }

  /** The faults of the next call. Six draws per call in scope, whatever comes out, so the stream stays aligned. */
  decide(call: WalletCall): FaultDecision {
    const s = this.settings;
    if (!isActive(s) || !s.calls.includes(call)) return CLEAN;
    const [delayed, delay, error, lost, duplicate, refuse] = Array.from({ length: 6 }, () => this.random()) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const decision: FaultDecision = {
      latencyMs:
        delayed < s.latency.rate ? s.latency.minMs + Math.floor(delay * (s.latency.maxMs - s.latency.minMs + 1)) : 0,
      error: error < s.errorRate,
      lostAnswer: false,
      duplicate: false,
      refuse: null,
    };
    if (!decision.error) {
      decision.lostAnswer = lost < s.lostAnswerRate;
      decision.duplicate = duplicate < s.duplicateRate;
      decision.refuse = call === 'bet' && refuse < s.refuse.rate ? s.refuse.status : null;
    }
    this.counts.calls++;
    if (decision.latencyMs > 0) this.counts.delayed++;
    if (decision.error) this.counts.errors++;
    if (decision.lostAnswer) this.counts.lostAnswers++;
    if (decision.duplicate) this.counts.duplicates++;
    if (decision.refuse) this.counts.refusals++;
    return decision;
  }
}

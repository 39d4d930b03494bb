/**
 * The figures of `npm run bench:wallet` (both modes): the modes measured, one run's figures,
 * the medians of the rounds and the targets. Pure, so that it is tested.
 */

export type Mode = 'embedded' | 'wallet' | 'wallet + 5 ms' | 'control: wallet alone' | 'control: game’s calls alone';
/** The modes of both runs; the default run adds « control: game’s calls alone » (CALLS_ALONE). */
export const MODES: Mode[] = ['embedded', 'wallet', 'wallet + 5 ms', 'control: wallet alone'];
export const CALLS_ALONE: Mode = 'control: game’s calls alone';
export const CONNECTIONS = [16, 64];
/** What « wallet + 5 ms » adds to every wallet call (the wallet's fault mode). */
export const ADDED_LATENCY_MS = 5;

/** What each mode is, for BENCHMARKS.md. */
export const MODES_EXPLAINED =
  '« embedded »: demo plays on the game’s own ledger; « wallet »: a portal player’s plays (bet, sale, win: ' +
  `two wallet calls per play, the game’s writes riding its group commits); « wallet + ${ADDED_LATENCY_MS} ms »: ${ADDED_LATENCY_MS} ms added to ` +
  'every wallet call; « control: wallet alone »: bets sent straight to the reference wallet (signed, no game server): ' +
  'its own pace, in calls/s — a wallet play needs two calls.';

/** Who spends CPU: the game server, the operator's wallet, the load generator. */
export type Part = 'game' | 'wallet' | 'loader';

export interface Figures {
  /** Answered requests a second: plays (calls for the control). */
  rps: number;
  p50: number;
  p99: number;
  /** Errors, timeouts and non-2xx answers. */
  failed: number;
  /** CPU time each part spent per answered request, µs: what it would need on a machine of its own. */
  cpuUs: Partial<Record<Part, number>>;
  /** Bytes each process wrote to storage per answered request, KiB (WAL frames and checkpoints). */
  diskKiB?: Partial<Record<Part, number>>;
  /** With `--machines`: share of the CFS periods in which each part's group used its whole quota. */
  atQuota?: Partial<Record<Part, number>>;
}

export const runKey = (mode: Mode, connections: number) => `${mode}|${connections}`;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface Summary extends Figures {
  /** Slowest and fastest round. */
  range: [number, number];
}

function medians(records: Partial<Record<Part, number>>[]): Partial<Record<Part, number>> {
  const out: Partial<Record<Part, number>> = {};
  for (const part of ['game', 'wallet', 'loader'] as const) {
    const values = records.map((r) => r[part]).filter((v): v is number => v !== undefined);
    if (values.length > 0) out[part] = median(values);
  }
  return out;
}

/** Each figure the median of the rounds (each on its own), failures added up. */
export function summarize(rounds: Figures[]): Summary {
  if (rounds.length === 0) throw new Error('no rounds to summarize');
  const rps = rounds.map((f) => f.rps);
  const atQuota = rounds.flatMap((f) => (f.atQuota ? [f.atQuota] : []));
  const diskKiB = rounds.flatMap((f) => (f.diskKiB ? [f.diskKiB] : []));
  return {
    rps: median(rps),
    p50: median(rounds.map((f) => f.p50)),
    p99: median(rounds.map((f) => f.p99)),
    failed: rounds.reduce((n, f) => n + f.failed, 0),
    cpuUs: medians(rounds.map((f) => f.cpuUs)),
    ...(diskKiB.length > 0 ? { diskKiB: medians(diskKiB) } : {}),
    ...(atQuota.length > 0 ? { atQuota: medians(atQuota) } : {}),
    range: [Math.min(...rps), Math.max(...rps)],
  };
}

/** The targets: wallet plays/s ≥ 0.5 × the embedded ledger's; with 5 ms added, p99 ≤ 40 ms at 16 connections. */
export const TARGETS = { ratio: 0.5, p99Ms: 40, p99Connections: 16 } as const;

/** One sentence per target, from the medians: what was measured and whether it is met. */
export function targetVerdicts(summaries: Map<string, Summary>): string[] {
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  const ratios = CONNECTIONS.flatMap((connections) => {
    const wallet = summaries.get(runKey('wallet', connections));
    const embedded = summaries.get(runKey('embedded', connections));
    return wallet && embedded ? [{ connections, ratio: wallet.rps / embedded.rps }] : [];
  });
  const verdicts: string[] = [];
  if (ratios.length > 0)
    verdicts.push(
      `wallet plays/s ÷ embedded (target ≥ ${TARGETS.ratio} ×): ` +
        ratios
          .map((r) => `**${r.ratio.toFixed(2)} ×** at ${r.connections} connections (${met(r.ratio >= TARGETS.ratio)})`)
          .join(', '),
    );
  const slow = summaries.get(runKey('wallet + 5 ms', TARGETS.p99Connections));
  if (slow)
    verdicts.push(
      `p99 with ${ADDED_LATENCY_MS} ms added to each wallet call at ${TARGETS.p99Connections} connections ` +
        `(target ≤ ${TARGETS.p99Ms} ms): **${formatMs(slow.p99)} ms** (${met(slow.p99 <= TARGETS.p99Ms)})`,
    );
  return verdicts;
}

/** A latency for a table: one decimal under 10 ms, whole above; "—" when the load generator gave none. */
export const formatMs = (v: number) => (Number.isNaN(v) ? '—' : v < 10 ? v.toFixed(1) : String(Math.round(v)));

/**
 * Which limit a `--machines` run ran into, from what the groups (and the cursor) show: pure,
 * so that the rule is tested and written down once.
 */

export interface LimitEvidence {
  /** Share of the periods in which the instances' groups used their whole quota (their average). */
  instancesAtQuota: number;
  /** The same for PostgreSQL's group. */
  postgresAtQuota: number;
  /** Share of the time the shared block cursor was locked by a batch. */
  cursorHeld: number;
  /** Play transactions waiting on a row lock, on average. */
  lockWaits: number;
}

/** A group that hits its quota in this share of its periods or more is held back by it. */
export const AT_QUOTA = 0.5;
/** A cursor locked this share of the time or more leaves little room for another batch. */
export const CURSOR_BUSY = 0.8;

/** A group's share of periods at its quota; `whose` names it for the reader ("PostgreSQL" → "PostgreSQL's CPU"). */
export interface GroupAtQuota {
  whose: string;
  atQuota: number;
  /**
   * Cores it used on average, and its quota in cores, where known: cpu.stat counts only the
   * periods in which the group had work, so a group idle most of the time can be "at quota" in
   * many of its few periods while it used little of its quota.
   */
  used?: { cores: number; quotaCores: number };
}

/** A group that used less than this share of its quota is not held back by it, whatever cpu.stat says. */
export const QUOTA_USED = 0.8;

/** Whether a group's quota held it back: at quota in AT_QUOTA of its periods, and (where known) QUOTA_USED of it used. */
export function heldBack(group: GroupAtQuota): boolean {
  return group.atQuota >= AT_QUOTA && (!group.used || group.used.cores >= QUOTA_USED * group.used.quotaCores);
}

/** The groups held back by their quota, each with how much it shows. */
function quotaLimits(groups: GroupAtQuota[]): [number, string][] {
  return groups
    .filter(heldBack)
    .map((group) => [
      group.atQuota,
      `${group.whose}'s CPU (at its quota in ${Math.round(group.atQuota * 100)} % of the periods` +
        (group.used ? `, ${group.used.cores.toFixed(2)} of its ${group.used.quotaCores} core used)` : ')'),
    ]);
}

const mostFirst = (found: [number, string][]) => [...found].sort((a, b) => b[0] - a[0]).map(([, text]) => text);

/** The limits that show, the one most in evidence first; empty when none does. */
export function namedLimits(e: LimitEvidence): string[] {
  const found: [number, string][] = [];
  if (e.cursorHeld >= CURSOR_BUSY)
    found.push([
      e.cursorHeld,
      `the block cursor row (locked ${Math.round(e.cursorHeld * 100)} % of the time, ${e.lockWaits.toFixed(2)} batches waiting for it on average)`,
    ]);
  found.push(
    ...quotaLimits([
      { whose: 'PostgreSQL', atQuota: e.postgresAtQuota },
      { whose: 'each instance', atQuota: e.instancesAtQuota },
    ]),
  );
  return mostFirst(found);
}

/** What one row of `bench:wallet -- --machines` shows: its groups, and the plays in flight. */
export interface WalletRowEvidence {
  /** The game server's, the wallet's and the load generator's groups (those that ran). */
  groups: GroupAtQuota[];
  connections: number;
  /** Answered requests a second. */
  rps: number;
}

/**
 * The groups at their quota, the most first; with none, the waiting: each connection has one
 * request in flight, so connections ÷ requests/s is the time each one took (Little's law), spent
 * waiting on something other than a quota (the wallet's added latency, disk syncs, the machine
 * around the groups).
 */
export function walletRowLimits(e: WalletRowEvidence): string[] {
  const found = quotaLimits(e.groups);
  if (found.length > 0) return mostFirst(found);
  const msEach = (e.connections / Math.max(e.rps, 1e-9)) * 1000;
  return [
    `no quota: the waits (${e.connections} connections ÷ ${Math.round(e.rps).toLocaleString('en-US')} per s = ${msEach.toFixed(1)} ms a request)`,
  ];
}

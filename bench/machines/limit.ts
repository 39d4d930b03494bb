/**
 * Which limit a `--machines` run ran into, from what the groups and the cursor show: pure,
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

/** The limits that show, the one most in evidence first; empty when none does. */
export function namedLimits(e: LimitEvidence): string[] {
  const found: [number, string][] = [];
  if (e.cursorHeld >= CURSOR_BUSY)
    found.push([
      e.cursorHeld,
      `the block cursor row (locked ${Math.round(e.cursorHeld * 100)} % of the time, ${e.lockWaits.toFixed(2)} batches waiting for it on average)`,
    ]);
  if (e.postgresAtQuota >= AT_QUOTA)
    found.push([
      e.postgresAtQuota,
      `PostgreSQL's CPU (at its quota in ${Math.round(e.postgresAtQuota * 100)} % of the periods)`,
    ]);
  if (e.instancesAtQuota >= AT_QUOTA)
    found.push([
      e.instancesAtQuota,
      `each instance's CPU (at its quota in ${Math.round(e.instancesAtQuota * 100)} % of the periods)`,
    ]);
  return found.sort((a, b) => b[0] - a[0]).map(([, text]) => text);
}

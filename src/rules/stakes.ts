/** The four prices of a unit (Article 2), in cents. */
export const STAKES_CENTS = [100, 200, 300, 500] as const;
export type StakeCents = (typeof STAKES_CENTS)[number];

export function isStakeCents(value: unknown): value is StakeCents {
  return typeof value === 'number' && (STAKES_CENTS as readonly number[]).includes(value);
}

/** Whole euros of a stake: every table is "per 1 €" multiplied by this. */
export function stakeEuros(stake: StakeCents): number {
  return stake / 100;
}

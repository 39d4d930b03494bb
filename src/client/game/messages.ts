import type { AccountResponse, ErrorCode, StakeOffer } from '../../contract/api.ts';
import { STAKES_CENTS, type StakeCents } from '../../rules/stakes.ts';
import type { Strings } from '../i18n/index.ts';
import type { ApiFailure } from '../net/http.ts';

/** What is on sale, as the last account said: each stake's offer and the sales window's state. */
export interface SaleStatus {
  readonly offers: readonly StakeOffer[];
  readonly open: boolean;
  /** The operator's word when sales are closed (may be empty). */
  readonly message: string;
  /** The configured sales window (ISO dates), when the server gives it. */
  readonly opensAt?: string | null;
  readonly closesAt?: string | null;
}

/** Before the first account: every stake on sale. */
export const ALL_ON_SALE: SaleStatus = {
  offers: STAKES_CENTS.map((stakeCents) => ({ stakeCents, onSale: true })),
  open: true,
  message: '',
};

export function saleStatusOf(account: AccountResponse): SaleStatus {
  return {
    offers: account.stakes,
    open: account.sales.open,
    message: account.sales.message,
    opensAt: account.sales.opensAt,
    closesAt: account.sales.closesAt,
  };
}

export function isOnSale(sales: SaleStatus, stake: StakeCents): boolean {
  return sales.open && !!sales.offers.find((o) => o.stakeCents === stake)?.onSale;
}

/** Why the chosen stake cannot be bought now, or null when it can. */
export function offerMessage(sales: SaleStatus, stake: StakeCents, strings: Strings): string | null {
  if (!sales.open) return sales.message || strings.errors.SALES_CLOSED;
  const offer = sales.offers.find((o) => o.stakeCents === stake);
  if (offer && !offer.onSale) return strings.errors.SOLD_OUT;
  return null;
}

/** The player's words for a failed call: the server's code, or the network. */
export function failureMessage(failure: ApiFailure, strings: Strings): string {
  const errors = strings.errors;
  if (failure.kind === 'network') return errors.network;
  if (failure.code === 'SALES_CLOSED' && failure.message) return failure.message;
  return errors[failure.code as ErrorCode] ?? errors.unknown;
}

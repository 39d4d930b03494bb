import type { Locale } from '../../rules/money.ts';
import { formatCents } from '../../rules/money.ts';
import type { StakeCents } from '../../rules/stakes.ts';
import type { Strings } from '../i18n/index.ts';
import { isOnSale, offerMessage, type SaleStatus } from './messages.ts';

/**
 * What the idle table offers the player, from the server's last word: the stakes on
 * sale, the stakes the balance can pay, and the line that says why « Jouer » is off
 * (closed sales with their dates, a sold-out stake, a balance too low).
 */

/** Whether the balance can pay `stake`; an unknown balance (not loaded yet) can. */
export function canAfford(stake: StakeCents, balanceCents: number | null): boolean {
  return balanceCents === null || stake <= balanceCents;
}

/** The stakes on sale that the balance can pay, smallest first. */
export function playableStakes(sales: SaleStatus, balanceCents: number | null): StakeCents[] {
  return sales.offers
    .filter((o) => isOnSale(sales, o.stakeCents) && canAfford(o.stakeCents, balanceCents))
    .map((o) => o.stakeCents);
}

/** The stake to show selected: the chosen one if the balance pays it, else the biggest it pays. */
export function fittedStake(chosen: StakeCents, sales: SaleStatus, balanceCents: number | null): StakeCents {
  if (canAfford(chosen, balanceCents)) return chosen;
  return playableStakes(sales, balanceCents).at(-1) ?? chosen;
}

/** Whether no stake on sale can be paid from the balance (sales open). */
export function balanceTooLow(sales: SaleStatus, balanceCents: number | null): boolean {
  if (!sales.open || balanceCents === null) return false;
  const onSale = sales.offers.filter((o) => o.onSale).map((o) => o.stakeCents);
  return onSale.length > 0 && onSale.every((s) => s > balanceCents);
}

/** A date of the sales window, French time (the regulation's), in the player's language. */
export function salesDate(iso: string, locale: Locale): string {
  return new Date(iso).toLocaleString(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/Paris',
  });
}

/** When closed sales open or closed: null when the server gave no date that says it. */
export function salesWindowLine(sales: SaleStatus, now: Date, strings: Strings, locale: Locale): string | null {
  if (sales.open) return null;
  const opens = sales.opensAt ? new Date(sales.opensAt) : null;
  const closes = sales.closesAt ? new Date(sales.closesAt) : null;
  if (opens && now < opens) return strings.salesOpenOn(salesDate(sales.opensAt!, locale));
  if (closes && now >= closes) return strings.salesClosedOn(salesDate(sales.closesAt!, locale));
  if (opens && closes)
    return strings.salesWindowDates(salesDate(sales.opensAt!, locale), salesDate(sales.closesAt!, locale));
  return null;
}

/** The idle table's line: why « Jouer » is off, or null when the chosen stake can be bought. */
export function tableMessage(
  sales: SaleStatus,
  stake: StakeCents,
  balanceCents: number | null,
  now: Date,
  strings: Strings,
  locale: Locale,
): string | null {
  const offer = offerMessage(sales, stake, strings);
  if (!sales.open) return [offer, salesWindowLine(sales, now, strings, locale)].filter(Boolean).join(' ');
  if (balanceTooLow(sales, balanceCents)) {
    const smallest = Math.min(...sales.offers.filter((o) => o.onSale).map((o) => o.stakeCents));
    return strings.balanceTooLow(formatCents(balanceCents!, locale), formatCents(smallest, locale));
  }
  return offer;
}

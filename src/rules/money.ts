/**
 * Money is always an integer number of euro cents. Nothing here ever produces a
 * fractional amount: every helper checks its inputs and refuses non-integers.
 */
export type Cents = number;

export function isCents(value: unknown): value is Cents {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function assertCents(value: number, what = 'amount'): Cents {
  if (!isCents(value)) throw new RangeError(`${what} must be an integer number of cents, got ${value}`);
  return value;
}

export type Locale = 'fr' | 'en';

const NBSP = '\u00a0';

function groupThousands(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** Whole counts (points, lots) grouped like amounts: « 2 000 » in French, "2,000" in English. */
export function formatCount(count: number, locale: Locale = 'fr'): string {
  if (!Number.isSafeInteger(count)) throw new RangeError(`a count must be an integer, got ${count}`);
  const sign = count < 0 ? '-' : '';
  return sign + groupThousands(Math.abs(count).toString(), locale === 'en' ? ',' : NBSP);
}

/**
 * « 0,50 € », « 7 € », « 20 000 € » in French; "€0.50", "€7", "€20,000" in English.
 * Whole amounts drop the decimals, as on the regulation's tables.
 */
export function formatCents(cents: Cents, locale: Locale = 'fr'): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100).toString();
  const rest = abs % 100;
  const decimals = rest === 0 ? '' : rest.toString().padStart(2, '0');
  if (locale === 'en') {
    return `${sign}€${groupThousands(euros, ',')}${decimals ? '.' + decimals : ''}`;
  }
  return `${sign}${groupThousands(euros, NBSP)}${decimals ? ',' + decimals : ''}${NBSP}€`;
}

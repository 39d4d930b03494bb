import { formatCents, type Locale } from '../../rules/money.ts';

/** U+202F: before « : ; ! ? » and inside « », as French typesetting wants. */
export const NARROW_NBSP = '\u202f';
/** U+00A0: between a number and its unit (« 100 points », « 3 € »). */
export const NBSP = '\u00a0';
/** U+2212: a true minus sign, for a negative amount. */
export const MINUS = '\u2212';

/** The units the game writes after a figure, in both languages. */
const UNIT_AFTER_NUMBER = /(\d) (?=€|%|(?:points?|lots?|min|h|cloches?|bells?|unités|units|tickets?|sur)(?![\p{L}]))/gu;

/**
 * The page's one typesetter: every string the player reads goes through it (the
 * strings of fr.ts and en.ts are wrapped by `typesetStrings`, the server's own
 * messages by the HUD). It only ever changes spaces and signs, never words, and
 * running it twice changes nothing.
 */
export function typeset(text: string, locale: Locale): string {
  // A hyphen before a figure, at the start or after a space or bracket, is a minus sign.
  let out = text.replace(/(^|[\s(])-(?=\d)/gu, `$1${MINUS}`);
  // A number and its unit stay on one line.
  out = out.replace(UNIT_AFTER_NUMBER, `$1${NBSP}`);
  if (locale !== 'fr') return out;
  return (
    out
      // The space before « : ; ! ? » (any kind, or none after a word) becomes a narrow no-break one.
      .replace(/[ \u00a0\u202f]+([:;!?])/gu, `${NARROW_NBSP}$1`)
      .replace(/([\p{L}\d…)»])([;!?])(?=\s|$|[!?])/gu, `$1${NARROW_NBSP}$2`)
      // Inside « »: a narrow no-break space on each side.
      .replace(/«[ \u00a0\u202f]*/gu, `«${NARROW_NBSP}`)
      .replace(/[ \u00a0\u202f]*»/gu, `${NARROW_NBSP}»`)
  );
}

/** An amount with its sign said: « +19 € », « −1 € », « 0 € » (a true minus sign). */
export function formatSignedCents(cents: number, locale: Locale): string {
  const amount = formatCents(Math.abs(cents), locale);
  return cents > 0 ? `+${amount}` : cents < 0 ? `${MINUS}${amount}` : amount;
}

type Typeset<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Typeset<R>
    : T extends readonly (infer E)[]
      ? Typeset<E>[]
      : T extends object
        ? { [K in keyof T]: Typeset<T[K]> }
        : T;

/** `strings` with every text in it, and every text its functions return, typeset. */
export function typesetStrings<T>(strings: T, locale: Locale): Typeset<T> {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return typeset(value, locale);
    if (typeof value === 'function')
      return (...args: unknown[]) => walk((value as (...a: unknown[]) => unknown)(...args));
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, walk(v)]));
    }
    return value;
  };
  return walk(strings) as Typeset<T>;
}

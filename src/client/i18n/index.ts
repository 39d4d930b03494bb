import type { Locale } from '../../rules/money.ts';
import { en } from './en.ts';
import { fr } from './fr.ts';
import type { Strings } from './strings.ts';

export type { Strings };

/** French unless the page asks for English with ?lang=en. */
export function pickLocale(search: string): Locale {
  return new URLSearchParams(search).get('lang') === 'en' ? 'en' : 'fr';
}

export function stringsFor(locale: Locale): Strings {
  return locale === 'en' ? en : fr;
}

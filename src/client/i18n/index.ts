import type { Locale } from '../../rules/money.ts';
import { en } from './en.ts';
import { fr } from './fr.ts';
import type { Strings } from './strings.ts';

export type { Strings };

export function stringsFor(locale: Locale): Strings {
  return locale === 'en' ? en : fr;
}

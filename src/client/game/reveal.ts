import type { Play } from '../../contract/api.ts';
import { evaluateWheels } from '../../rules/evaluate.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import type { Strings } from '../i18n/index.ts';
import type { AudioOut } from './audioOut.ts';
import type { ControlsView, TableView } from './views.ts';
import { winLevel } from './winLevels.ts';

/** How a result is shown: on the table, in sound, and in words for screen readers. */
export interface RevealOut {
  table: Pick<TableView, 'celebrate'>;
  controls: Pick<ControlsView, 'announce'>;
  audio: Pick<AudioOut, 'play'>;
  strings: Strings;
  locale: Locale;
  reducedMotion: boolean;
}

/** The wheels that glow: bells when JEU 1 won, every wheel when JEU 2 won. */
export function glowingWheels(play: Play): boolean[] {
  return play.wheels.map((w) => {
    const s = w.segments[w.stop]!;
    return (play.jeu1.winCents > 0 && s.symbol === 'bell') || play.jeu2.winCents > 0;
  });
}

/** Glow, sprinkles and sound for the play's win level. */
export function celebrateResult(play: Play, out: RevealOut): void {
  const level = winLevel(play.winCents, play.stakeCents);
  out.table.celebrate(level, glowingWheels(play), out.reducedMotion);
  out.audio.play(level.cue);
}

/** JEU 1, JEU 2 and the total, in words. */
export function announceResult(play: Play, out: RevealOut): void {
  const t = out.strings;
  const money = (c: number) => (c > 0 ? formatCents(c, out.locale) : t.noWin);
  out.controls.announce(t.resultLine(t.jeu1, t.bellsFound(play.jeu1.bells), money(play.jeu1.winCents)));
  out.controls.announce(t.resultLine(t.jeu2, t.pointsTotal(play.jeu2.points), money(play.jeu2.winCents)));
  out.controls.announce(play.winCents > 0 ? t.totalLine(formatCents(play.winCents, out.locale)) : t.lostTitle);
}

/** When a past play was made, in the player's language (the replay's label). */
export function playDate(play: Play, locale: Locale): string {
  return new Date(play.createdAt).toLocaleString(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'short',
    timeStyle: 'medium',
  });
}

/** The client never decides, but it notices when what it shows disagrees with the server. */
export function checkAgainstRules(play: Play): void {
  const seen = evaluateWheels(play.wheels, play.stakeCents);
  if (
    seen.bells !== play.jeu1.bells ||
    seen.points !== play.jeu2.points ||
    seen.jeu1WinCents !== play.jeu1.winCents ||
    seen.jeu2WinCents !== play.jeu2.winCents ||
    seen.winCents !== play.winCents
  ) {
    console.error('SPINCAKE: the wheels disagree with the server’s result', { playId: play.playId, seen, play });
  }
}

import type { Play } from '../../contract/api.ts';
import type { Strings } from '../i18n/index.ts';

/** What the wheels stopped so far show: bells found (JEU 1) and points collected (JEU 2). */
export interface LiveTally {
  bells: number;
  points: number;
  stopped: number;
}

/**
 * The tally of the wheels that have stopped, read from the server's segments under their
 * cursors: it grows as each wheel stops, and with all four it is the card's own figures.
 */
export function liveTally(play: Pick<Play, 'wheels'>, stopped: readonly boolean[]): LiveTally {
  let bells = 0;
  let points = 0;
  let count = 0;
  play.wheels.forEach((w, i) => {
    if (!stopped[i]) return;
    const segment = w.segments[w.stop]!;
    count++;
    points += segment.points;
    if (segment.symbol === 'bell') bells++;
  });
  return { bells, points, stopped: count };
}

/** The tally in words for the line over the table (null before any wheel stopped). */
export function liveTallyText(tally: LiveTally, t: Pick<Strings, 'liveTally'>): string | null {
  return tally.stopped === 0 ? null : t.liveTally(tally.bells, tally.points);
}

import { describe, expect, it } from 'vitest';
import { formatCount } from '../../rules/money.ts';
import { en } from '../i18n/en.ts';
import { fr } from '../i18n/fr.ts';
import { makePlay } from './fakes.ts';
import { liveTally, liveTallyText } from './tally.ts';

describe('liveTally', () => {
  it('adds up the bells and points of the stopped wheels only, and with all four gives the card’s figures', () => {
    const play = makePlay({ stops: [0, 1, 2, 3], bells: 2, points: 325 });
    expect(liveTally(play, [false, false, false, false])).toEqual({ bells: 0, points: 0, stopped: 0 });
    expect(liveTally(play, [false, true, false, false])).toEqual({ bells: 1, points: 325, stopped: 1 });
    expect(liveTally(play, [false, true, true, false])).toEqual({ bells: 1, points: 650, stopped: 2 });
    const all = liveTally(play, [true, true, true, true]);
    expect([all.bells, all.points]).toEqual([play.jeu1.bells, play.jeu2.points]);
  });

  it('says it as « 2 cloches · 650 pts », with no-break spaces, and nothing before a wheel stopped', () => {
    expect(liveTallyText({ bells: 2, points: 650, stopped: 3 }, fr)).toBe('2\u00a0cloches · 650\u00a0pts');
    expect(liveTallyText({ bells: 1, points: 50, stopped: 1 }, fr)).toBe('1\u00a0cloche · 50\u00a0pts');
    expect(liveTallyText({ bells: 0, points: 1250, stopped: 4 }, fr)).toBe(
      `0\u00a0cloche · ${formatCount(1250, 'fr')}\u00a0pts`,
    );
    expect(liveTallyText({ bells: 2, points: 650, stopped: 2 }, en)).toBe('2\u00a0bells · 650\u00a0pts');
    expect(liveTallyText({ bells: 0, points: 0, stopped: 0 }, fr)).toBeNull();
  });
});
